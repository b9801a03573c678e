import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

export const section = style({
  margin: `0 0 ${vars.space.md}`,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.base,
  minWidth: 0,
});

export const legend = style({ padding: `0 ${vars.space.xs}`, fontSize: '15px', fontWeight: 600 });

export const sectionText = style({ margin: `0 0 ${vars.space.sm}` });

export const fields = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))',
  gap: vars.space.md,
  alignItems: 'start',
});

export const wideFields = style([fields, { gridTemplateColumns: 'repeat(auto-fill, minmax(min(300px, 100%), 1fr))' }]);

export const wide = style({ gridColumn: '1 / -1' });

/** A checkbox in a grid of labelled inputs: level with the inputs, below their labels. */
export const checkCell = style({ paddingTop: '28px' });

/** Checkboxes side by side on a row of their own. */
export const checkRow = style({ gridColumn: '1 / -1', display: 'flex', flexWrap: 'wrap', gap: `${vars.space.sm} ${vars.space.lg}` });

export const textArea = style({ minHeight: '96px', resize: 'vertical', fontFamily: 'inherit' });

export const code = style({
  minHeight: '72px',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: vars.font.sizeSmall,
  wordBreak: 'break-all',
});

export const saveBar = style({
  position: 'sticky',
  bottom: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'flex-end',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  padding: `${vars.space.sm} 0`,
  background: vars.color.page,
});

export const banner = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.base,
  background: tint(vars.color.primary, 12),
});

export const bannerError = style({ borderColor: vars.color.error, background: vars.color.errorSurface });

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(300px, 100%), 1fr))',
  gap: vars.space.md,
  alignItems: 'start',
});

export const details = style({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: `${vars.space.sm} ${vars.space.md}`, margin: 0 });

export const term = style({ color: vars.color.textMuted });

export const detail = style({ margin: 0, minWidth: 0, overflowWrap: 'anywhere' });

export const colorInput = style({ width: '64px', height: '36px', padding: '2px', cursor: 'pointer' });

export const row = style({ display: 'contents' });

/** A row of buttons above a table (the identity providers' "Add provider"). */
export const toolbar = style({ marginBottom: vars.space.sm });
