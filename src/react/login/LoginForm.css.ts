// Styles of the sign-in form. Class names are hashed at build time, so the form can render in a
// host page's light DOM without colliding with the host's classes.
import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';

globalStyle(':where(iam-login)', {
  display: 'block',
  colorScheme: 'dark',
});
globalStyle(':where(iam-login[theme="light"])', {
  colorScheme: 'light',
});

export const card = style({
  boxSizing: 'border-box',
  width: '100%',
  maxWidth: '380px',
  marginInline: 'auto',
  padding: `${vars.space.xl} ${vars.space.lg}`,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.card,
  fontFamily: vars.font.family,
  fontSize: vars.font.sizeBase,
  lineHeight: 1.5,
});

export const title = style({
  margin: `0 0 ${vars.space.xs}`,
  fontSize: vars.font.sizeTitle,
  fontWeight: 600,
  lineHeight: 1.3,
});

export const subtitle = style({
  margin: `0 0 ${vars.space.lg}`,
  color: vars.color.textMuted,
});

export const form = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.md,
  margin: 0,
});

export const field = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.xs,
});

export const label = style({
  fontWeight: 500,
});

/** The password row: the toggle overlays the input's right end. */
export const overlayRow = style({
  position: 'relative',
  display: 'flex',
});

/** The captcha row: the image follows the input. */
export const addonRow = style({
  display: 'flex',
  gap: vars.space.sm,
  alignItems: 'stretch',
});

export const input = style({
  boxSizing: 'border-box',
  width: '100%',
  minHeight: '40px',
  padding: `${vars.space.sm} 12px`,
  background: vars.color.inputBackground,
  color: vars.color.text,
  border: `1px solid ${vars.color.inputBorder}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  outline: 'none',
  transition: 'border-color 120ms, box-shadow 120ms',
  selectors: {
    '&:focus-visible': {
      borderColor: vars.color.primary,
      boxShadow: `0 0 0 3px ${vars.color.focusRing}`,
    },
    '&[aria-invalid="true"]': {
      borderColor: vars.color.error,
    },
    '&::placeholder': {
      color: vars.color.textMuted,
      opacity: 1,
    },
  },
});

/** An input with an overlaid addon leaves room for it on its right. */
export const inputWithOverlay = style({
  paddingRight: '44px',
});

export const toggle = style({
  position: 'absolute',
  insetBlock: 0,
  right: 0,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '40px',
  padding: 0,
  background: 'transparent',
  color: vars.color.textMuted,
  border: 'none',
  borderRadius: `0 ${vars.radius.base} ${vars.radius.base} 0`,
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text },
    '&:focus-visible': {
      outline: `2px solid ${vars.color.primary}`,
      outlineOffset: '-2px',
    },
  },
});

export const icon = style({
  width: '20px',
  height: '20px',
});

export const captchaButton = style({
  flex: '0 0 auto',
  display: 'inline-flex',
  padding: 0,
  background: '#ffffff',
  border: `1px solid ${vars.color.inputBorder}`,
  borderRadius: vars.radius.base,
  overflow: 'hidden',
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': {
      outline: `2px solid ${vars.color.primary}`,
      outlineOffset: '2px',
    },
  },
});

export const captchaImage = style({
  display: 'block',
  width: '120px',
  height: '38px',
  objectFit: 'contain',
});

export const hint = style({
  margin: 0,
  color: vars.color.textMuted,
});

export const fieldError = style({
  margin: 0,
  color: vars.color.error,
  fontSize: vars.font.sizeSmall,
});

export const formError = style({
  margin: 0,
  padding: `${vars.space.sm} 12px`,
  background: vars.color.errorSurface,
  color: vars.color.error,
  border: `1px solid ${vars.color.error}`,
  borderRadius: vars.radius.base,
});

export const submit = style({
  minHeight: '40px',
  marginTop: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  border: 'none',
  borderRadius: vars.radius.base,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  transition: 'background-color 120ms',
  selectors: {
    '&:hover:not(:disabled,[aria-disabled=true])': { background: vars.color.primaryHover },
    '&:focus-visible': {
      outline: `2px solid ${vars.color.text}`,
      outlineOffset: '2px',
    },
    '&:disabled,&[aria-disabled=true]': { opacity: 0.65, cursor: 'progress' },
  },
});

/** A success message over the form (e.g. after a password reset). */
export const notice = style({
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} 12px`,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.base,
  color: vars.color.text,
});

/** A quiet text button ("Forgot password?", "Back to sign in"). */
export const linkButton = style({
  alignSelf: 'center',
  padding: vars.space.xs,
  background: 'none',
  border: 'none',
  color: vars.color.primary,
  font: 'inherit',
  textDecoration: 'underline',
  textUnderlineOffset: '3px',
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px', borderRadius: vars.radius.base },
  },
});

/** "Send code" beside the code input; shows the cool-down while it is disabled. */
export const sendButton = style({
  flex: '0 0 auto',
  minWidth: '112px',
  padding: `0 ${vars.space.md}`,
  background: 'transparent',
  color: vars.color.primary,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px' },
    '&:disabled': { color: vars.color.textMuted, borderColor: vars.color.border, cursor: 'default' },
  },
});
