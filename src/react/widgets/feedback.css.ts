// Toasts and the progress bar: fixed to the console's viewport, above everything else.
import { keyframes, style, styleVariants } from '@vanilla-extract/css';
import { LAYOUT } from '../../core/config';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

const slide = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } });
const enter = keyframes({ from: { opacity: 0, transform: 'translateY(-6px)' }, to: { opacity: 1, transform: 'none' } });

export const progress = style({
  position: 'fixed',
  insetInline: 0,
  top: 0,
  zIndex: 60,
  height: '3px',
  overflow: 'hidden',
  pointerEvents: 'none',
  background: tint(vars.color.primary, 20),
});

export const progressBar = style({
  width: '40%',
  height: '100%',
  background: vars.color.primary,
  animation: `${slide} 1.1s ease-in-out infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none', width: '100%' } },
});

export const toasts = style({
  position: 'fixed',
  top: '60px',
  left: '50%',
  zIndex: 70,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.sm,
  width: 'min(92vw, 420px)',
  transform: 'translateX(-50%)',
  pointerEvents: 'none',
  // Beside the side menu, centred they would cover the breadcrumb's last step: at the right end of
  // its row, which a breadcrumb leaves empty.
  '@media': { [`screen and (min-width: ${LAYOUT.mobileBreakpoint}px)`]: { left: 'auto', right: vars.space.lg, transform: 'none' } },
});

const toastBase = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: vars.space.sm,
  boxSizing: 'border-box',
  width: '100%',
  padding: `10px 12px 10px 14px`,
  borderRadius: vars.radius.base,
  border: '1px solid',
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.card,
  pointerEvents: 'auto',
  animation: `${enter} 160ms ease-out`,
  overflowWrap: 'anywhere',
});

export const toast = styleVariants({
  error: [toastBase, { borderColor: vars.color.error, background: vars.color.errorSurface }],
  success: [toastBase, { borderColor: vars.color.primary }],
  info: [toastBase, { borderColor: vars.color.border }],
});

export const toastText = style({ flex: 1, margin: 0, paddingTop: '2px' });

export const toastClose = style({
  flex: 'none',
  display: 'inline-flex',
  padding: '2px',
  background: 'transparent',
  color: vars.color.textMuted,
  border: 'none',
  borderRadius: '4px',
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}` },
  },
});

export const toastIcon = style({ width: '16px', height: '16px' });
