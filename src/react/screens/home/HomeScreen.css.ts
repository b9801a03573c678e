import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

export const hero = style({
  display: 'flex',
  alignItems: 'center',
  flexWrap: 'wrap',
  gap: vars.space.md,
  marginBottom: vars.space.lg,
  padding: `${vars.space.lg} ${vars.space.lg}`,
  borderRadius: '10px',
  border: `1px solid ${vars.color.border}`,
  background: `linear-gradient(120deg, ${tint(vars.color.primary, 18)}, ${tint(vars.color.primary, 4)} 70%)`,
});

export const heroText = style({ flex: 1, minWidth: '220px' });

export const heroTitle = style({ margin: 0, fontSize: vars.font.sizeTitle, fontWeight: 650, lineHeight: 1.3 });

// On the tinted hero the muted text colour and the tinted badge fall below 4.5:1 in the light
// theme: the handle takes the text colour, the badge the plain surface behind it.
export const heroMeta = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: `${vars.space.xs} 0 0`,
  color: vars.color.text,
});

export const heroBadge = style({ background: vars.color.surface, boxShadow: `inset 0 0 0 1px ${vars.color.border}` });

export const grid = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(300px, 100%), 1fr))',
  gap: vars.space.md,
  alignItems: 'start',
});

export const wide = style({ gridColumn: '1 / -1' });

export const tiles = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))',
  gap: vars.space.sm,
  listStyle: 'none',
  margin: 0,
  padding: 0,
});

export const tile = style({
  display: 'flex',
  alignItems: 'flex-start',
  gap: '10px',
  height: '100%',
  padding: '12px',
  borderRadius: vars.radius.base,
  border: `1px solid ${vars.color.border}`,
  background: tint(vars.color.text, 3),
  color: vars.color.text,
  textDecoration: 'none',
  transition: 'border-color 120ms, background-color 120ms',
  selectors: {
    '&:hover': { borderColor: vars.color.primary, background: tint(vars.color.primary, 8) },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '2px' },
  },
});

export const tileIcon = style({
  flex: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '34px',
  height: '34px',
  borderRadius: '8px',
  background: tint(vars.color.primary, 16),
  color: vars.color.primary,
});

export const tileText = style({ display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 });

export const tileName = style({ fontWeight: 600 });

export const tileDescription = style({ color: vars.color.textMuted, fontSize: vars.font.sizeSmall, overflowWrap: 'anywhere' });

export const itemMain = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const itemMeta = style({ color: vars.color.textMuted, fontSize: vars.font.sizeSmall });

/** "7 分钟前", "just now": one line, never a column of single characters beside a long title. */
export const itemTime = style([itemMeta, { flex: 'none', whiteSpace: 'nowrap' }]);

export const more = style({ margin: `${vars.space.sm} 0 0`, fontSize: vars.font.sizeSmall });
