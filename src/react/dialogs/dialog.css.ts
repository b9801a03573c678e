// Dialogs: a scrim over the console and a centred panel (a bottom sheet on narrow screens).
import { globalStyle, keyframes, style } from '@vanilla-extract/css';
import { LAYOUT } from '../../core/config';
import { vars } from '../theme/theme.css';

const fade = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } });
const rise = keyframes({ from: { opacity: 0, transform: 'translate(-50%, calc(-50% + 8px))' }, to: { opacity: 1, transform: 'translate(-50%, -50%)' } });
const narrow = `screen and (max-width: ${LAYOUT.mobileBreakpoint - 0.02}px)`;

// The dialog elements take no room in the page: their dialog is fixed over it.
globalStyle(':host(iam-profile-dialog), :host(iam-password-dialog)', { display: 'contents', colorScheme: 'dark' });
globalStyle(':host(iam-profile-dialog[theme="light"]), :host(iam-password-dialog[theme="light"])', { colorScheme: 'light' });

export const overlay = style({
  position: 'fixed',
  inset: 0,
  zIndex: 50,
  background: 'rgb(0 0 0 / 55%)',
  animation: `${fade} 140ms ease-out`,
});

export const content = style({
  position: 'fixed',
  top: '50%',
  left: '50%',
  zIndex: 51,
  display: 'flex',
  flexDirection: 'column',
  width: 'min(92vw, 520px)',
  maxHeight: 'min(88vh, 760px)',
  transform: 'translate(-50%, -50%)',
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: '10px',
  boxShadow: '0 18px 50px rgb(0 0 0 / 40%)',
  fontFamily: vars.font.family,
  fontSize: vars.font.sizeBase,
  lineHeight: 1.5,
  animation: `${rise} 160ms ease-out`,
  outline: 'none',
  '@media': {
    '(prefers-reduced-motion: reduce)': { animation: 'none' },
    [narrow]: { width: 'calc(100vw - 24px)', maxHeight: 'calc(100vh - 24px)' },
  },
});

export const small = style({ width: 'min(92vw, 400px)' });
export const wide = style({ width: 'min(92vw, 900px)' });

export const header = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `14px ${vars.space.md} 12px ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const title = style({ margin: 0, fontSize: '16px', fontWeight: 600 });

export const body = style({ overflowY: 'auto', padding: `${vars.space.md} ${vars.space.lg} ${vars.space.lg}` });

export const description = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted });

/** The room the avatar upload field takes while it loads (label, 96 px preview, hint). */
export const uploadSpace = style({ minHeight: '150px' });
