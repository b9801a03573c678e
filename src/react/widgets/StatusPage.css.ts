import { style } from '@vanilla-extract/css';
import { wholePageMinHeight } from '../theme/page.css';
import { vars } from '../theme/theme.css';
import { tint } from './tint';

export const page = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: wholePageMinHeight,
  padding: vars.space.lg,
  background: `radial-gradient(130% 75% at 50% 0%, ${tint(vars.color.primary, 13)}, transparent), ${vars.color.page}`,
});

export const panel = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.sm,
  maxWidth: '480px',
  textAlign: 'center',
});

export const code = style({
  margin: 0,
  fontSize: 'clamp(64px, 16vw, 112px)',
  fontWeight: 800,
  lineHeight: 1,
  letterSpacing: '-0.04em',
  color: vars.color.primary,
  fontVariantNumeric: 'tabular-nums',
});

export const mark = style({ width: '56px', height: '56px', color: vars.color.primary });

export const title = style({ margin: `${vars.space.sm} 0 0`, fontSize: '20px', fontWeight: 600 });

export const text = style({ margin: 0, color: vars.color.textMuted });

export const detail = style({
  margin: 0,
  maxWidth: '100%',
  padding: '2px 8px',
  borderRadius: vars.radius.base,
  background: tint(vars.color.text, 8),
  color: vars.color.textMuted,
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: vars.font.sizeSmall,
  overflowWrap: 'anywhere',
});

export const actions = style({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: vars.space.sm, marginTop: vars.space.md });
