import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

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
