// Styles of the passkey part of the sign-in form (loaded with it, outside the sign-in entry).
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

/** "or" between the password form and the passkey button, a rule on each side. */
export const divider = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.sizeSmall,
  selectors: {
    '&::before, &::after': { content: '""', flex: 1, borderTop: `1px solid ${vars.color.border}` },
  },
});

/** The passkey button beside the primary "Sign in": outlined. */
export const button = style({
  minHeight: '40px',
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: 'transparent',
  color: vars.color.primary,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.text}`, outlineOffset: '2px' },
    '&[aria-disabled=true]': { opacity: 0.65, cursor: 'progress' },
  },
});
