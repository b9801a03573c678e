import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const details = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: `${vars.space.sm} ${vars.space.md}`, margin: 0 });

export const term = style({ color: vars.color.textMuted });

export const value = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const detail = style({
  margin: `${vars.space.md} 0 0`,
  padding: vars.space.sm,
  maxHeight: '240px',
  overflow: 'auto',
  background: vars.color.inputBackground,
  border: `1px solid ${vars.color.border}`,
  borderRadius: '6px',
  fontSize: vars.font.sizeSmall,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});

/** Old → new per changed field; long values wrap (narrow screens). */
export const changes = style({
  width: '100%',
  marginTop: vars.space.md,
  borderCollapse: 'collapse',
  fontSize: vars.font.sizeSmall,
  tableLayout: 'fixed',
  overflowWrap: 'anywhere',
});
// Its caption and cells (vanilla-extract's `selectors` may only style the table itself).
globalStyle(`${changes} caption`, { textAlign: 'start', fontWeight: 600, marginBottom: vars.space.sm });
globalStyle(`${changes} th, ${changes} td`, { textAlign: 'start', padding: vars.space.sm, borderTop: `1px solid ${vars.color.border}` });
