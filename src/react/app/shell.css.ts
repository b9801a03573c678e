// The console's frame: host element, top bar (50 px), side menu (160/54 px, a drawer below
// 992 px), breadcrumb and content.
import { globalStyle, style } from '@vanilla-extract/css';
import { LAYOUT } from '../../core/config';
import { vars } from '../theme/theme.css';
import { pageMinHeight } from '../theme/page.css';
import { tint } from '../widgets/tint';
import { name as logoName } from '../widgets/LogoBlock.css';

const px = (value: number) => `${value}px`;
const mobile = `screen and (max-width: ${LAYOUT.mobileBreakpoint - 0.02}px)`;
const desktop = `screen and (min-width: ${LAYOUT.mobileBreakpoint}px)`;

globalStyle(':host(iam-console)', {
  display: 'block',
  colorScheme: 'dark',
  minHeight: '100%',
});
globalStyle(':host(iam-console[theme="light"])', { colorScheme: 'light' });
globalStyle(':host(iam-console[hidden])', { display: 'none' });

export const root = style({
  boxSizing: 'border-box',
  minHeight: '100vh',
  background: vars.color.page,
  color: vars.color.text,
  fontFamily: vars.font.family,
  fontSize: vars.font.sizeBase,
  lineHeight: 1.5,
  WebkitFontSmoothing: 'antialiased',
});

/** Embedded (uiEmbed): the host draws the chrome and the background. */
export const embeddedRoot = style({ background: 'transparent' });

// Embedded in a host page (memory routing or uiEmbed): the console is as tall as its container, not
// the viewport; the content scrolls inside it (a page outside the layout, the sign-in page, fills
// the container and scrolls in the root). A container without a definite height lets the console
// grow with its content instead.
globalStyle(':host(iam-console[routing="memory"]), :host(iam-console[ui-embed]:not([ui-embed="false"]))', { height: '100%' });
export const containedRoot = style({
  display: 'flex',
  flexDirection: 'column',
  height: '100%',
  minHeight: 0,
  overflow: 'auto',
  vars: { [pageMinHeight]: '100%' },
});

globalStyle(`${root} *, ${root} *::before, ${root} *::after`, { boxSizing: 'border-box' });

/** The first Tab stop of every page: out of sight until it has the focus. */
export const skipLink = style({
  position: 'absolute',
  top: vars.space.xs,
  left: vars.space.xs,
  zIndex: 50,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  borderRadius: vars.radius.base,
  fontWeight: 600,
  textDecoration: 'none',
  outline: `2px solid ${vars.color.text}`,
  outlineOffset: '2px',
  selectors: { '&:not(:focus)': { width: '1px', height: '1px', padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', outline: 'none' } },
});

export const topBar = style({
  position: 'sticky',
  top: 0,
  zIndex: 30,
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  height: px(LAYOUT.topNavHeight),
  paddingInlineEnd: vars.space.md,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  '@media': { [mobile]: { gap: '2px', paddingInline: '6px' } },
});

/** The menu toggle: after the logo block on wide screens, first on narrow ones. */
export const menuToggle = style({ '@media': { [mobile]: { order: -1 } } });

/** At least as wide as the side menu below it, wider when the application's name needs it (the
 *  top bar has the room): "Acme Identity" is shown whole, not cut at the menu's width. */
export const topBarBrand = style({
  display: 'flex',
  alignItems: 'center',
  flex: 'none',
  height: '100%',
  minWidth: px(LAYOUT.sidebarWidthOpen),
  maxWidth: 'min(320px, 35vw)',
  '@media': { [mobile]: { minWidth: 0, maxWidth: 'none', flex: '0 1 auto', paddingInlineStart: vars.space.xs } },
});

// Below 360 px the top bar's tools leave the console's name a few letters' room ("IAM …"): the logo
// stands alone there, as in the collapsed menu, and the name is kept for screen readers.
globalStyle(`${topBarBrand} ${logoName}`, {
  '@media': {
    '(max-width: 359px)': { position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: 0, border: 0, clip: 'rect(0 0 0 0)' },
  },
});

export const topBarBrandCollapsed = style({
  '@media': { [desktop]: { minWidth: px(LAYOUT.sidebarWidthCollapsed), width: px(LAYOUT.sidebarWidthCollapsed) } },
});

export const topBarSpacer = style({ flex: 1, minWidth: 0 });

export const topBarTools = style({ display: 'flex', alignItems: 'center', gap: '2px' });

export const topMenu = style({
  display: 'flex',
  alignItems: 'center',
  gap: '2px',
  minWidth: 0,
  overflowX: 'auto',
  scrollbarWidth: 'none',
  '@media': { [mobile]: { display: 'none' } },
});

export const topMenuLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  height: '34px',
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.base,
  color: vars.color.textMuted,
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  selectors: {
    '&:hover': { color: vars.color.text, background: tint(vars.color.primary, 12) },
    '&[aria-current="page"]': { color: vars.color.primary },
    '&:focus-visible': { outline: `2px solid ${vars.color.primary}`, outlineOffset: '-2px' },
  },
});

