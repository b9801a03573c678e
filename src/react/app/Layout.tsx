// The section layout: top bar (logo block, menu toggle, unified top menu, messages with the
// unread badge, locale and theme switches, user menu), side menu, breadcrumb, and the page.
import { lazy, Suspense, useRef, type MouseEvent, type ReactNode } from 'react';
import { useStore } from '../store';
import { $config } from '../../core/config-store';
import { breadcrumbOf, type RouteDef } from '../../core/routes';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import { LogoBlock } from '../widgets/LogoBlock';
import * as ui from '../widgets/ui.css';
import { Breadcrumb } from './Breadcrumb';
import { useConsole } from './context';
import { SideMenu } from './SideMenu';
import { LocaleSwitch, ThemeSwitch } from './Switches';
import { TopMenu } from './TopMenu';
import { UnreadBadge } from './UnreadBadge';
import { useMenu } from './useMenu';
import { displayName } from './user';
import * as topBar from './topBar.css';
import { Avatar } from '../widgets/Avatar';
import { $session } from '../../core/session';
import { useSidebar } from './useSidebar';
import * as styles from './shell.css';

const UserMenu = lazy(() => import('./UserMenu'));
// Only narrow screens show the drawer: wide ones never load its modal dialog code.
const MenuDrawer = lazy(() => import('./MenuDrawer'));

export function Layout({ route, children }: { route: RouteDef; children: ReactNode }) {
  const t = useT();
  const { theme } = useConsole();
  const { system } = useStore($config);
  const trail = breadcrumbOf(route).map((crumb) => crumb.path);
  const sidebar = useSidebar(route.path);
  const menu = useMenu();
  const main = useRef<HTMLElement>(null);
  // The skip link's target is in the console's shadow root, where a #fragment does not reach.
  const skipToContent = (event: MouseEvent) => {
    event.preventDefault();
    main.current?.focus();
  };

  const toggleLabel = sidebar.mobile
    ? t(sidebar.drawerOpen ? 'console:menu.close' : 'console:menu.open')
    : t(sidebar.collapsed ? 'console:menu.expand' : 'console:menu.collapse');

  return (
    <>
      <a href="#iam-content" className={styles.skipLink} onClick={skipToContent}>
        {t('console:skipToContent')}
      </a>
      <header className={styles.topBar} part="header">
        <div className={`${styles.topBarBrand} ${sidebar.collapsed ? styles.topBarBrandCollapsed : ''}`}>
          <LogoBlock collapsed={sidebar.collapsed} theme={theme} />
        </div>
        <button
          type="button"
          className={`${ui.iconButton} ${styles.menuToggle}`}
          aria-label={toggleLabel}
          title={toggleLabel}
          aria-expanded={sidebar.mobile ? sidebar.drawerOpen : !sidebar.collapsed}
          onClick={sidebar.toggle}
        >
          <Icon name={sidebar.collapsed || (sidebar.mobile && !sidebar.drawerOpen) ? 'unfold' : 'fold'} />
        </button>
        {system.topMenuType === 'unify' && <TopMenu />}
        <div className={styles.topBarSpacer} />
        <div className={styles.topBarTools}>
          <UnreadBadge />
          <LocaleSwitch />
          <ThemeSwitch />
          <Suspense fallback={<UserMenuPlaceholder />}>
            <UserMenu />
          </Suspense>
        </div>
      </header>
      <div className={styles.body}>
        {sidebar.mobile ? (
          // Below 992 px the menu is a modal drawer (focus kept inside, Esc closes).
          <Suspense fallback={null}>
            <MenuDrawer open={sidebar.drawerOpen} onOpenChange={(open) => !open && sidebar.closeDrawer()}>
              <div className={styles.drawerHead}>
                <LogoBlock collapsed={false} theme={theme} />
              </div>
              <SideMenu items={menu} collapsed={false} activePaths={trail} />
            </MenuDrawer>
          </Suspense>
        ) : (
          <aside className={`${styles.sidebar} ${sidebar.collapsed ? styles.sidebarCollapsed : ''}`} part="sidebar">
            <SideMenu items={menu} collapsed={sidebar.collapsed} activePaths={trail} />
          </aside>
        )}
        <main ref={main} id="iam-content" tabIndex={-1} className={styles.main} part="content">
          <Breadcrumb route={route} />
          <div className={styles.content}>{children}</div>
        </main>
      </div>
    </>
  );
}

/** Holds the user menu's place (same size) while its chunk loads. */
function UserMenuPlaceholder() {
  const user = useStore($session).user;
  if (!user) return null;
  const name = displayName(user);
  return (
    <span className={topBar.userButton} aria-hidden="true">
      <Avatar src={user.avatar} name={name} />
      <span className={topBar.userName}>{name}</span>
      <Icon name="chevronDown" />
    </span>
  );
}
