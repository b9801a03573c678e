import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

const pill = style({
  display: 'inline-flex',
  alignItems: 'center',
  padding: '1px 8px',
  borderRadius: '999px',
  fontSize: vars.font.sizeSmall,
  fontWeight: 600,
  whiteSpace: 'nowrap',
});

/** Delivery and inbox statuses: delivered/unread stand out, failures in the error colour. */
export const status = styleVariants({
  sent: [pill, { background: tint(vars.color.primary, 16), color: vars.color.primary }],
  unread: [pill, { background: tint(vars.color.primary, 16), color: vars.color.primary }],
  failed: [pill, { background: vars.color.errorSurface, color: vars.color.error }],
  waiting: [pill, { background: tint(vars.color.textMuted, 16), color: vars.color.textMuted }],
});

export const section = style({ marginTop: vars.space.lg });

export const sectionTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '17px', fontWeight: 600 });

export const error = style({ color: vars.color.error, fontSize: vars.font.sizeSmall, overflowWrap: 'anywhere' });

export const nowrap = style({ whiteSpace: 'nowrap' });

export const outcome = style({ margin: 0, padding: `${vars.space.sm} 12px`, borderRadius: vars.radius.base, border: `1px solid ${vars.color.primary}`, background: tint(vars.color.primary, 10) });

export const outcomeFailed = style({ borderColor: vars.color.error, background: vars.color.errorSurface });
