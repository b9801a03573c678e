import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';
import { tint } from '../widgets/tint';

export const nav = style({ flex: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden', padding: `${vars.space.sm} 4px` });

export const list = style({ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' });

export const item = style({ position: 'relative' });

export const entry = style({
  display: 'flex',
  alignItems: 'center',
  gap: '8px',
  width: '100%',
  minHeight: '38px',
  padding: '6px 8px',
  border: 'none',
  borderRadius: vars.radius.base,
  background: 'transparent',
  color: vars.color.textMuted,
  font: 'inherit',
  textAlign: 'start',
  textDecoration: 'none',
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: tint(vars.color.primary, 10), color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '-2px' },
    '&[aria-current="page"]': { background: tint(vars.color.primary, 18), color: vars.color.primary, fontWeight: 600 },
    '&[aria-disabled="true"]': { opacity: 0.45, cursor: 'not-allowed', background: 'transparent' },
  },
});

/** A parent whose child is the current page. */
export const entryActive = style({ color: vars.color.text });

export const childEntry = style({ paddingInlineStart: '34px', minHeight: '34px' });

/** A label longer than the menu is wide wraps onto a second line rather than being cut
 *  ("Login settings", "Message history" beside their icons, longer texts in other languages). */
export const label = style({ flex: 1, minWidth: 0, lineHeight: 1.3, overflowWrap: 'anywhere' });

export const chevron = style({ width: '14px', height: '14px', transition: 'transform 120ms', flex: 'none' });

export const chevronOpen = style({ transform: 'rotate(180deg)' });

/** Collapsed (54 px): icons only, children in a flyout beside the bar. */
export const collapsed = style({ overflow: 'visible' });

globalStyle(`${collapsed} ${entry}`, { justifyContent: 'center', padding: 0 });
globalStyle(`${collapsed} ${label}, ${collapsed} ${chevron}`, { display: 'none' });

export const flyout = style({
  position: 'absolute',
  top: 0,
  left: `calc(100% + 10px)`,
  zIndex: 40,
  minWidth: '170px',
  padding: '6px',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.card,
});

globalStyle(`${flyout} ${label}`, { display: 'block' });
globalStyle(`${flyout} ${entry}`, { justifyContent: 'flex-start', padding: '0 10px' });

export const flyoutTitle = style({ margin: '2px 10px 6px', color: vars.color.textMuted, fontSize: vars.font.sizeSmall });