export const body = style({
  display: 'flex',
  alignItems: 'stretch',
  minHeight: `calc(100vh - ${px(LAYOUT.topNavHeight)})`,
  selectors: { [`${containedRoot} &`]: { flex: 1, minHeight: 0 } },
});

export const sidebar = style({
  position: 'sticky',
  top: px(LAYOUT.topNavHeight),
  zIndex: 20,
  flex: 'none',
  display: 'flex',
  flexDirection: 'column',
  width: px(LAYOUT.sidebarWidthOpen),
  height: `calc(100vh - ${px(LAYOUT.topNavHeight)})`,
  selectors: { [`${containedRoot} &`]: { position: 'static', height: 'auto' } },
  background: vars.color.surface,
  borderRight: `1px solid ${vars.color.border}`,
  transition: 'width 160ms ease',
});

/** Collapsed to icons. */
export const sidebarCollapsed = style({ width: px(LAYOUT.sidebarWidthCollapsed) });

/** Narrow screens: the menu slides in from the left as a modal drawer. */
export const drawerOverlay = style({ position: 'fixed', inset: 0, zIndex: 40, background: 'rgb(0 0 0 / 45%)' });

export const drawer = style({
  position: 'fixed',
  top: 0,
  bottom: 0,
  left: 0,
  zIndex: 41,
  display: 'flex',
  flexDirection: 'column',
  width: px(LAYOUT.sidebarWidthOpen + 60),
  maxWidth: '85vw',
  background: vars.color.surface,
  color: vars.color.text,
  borderRight: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.card,
  fontFamily: vars.font.family,
  fontSize: vars.font.sizeBase,
  lineHeight: 1.5,
  outline: 'none',
});

export const drawerHead = style({
  display: 'flex',
  alignItems: 'center',
  height: px(LAYOUT.topNavHeight),
  borderBottom: `1px solid ${vars.color.border}`,
  flex: 'none',
});

export const main = style({
  flex: 1,
  minWidth: 0,
  // Focused by the skip link (not by Tab): no ring around the whole page.
  outline: 'none',
  display: 'flex',
  flexDirection: 'column',
  selectors: { [`${containedRoot} &`]: { overflow: 'auto' } },
});

export const breadcrumbBar = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  minHeight: '44px',
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  background: tint(vars.color.surface, 60),
});

export const breadcrumb = style({ minWidth: 0 });

export const breadcrumbList = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.xs,
  listStyle: 'none',
  margin: 0,
  padding: 0,
  color: vars.color.textMuted,
});

export const crumb = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, minWidth: 0, whiteSpace: 'nowrap' });

export const breadcrumbSeparator = style({ width: '14px', height: '14px', opacity: 0.6 });

export const breadcrumbCurrent = style({ color: vars.color.text, fontWeight: 500 });

export const content = style({
  flex: 1,
  minWidth: 0,
  padding: vars.space.md,
  '@media': { [desktop]: { padding: vars.space.lg } },
});

export const loading = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  alignItems: 'center',
  justifyContent: 'center',
  minHeight: '160px',
  color: vars.color.textMuted,
});

/** Where Radix portals render: inside the shadow root, above the frame. */
export const portal = style({ position: 'relative', zIndex: 50 });
