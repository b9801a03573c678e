import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
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

export const qrCode = style({ width: '184px', height: '184px', borderRadius: vars.radius.base, imageRendering: 'pixelated' });

export const steps = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const status = style({ display: 'flex', alignItems: 'center', gap: vars.space.sm, margin: `0 0 ${vars.space.md}` });

/** "Off" reads as a neutral state, not as a success. */
export const offBadge = style({ background: 'transparent', color: vars.color.textMuted, border: `1px solid ${vars.color.border}` });
