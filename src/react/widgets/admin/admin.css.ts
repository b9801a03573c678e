// The administration kit: toolbars, data tables, pager, trees, tabs and pickers. Colours come from
// the theme contract only (both themes and host overrides apply).
import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../tint';
import { sidewaysScrollCue } from '../scroll-cue';

export const header = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  marginBottom: vars.space.md,
});

// The header's buttons stay together at the end (with space-between, three or more spread out).
export const headerActions = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.sm, marginInlineStart: 'auto' });

export const title = style({ margin: 0, fontSize: vars.font.sizeTitle, fontWeight: 600, lineHeight: 1.3 });

export const toolbar = style({ display: 'flex', alignItems: 'flex-end', flexWrap: 'wrap', gap: vars.space.sm, marginBottom: vars.space.md });

export const grow = style({ flex: '1 1 auto' });

export const control = style({ display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 });

export const controlLabel = style({ fontSize: vars.font.sizeSmall, color: vars.color.textMuted });

export const select = style({
  minHeight: '36px',
  padding: '6px 10px',
  background: vars.color.inputBackground,
  color: vars.color.text,
  border: `1px solid ${vars.color.inputBorder}`,
  borderRadius: vars.radius.base,
  font: 'inherit',
  selectors: { '&:focus-visible': { outline: 'none', borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.focusRing}` } },
});

export const searchInput = style({ minWidth: '220px' });

export const tableWrap = style({
  overflowX: 'auto',
  // The state text below measures itself against the visible width (cqi), not the table's.
  containerType: 'inline-size',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  // Focusable when its table is wider than it (DataTable): arrow keys then scroll it.
  selectors: { '&:focus-visible': { outline: 'none', borderColor: vars.color.primary, boxShadow: `0 0 0 3px ${vars.color.focusRing}` } },
});

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.font.sizeBase });

export const th = style({
  padding: '10px 12px',
  textAlign: 'start',
  fontWeight: 600,
  whiteSpace: 'nowrap',
  color: vars.color.textMuted,
  background: tint(vars.color.primary, 6),
  borderBottom: `1px solid ${vars.color.border}`,
});

export const thEnd = style({ textAlign: 'end' });

export const sortButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '4px',
  padding: 0,
  background: 'none',
  border: 'none',
  color: 'inherit',
  font: 'inherit',
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px', borderRadius: '2px' },
  },
});

export const sortMark = style({ width: '14px', height: '14px', flex: 'none', opacity: 0.8 });

export const sortMarkUp = style({ transform: 'rotate(180deg)' });

export const td = style({ padding: '9px 12px', borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'middle' });

export const row = style({ selectors: { '&:hover': { background: tint(vars.color.primary, 5) } } });

globalStyle(`${row}:last-child > td`, { borderBottom: 'none' });

export const stateCell = style({ padding: `${vars.space.lg} 0`, textAlign: 'center', color: vars.color.textMuted });

/** Loading / empty / failed text: centred in the visible part of a table wider than its box (phones). */
export const stateText = style({ position: 'sticky', insetInlineStart: 0, maxWidth: '100cqi', padding: '0 12px', boxSizing: 'border-box' });

export const rowActions = style({ display: 'flex', justifyContent: 'flex-end', flexWrap: 'nowrap', gap: '2px' });

export const small = style({ minHeight: '28px', padding: '0 8px', fontSize: vars.font.sizeSmall });

export const pager = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'flex-end',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  marginTop: vars.space.sm,
  color: vars.color.textMuted,
});

export const status = styleVariants({
  enabled: { color: vars.color.primary, fontWeight: 600 },
  disabled: { color: vars.color.textMuted },
  locked: { color: vars.color.error, fontWeight: 600 },
});

export const split = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(260px, 400px) minmax(0, 1fr)',
  gap: vars.space.md,
  alignItems: 'start',
  '@media': { 'screen and (max-width: 991.98px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});

export const tree = style({ listStyle: 'none', margin: 0, padding: 0 });

export const treeRow = style({
  display: 'flex',
  alignItems: 'center',
  gap: '4px',
  minHeight: '32px',
  paddingInlineEnd: vars.space.sm,
  borderRadius: vars.radius.base,
  cursor: 'pointer',
  outline: 'none',
  selectors: {
    '&:hover': { background: tint(vars.color.primary, 8) },
    '&:focus-visible': { boxShadow: `inset 0 0 0 2px ${vars.color.primary}` },
    '&[aria-selected="true"]': { background: tint(vars.color.primary, 18), color: vars.color.text },
  },
});

export const treeToggle = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '22px',
  height: '22px',
  flex: 'none',
  color: vars.color.textMuted,
});

export const treeToggleClosed = style({ transform: 'rotate(-90deg)' });

export const treeLabel = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  minWidth: 0,
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
});

export const tag = style({
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  padding: '0 6px',
  borderRadius: '4px',
  border: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: vars.font.sizeSmall,
  whiteSpace: 'nowrap',
});

export const tabs = style([
  sidewaysScrollCue(vars.color.surface),
  { display: 'flex', gap: '2px', borderBottom: `1px solid ${vars.color.border}`, marginBottom: vars.space.md },
]);

/** A tab strip on the page (login settings) rather than on a card. */
export const tabsOnPage = style([
  sidewaysScrollCue(vars.color.page),
  { display: 'flex', gap: '2px', borderBottom: `1px solid ${vars.color.border}`, marginBottom: vars.space.md },
]);

export const tab = style({
  padding: '8px 14px',
  background: 'none',
  border: 'none',
  borderBottom: '2px solid transparent',
  color: vars.color.textMuted,
  font: 'inherit',
  fontWeight: 500,
  cursor: 'pointer',
  whiteSpace: 'nowrap',
  selectors: {
    '&:hover': { color: vars.color.text },
    '&[aria-selected="true"]': { color: vars.color.primary, borderBottomColor: vars.color.primary },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '-2px' },
  },
});

export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs, listStyle: 'none', margin: 0, padding: 0 });

export const chip = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2px',
  padding: '2px 4px 2px 10px',
  borderRadius: '999px',
  background: tint(vars.color.primary, 14),
  fontSize: vars.font.sizeSmall,
});

export const chipRemove = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '20px',
  height: '20px',
  padding: 0,
  background: 'none',
  border: 'none',
  borderRadius: '50%',
  color: vars.color.textMuted,
  cursor: 'pointer',
  selectors: {
    '&:hover': { color: vars.color.text, background: tint(vars.color.primary, 20) },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}` },
  },
});

