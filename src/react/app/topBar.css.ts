// The top bar's controls: locale and theme switches, the user menu and its dropdown.
import { style } from '@vanilla-extract/css';
import { vars } from '../theme/theme.css';
import { tint } from '../widgets/tint';

const narrow = 'screen and (max-width: 600px)';

export const localeButton = style({ minWidth: '58px', fontSize: '13px', '@media': { [narrow]: { minWidth: 0 } } });

/** The globe gives way to the label on narrow screens. */
export const localeIcon = style({ '@media': { [narrow]: { display: 'none' } } });

/** "English" takes the room of the console's name on a phone: there it shows as "EN", and the full
 *  word stays the button's name for screen readers. */
export const localeFull = style({
  '@media': {
    [narrow]: { position: 'absolute', width: '1px', height: '1px', margin: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  },
});
export const localeShort = style({ display: 'none', '@media': { [narrow]: { display: 'inline' } } });

export const userButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  maxWidth: '220px',
  height: '38px',
  marginInlineStart: vars.space.xs,
  padding: '0 6px 0 4px',
  '@media': { [narrow]: { gap: '2px', marginInlineStart: 0, padding: '0 2px' } },
  background: 'transparent',
  color: vars.color.text,
  border: '1px solid transparent',
  borderRadius: '999px',
  font: 'inherit',
  cursor: 'pointer',
  selectors: {
    '&:hover, &[data-state="open"]': { background: tint(vars.color.primary, 12) },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '1px' },
  },
});

export const userName = style({
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  '@media': { [narrow]: { display: 'none' } },
});

export const menu = style({
  zIndex: 45,
  minWidth: '220px',
  padding: '6px',
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: '8px',
  boxShadow: vars.shadow.card,
  fontFamily: vars.font.family,
  fontSize: vars.font.sizeBase,
  outline: 'none',
});

export const menuLabel = style({ display: 'flex', flexDirection: 'column', gap: '2px', padding: '6px 10px 8px' });

export const menuName = style({ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

export const menuItem = style({
  display: 'flex',
  alignItems: 'center',
  gap: '10px',
  minHeight: '34px',
  padding: '0 10px',
  borderRadius: vars.radius.base,
  color: vars.color.text,
  cursor: 'pointer',
  outline: 'none',
  userSelect: 'none',
  selectors: {
    '&[data-highlighted]': { background: tint(vars.color.primary, 14), color: vars.color.primary },
    // The tint alone is too faint a focus indicator for keyboard users (WCAG 2.4.7, 1.4.11).
    '&:focus-visible': { boxShadow: `inset 0 0 0 2px ${vars.color.primary}` },
  },
});

export const menuSeparator = style({ height: '1px', margin: '6px 4px', background: vars.color.border });

/** The messages link: the unread badge sits on its top right corner. */
export const messages = style({ position: 'relative', textDecoration: 'none' });

export const unreadBadge = style({
  position: 'absolute',
  top: '1px',
  right: '0',
  minWidth: '16px',
  height: '16px',
  padding: '0 4px',
  boxSizing: 'border-box',
  borderRadius: '999px',
  background: vars.color.error,
  color: vars.color.page,
  fontSize: '11px',
  fontWeight: 700,
  lineHeight: '16px',
  textAlign: 'center',
  pointerEvents: 'none',
});
