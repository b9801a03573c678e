// Shared building blocks of the console's screens and dialogs: buttons, fields, cards, lists.
// Colours come only from the theme contract (--iam-*), so host overrides and both themes apply;
// tints are mixed from those tokens.
import { style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

/** Every button's height; a titled card's header is at least as tall (cardHeader). */
const BUTTON_HEIGHT = '34px';

const buttonBase = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.xs,
  boxSizing: 'border-box',
  minHeight: BUTTON_HEIGHT,
  padding: `0 ${vars.space.md}`,
  border: '1px solid transparent',
  borderRadius: vars.radius.base,
  font: 'inherit',
  fontWeight: 500,
  lineHeight: 1.2,
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  textDecoration: 'none',
  transition: 'background-color 120ms, border-color 120ms, color 120ms',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px' },
    '&:disabled, &[aria-disabled="true"]': { opacity: 0.6, cursor: 'not-allowed' },
  },
});

export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.primary,
      color: vars.color.onPrimary,
      selectors: { '&:hover:not(:disabled)': { background: vars.color.primaryHover } },
    },
  ],
  secondary: [
    buttonBase,
    {
      background: 'transparent',
      color: vars.color.text,
      borderColor: vars.color.inputBorder,
      selectors: { '&:hover:not(:disabled)': { borderColor: vars.color.primary, color: vars.color.primary } },
    },
  ],
  danger: [
    buttonBase,
    {
      background: vars.color.error,
      color: vars.color.surface,
      selectors: { '&:hover:not(:disabled)': { filter: 'brightness(1.08)' } },
    },
  ],
  ghost: [
    buttonBase,
    {
      background: 'transparent',
      color: vars.color.textMuted,
      padding: `0 ${vars.space.sm}`,
      selectors: { '&:hover:not(:disabled)': { background: tint(vars.color.primary, 12), color: vars.color.text } },
    },
  ],
});

/** A square button that holds only an icon (it must carry an aria-label). */
export const iconButton = style([
  buttonBase,
  {
    width: '34px',
    padding: 0,
    background: 'transparent',
    color: vars.color.textMuted,
    selectors: { '&:hover:not(:disabled)': { background: tint(vars.color.primary, 12), color: vars.color.text } },
  },
]);

export const icon = style({ width: '18px', height: '18px', flex: 'none' });

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md, margin: 0 });

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs, minWidth: 0 });

export const labelRow = style({ display: 'flex', alignItems: 'baseline' });

export const label = style({ fontWeight: 500, color: vars.color.text });

export const required = style({ color: vars.color.error, marginInlineStart: '2px' });

export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.font.sizeSmall });

export const fieldError = style({ margin: 0, color: vars.color.error, fontSize: vars.font.sizeSmall });

export const inputRow = style({ position: 'relative', display: 'flex' });

export const input = style({
  boxSizing: 'border-box',
  width: '100%',
  minHeight: '36px',
  padding: `6px 12px`,
  background: vars.color.inputBackground,
  color: vars.color.text,
  border: `1px solid ${vars.color.inputBorder}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  outline: 'none',
  transition: 'border-color 120ms, box-shadow 120ms',
  selectors: {
    '&:focus-visible': { borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.focusRing}` },
    '&[aria-invalid="true"]': { borderColor: vars.color.error },
    '&[readonly]': { background: 'transparent', color: vars.color.textMuted, borderStyle: 'dashed' },
    '&::placeholder': { color: vars.color.textMuted, opacity: 1 },
  },
});

/** Room on the right of a password input for its show/hide toggle. */
export const inputWithToggle = style({ paddingRight: '42px' });

export const inputToggle = style({
  position: 'absolute',
  insetBlock: 0,
  right: 0,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '38px',
  padding: 0,
  background: 'transparent',
  color: vars.color.textMuted,
  border: 'none',
  borderRadius: `0 ${vars.radius.base} ${vars.radius.base} 0`,
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '-2px' },
  },
});

export const formError = style({
  margin: 0,
  padding: `${vars.space.sm} 12px`,
  background: vars.color.errorSurface,
  color: vars.color.error,
  border: `1px solid ${vars.color.error}`,
  borderRadius: vars.radius.base,
});

export const actions = style({ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: vars.space.sm, marginTop: vars.space.sm });

export const card = style({
  boxSizing: 'border-box',
  minWidth: 0,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});

/** As tall as a button whether or not it holds one yet: an action that comes with the card's data
 *  moves nothing below it, and the titles of a row of cards line up. */
export const cardHeader = style({
  minHeight: BUTTON_HEIGHT,
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  margin: `0 0 ${vars.space.sm}`,
});

export const cardTitle = style({ margin: 0, fontSize: '15px', fontWeight: 600 });

export const muted = style({ color: vars.color.textMuted });

export const empty = style({ margin: 0, padding: `${vars.space.sm} 0`, color: vars.color.textMuted });

/** A stand-in of one line of text while it loads, as tall as the text (no shift when it comes). */
export const skeleton = style({
  display: 'inline-block',
  width: '10em',
  maxWidth: '100%',
  height: '1em',
  verticalAlign: 'middle',
  borderRadius: '4px',
  background: tint(vars.color.textMuted, 18),
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' });

export const listItem = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: `${vars.space.sm} 0`,
  borderTop: `1px solid ${vars.color.border}`,
  minWidth: 0,
  selectors: { '&:first-child': { borderTop: 'none' } },
});

export const ellipsis = style({ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

export const badge = style({
  display: 'inline-flex',
  alignItems: 'center',
  padding: '1px 8px',
  borderRadius: '999px',
  background: tint(vars.color.primary, 16),
  color: vars.color.primary,
  fontSize: vars.font.sizeSmall,
  fontWeight: 600,
  whiteSpace: 'nowrap',
});

export const link = style({
  color: vars.color.primary,
  textDecoration: 'none',
  selectors: {
    '&:hover': { textDecoration: 'underline' },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px', borderRadius: '2px' },
  },
});

export const pageTitle = style({ margin: `0 0 ${vars.space.md}`, fontSize: vars.font.sizeTitle, fontWeight: 600, lineHeight: 1.3 });

export const visuallyHidden = style({
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
});

/**
 * A stand-in that keeps the exact size of what it stands for: the element is laid out with its
 * likely final content (a text, a button's label), drawn as muted bars instead of letters (on an
 * inline element, one bar per line). Hide it from screen readers (aria-hidden) where it stands.
 * Last in this file, so that it wins over the look of the element it is added to (a badge, a button).
 */
export const standIn = style({
  color: 'transparent',
  background: tint(vars.color.textMuted, 18),
  borderColor: 'transparent',
  borderRadius: '4px',
  boxDecorationBreak: 'clone',
  WebkitBoxDecorationBreak: 'clone',
  userSelect: 'none',
  pointerEvents: 'none',
});