export const chipIcon = style({ width: '12px', height: '12px' });

/** A framed list of choices, as long as its content: inside a dialog (whose body scrolls) a
 *  second scroll box would trap the wheel and hide most of a privilege tree. */
export const choiceBox = style({
  listStyle: 'none',
  margin: 0,
  padding: '4px',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  background: vars.color.inputBackground,
});

/** A framed list of search matches under a field: a few rows high, scrolling. */
export const options = style([choiceBox, { maxHeight: '200px', overflowY: 'auto' }]);

export const checkRow = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, minHeight: '28px', cursor: 'pointer' });

export const checkbox = style({ width: '16px', height: '16px', margin: 0, accentColor: vars.color.primary, flex: 'none' });

export const textarea = style({ minHeight: '72px', resize: 'vertical' });

export const formGrid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
  gap: vars.space.md,
  '@media': { 'screen and (max-width: 600px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});

export const full = style({ gridColumn: '1 / -1' });

export const panelTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: '15px', fontWeight: 600 });

export const stack = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const inline = style({ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: vars.space.sm });

/** Indentation of a tree row by depth (classes, not inline styles: the CSP allows no style attributes). */
export const MAX_INDENT = 12;
export const indent = Array.from({ length: MAX_INDENT + 1 }, (_, depth) => style({ paddingInlineStart: `${depth * 18}px` }));

export const menu = style({
  position: 'fixed',
  zIndex: 40,
  minWidth: '160px',
  margin: 0,
  padding: '4px',
  listStyle: 'none',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  boxShadow: vars.shadow.card,
});

export const menuItem = style({
  display: 'block',
  width: '100%',
  padding: '6px 10px',
  background: 'none',
  border: 'none',
  borderRadius: '4px',
  color: vars.color.text,
  font: 'inherit',
  textAlign: 'start',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  selectors: { '&:hover, &:focus-visible': { background: tint(vars.color.primary, 14), outline: 'none' } },
});

export const menuItemDanger = style({ color: vars.color.error });

/** Details (dl) without the browser's indentation. */
export const details = style({ margin: 0 });
globalStyle(`${details} dd`, { margin: 0 });

