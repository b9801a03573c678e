import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(320px, 100%), 1fr))',
  gap: vars.space.md,
  alignItems: 'start',
});

export const wide = style({ gridColumn: '1 / -1' });

export const details = style({
  display: 'grid',
  gridTemplateColumns: 'max-content 1fr',
  gap: `${vars.space.sm} ${vars.space.md}`,
  margin: 0,
});

export const row = style({ display: 'contents' });

export const term = style({ color: vars.color.textMuted });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const itemMain = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

/** A list row's buttons, side by side. */
export const itemActions = style({ display: 'flex', flexShrink: 0, gap: vars.space.xs });

export const itemMeta = style({ color: vars.color.textMuted, fontSize: vars.font.sizeSmall });

export const text = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted });

/** A card's introduction while its text has not arrived: as tall as the three lines it takes in
 *  the grid's columns, so the card does not grow when it comes. */
export const textStandIn = style({ minHeight: '3lh' });

export const steps = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const status = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, margin: `0 0 ${vars.space.md}` });

/** "Off" reads as a neutral state, not as a success. */
export const offBadge = style({ background: 'transparent', color: vars.color.textMuted, border: `1px solid ${vars.color.border}` });

/** Recovery codes in monospace, in as many columns as fit (one in a narrow card). */
export const codes = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 26ch), 1fr))',
  gap: `${vars.space.xs} ${vars.space.lg}`,
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  listStylePosition: 'inside',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontVariantNumeric: 'tabular-nums',
});

export const cardActions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: vars.space.sm });
