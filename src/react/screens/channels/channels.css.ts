import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

export const section = style({ marginTop: vars.space.lg });

export const sectionTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '17px', fontWeight: 600 });

export const error = style({ color: vars.color.error, fontSize: vars.font.sizeSmall, overflowWrap: 'anywhere' });

export const nowrap = style({ whiteSpace: 'nowrap' });

export const outcome = style({
  margin: 0,
  padding: `${vars.space.sm} 12px`,
  borderRadius: vars.radius.base,
  border: `1px solid ${vars.color.primary}`,
  background: tint(vars.color.primary, 10),
});

export const outcomeFailed = style({ borderColor: vars.color.error, background: vars.color.errorSurface });