/** A form group without the browser's fieldset frame. */
export const plainFieldset = style({ minWidth: 0, margin: 0, padding: 0, border: 'none' });

export const nowrap = style({ whiteSpace: 'nowrap' });

const clip = style({
  display: 'inline-block',
  maxWidth: '200px',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  verticalAlign: 'bottom',
});

/** Checkboxes side by side in a framed group (a user's roles in one app). */
export const checkGroup = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `2px ${vars.space.md}`,
  margin: 0,
  padding: `${vars.space.xs} ${vars.space.sm} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});

export const legend = style({ padding: `0 ${vars.space.xs}`, fontSize: vars.font.sizeSmall, fontWeight: 600, color: vars.color.textMuted });

/** A warning about a field's value that does not stop saving (e.g. a menu binding nobody reaches). */
export const warning = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderLeft: `3px solid ${vars.color.error}`,
  background: tint(vars.color.error, 10),
  fontSize: vars.font.sizeSmall,
});

/** The last column (a row's actions) stays in view when a table is wider than its box. */
export const stickyEnd = style({
  position: 'sticky',
  insetInlineEnd: 0,
  zIndex: 1,
  background: vars.color.surface,
  boxShadow: `-1px 0 0 ${vars.color.border}`,
  // A sticky cell is a stacking context: the cell holding an open row menu (focus is in it) goes
  // above the cells of the rows below, which the menu overlaps.
  selectors: { '&:focus-within': { zIndex: 2 } },
});
globalStyle(`th${stickyEnd}`, { background: `linear-gradient(${tint(vars.color.primary, 6)}, ${tint(vars.color.primary, 6)}), ${vars.color.surface}` });

/** A table whose rows become cards on a phone: each cell on its own line after its column's name
 *  (data-label), the header row a line of sort controls, the actions wrapping: nothing scrolls sideways. */
export const stacked = style({});
const PHONE = 'screen and (max-width: 640px)';
globalStyle(`${stacked}, ${stacked} > tbody, ${stacked} > tbody > tr, ${stacked} > tbody > tr > td`, {
  '@media': { [PHONE]: { display: 'block', width: '100%', boxSizing: 'border-box' } },
});
globalStyle(`${stacked} > thead > tr`, {
  '@media': { [PHONE]: { display: 'flex', flexWrap: 'wrap', gap: `0 ${vars.space.md}`, background: tint(vars.color.primary, 6) } },
});
globalStyle(`${stacked} > thead > tr > th`, { '@media': { [PHONE]: { display: 'block', background: 'none', border: 'none', padding: '8px 12px' } } });
globalStyle(`${stacked} > thead > tr > th:not(:has(button, input))`, { '@media': { [PHONE]: { display: 'none' } } });
globalStyle(`${stacked} > tbody > tr`, { '@media': { [PHONE]: { padding: '6px 0', borderBottom: `1px solid ${vars.color.border}` } } });
globalStyle(`${stacked} > tbody > tr > td`, {
  '@media': {
    [PHONE]: {
      display: 'flex',
      gap: vars.space.sm,
      padding: '3px 12px',
      border: 'none',
      whiteSpace: 'normal',
      overflowWrap: 'anywhere',
      position: 'static',
      boxShadow: 'none',
      background: 'none',
    },
  },
});
globalStyle(`${stacked} > tbody > tr > td[data-label]::before`, {
  '@media': { [PHONE]: { content: 'attr(data-label)', flex: '0 0 34%', color: vars.color.textMuted } },
});
globalStyle(`${stacked} ${rowActions}`, { '@media': { [PHONE]: { flexWrap: 'wrap', justifyContent: 'flex-start' } } });

/** Short values stacked in one cell (a person's e-mail over their phone). */
export const lines = style({ display: 'flex', flexDirection: 'column', lineHeight: 1.35 });

/** A shorter clip for names in a table with many columns (the full value is in its title). */
export const clipShort = style([clip, { maxWidth: '112px' }]);
export const clipMedium = style([clip, { maxWidth: '164px' }]);

/** A row's checkbox and its label on one line. */
export const withCheck = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.sm, whiteSpace: 'nowrap' });

/** The menu-plan editor's preview: one column per kind of person, wrapping at narrow widths. */
export const previewColumns = style({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: vars.space.md });

export const previewTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: vars.font.sizeBase, fontWeight: 600 });

export const previewList = style({ margin: 0, paddingInlineStart: '18px', lineHeight: 1.6 });
