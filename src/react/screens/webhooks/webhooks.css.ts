import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

const mono = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export const url = style({ overflowWrap: 'anywhere', fontFamily: mono, fontSize: vars.font.sizeSmall });

export const events = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0,
  padding: 0,
  border: 0,
  minWidth: 0,
});

export const legend = style({ padding: 0, marginBottom: vars.space.xs, fontWeight: 600 });

export const error = style({ color: vars.color.error, fontSize: vars.font.sizeSmall, overflowWrap: 'anywhere' });

export const nowrap = style({ whiteSpace: 'nowrap' });

export const pre = style({
  margin: 0,
  padding: vars.space.sm,
  maxHeight: '200px',
  overflow: 'auto',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  fontFamily: mono,
  fontSize: vars.font.sizeSmall,
  background: vars.color.inputBackground,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
});
