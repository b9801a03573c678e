// The sign-in page: the brand panel (login logo, app name, sign) beside the form; stacked on
// narrow screens.
import { globalStyle, style } from '@vanilla-extract/css';
import { LAYOUT } from '../../../core/config';
import { wholePageMinHeight } from '../../theme/page.css';
import { vars } from '../../theme/theme.css';
import { tint } from '../../widgets/tint';

const narrow = `screen and (max-width: ${LAYOUT.mobileBreakpoint - 0.02}px)`;

export const page = style({
  position: 'relative',
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1.1fr) minmax(380px, 1fr)',
  minHeight: wholePageMinHeight,
  background: vars.color.page,
  '@media': { [narrow]: { gridTemplateColumns: '1fr', gridTemplateRows: 'auto 1fr' } },
});

export const brand = style({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  justifyContent: 'space-between',
  gap: vars.space.lg,
  padding: `${vars.space.xl} clamp(24px, 6vw, 72px)`,
  overflow: 'hidden',
  background: `radial-gradient(circle at 20% 15%, ${tint(vars.color.primary, 30)}, transparent 55%), radial-gradient(circle at 85% 90%, ${tint(vars.color.primary, 16)}, transparent 50%), ${vars.color.surface}`,
  borderRight: `1px solid ${vars.color.border}`,
  '@media': {
    [narrow]: {
      flexDirection: 'row',
      alignItems: 'center',
      padding: `${vars.space.md} ${vars.space.md}`,
      borderRight: 'none',
      borderBottom: `1px solid ${vars.color.border}`,
    },
  },
});

/** A faint grid over the brand panel (decoration). */
export const pattern = style({
  position: 'absolute',
  inset: 0,
  pointerEvents: 'none',
  backgroundImage: `linear-gradient(${tint(vars.color.text, 5)} 1px, transparent 1px), linear-gradient(90deg, ${tint(vars.color.text, 5)} 1px, transparent 1px)`,
  backgroundSize: '36px 36px',
  maskImage: 'linear-gradient(180deg, black, transparent 85%)',
  '@media': { [narrow]: { display: 'none' } },
});

/** A background from the login settings shows through the brand panel. */
export const customBackground = style({});
globalStyle(`${customBackground} ${brand}`, {
  background: tint(vars.color.surface, 72),
  backdropFilter: 'blur(6px)',
});

export const brandTop = style({ position: 'relative', display: 'flex', alignItems: 'center', gap: vars.space.sm, minWidth: 0 });

export const logo = style({ width: '40px', height: '40px', objectFit: 'contain', color: vars.color.primary, flex: 'none' });

export const appName = style({ margin: 0, fontSize: '18px', fontWeight: 650, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

export const pitch = style({ position: 'relative', maxWidth: '520px', '@media': { [narrow]: { display: 'none' } } });

export const sign = style({ margin: 0, fontSize: 'clamp(26px, 3.2vw, 40px)', fontWeight: 700, lineHeight: 1.2, letterSpacing: '-0.01em' });

export const pitchText = style({ margin: `${vars.space.md} 0 0`, color: vars.color.textMuted, fontSize: '15px', maxWidth: '440px' });

export const copyright = style({
  position: 'relative',
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.font.sizeSmall,
  '@media': { [narrow]: { display: 'none' } },
});

export const formSide = style({
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  justifyContent: 'center',
  padding: `72px ${vars.space.lg} ${vars.space.xl}`,
  '@media': { [narrow]: { justifyContent: 'flex-start', padding: `${vars.space.lg} ${vars.space.md}` } },
});

/** Locale and theme switches, top right (in the brand row on narrow screens). */
export const tools = style({
  position: 'absolute',
  top: vars.space.md,
  right: vars.space.md,
  zIndex: 1,
  display: 'flex',
  gap: '2px',
  '@media': { [narrow]: { top: '19px', right: vars.space.sm } },
});

export const formBox = style({ width: '100%', maxWidth: '380px', marginInline: 'auto' });

globalStyle(`${formBox} > *`, { maxWidth: '100%' });

export const thirdParty = style({ marginTop: vars.space.lg, display: 'flex', flexDirection: 'column', gap: vars.space.sm });

export const divider = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.font.sizeSmall,
  selectors: { '&::before, &::after': { content: '""', flex: 1, height: '1px', background: vars.color.border } },
});

export const providers = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });
