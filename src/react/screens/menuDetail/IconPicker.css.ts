// The icon picker's grid: square options of a comfortable target size (44 px), the chosen one
// outlined in the primary colour, the focused one with a visible ring.
import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

/** As many 44 px options a row as the width takes (six on a wide screen, fewer on a phone). */
export const grid = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, 44px)', gap: '4px', maxWidth: `${6 * 44 + 5 * 4}px` });

export const option = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '44px',
  height: '44px',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  color: vars.color.textMuted,
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: tint(vars.color.primary, 10), color: vars.color.text },
    '&[aria-selected="true"]': {
      borderColor: vars.color.primary,
      boxShadow: `inset 0 0 0 1px ${vars.color.primary}`,
      background: tint(vars.color.primary, 14),
      color: vars.color.primary,
    },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px' },
    '[aria-disabled="true"] &': { cursor: 'default', opacity: 0.6 },
  },
});

export const icon = style({ width: '22px', height: '22px' });

/** "No icon": an empty slashed square. */
export const none = style({ width: '18px', height: '18px', border: `1.5px dashed currentColor`, borderRadius: '3px' });
