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

/** The tones of a status: good (the primary colour), a problem (the error colour), or neither. */
export const tone = styleVariants({
  good: [pill, { background: tint(vars.color.primary, 16), color: vars.color.primary }],
  problem: [pill, { background: vars.color.errorSurface, color: vars.color.error }],
  neutral: [pill, { background: tint(vars.color.textMuted, 16), color: vars.color.textMuted }],
});

/** Delivery and inbox statuses: delivered/unread stand out, failures in the error colour. */
export const status = { sent: tone.good, unread: tone.good, failed: tone.problem, waiting: tone.neutral };
