import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

/** One assertion consumer service: its URL, its binding and the button that removes it. */
export const acsRow = style({ display: 'flex', alignItems: 'flex-end', flexWrap: 'wrap', gap: vars.space.sm });

export const acsUrl = style({ flex: '1 1 260px', minWidth: 0 });

export const group = style({ margin: `0 0 ${vars.space.md}`, padding: 0, border: 0, minWidth: 0 });

export const legend = style({ padding: 0, marginBottom: vars.space.xs, fontWeight: 600 });

export const certificate = style({
  margin: 0,
  padding: vars.space.sm,
  maxHeight: '160px',
  overflow: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  background: vars.color.inputBackground,
  fontSize: vars.font.sizeSmall,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});

/** Whether the app is a service provider and what it shares with OpenID Connect, set off from the details below. */
export const intro = style({ marginBottom: vars.space.md });
