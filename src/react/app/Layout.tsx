// The section layout of §2: top bar (logo block, menu toggle, unified top menu, locale and theme
// switches, user menu), side menu, breadcrumb, and the page.
import type { ReactNode } from 'react';
import { useStore } from '@nanostores/react';
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
import { UserMenu } from './UserMenu';
import { useMenu } from './useMenu';
import { useSidebar } from './useSidebar';
import * as styles from './shell.css';

export function Layout({ route, children }: { route: RouteDef; children: ReactNode }) {
  const t = useT();
  const { theme } = useConsole();
  const { system } = useStore($config);
  const trail = breadcrumbOf(route).map((crumb) => crumb.path);
  const sidebar = useSidebar(route.path);
  const menu = useMenu();

  const toggleLabel = sidebar.mobile
    ? t(sidebar.drawerOpen ? 'console:menu.close' : 'console:menu.open')
    : t(sidebar.collapsed ? 'console:menu.expand' : 'console:menu.collapse');

  return (
    <>
      <header className={styles.topBar} part="header">
        <div className={`${styles.topBarBrand} ${sidebar.collapsed ? styles.topBarBrandCollapsed : ''}`}>
          <LogoBlock collapsed={sidebar.collapsed} theme={theme} />
        </div>
        <button
          type="button"
          className={ui.iconButton}
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
          <LocaleSwitch />
          <ThemeSwitch />
          <UserMenu />
        </div>
      </header>
      <div className={styles.body}>
        <aside
          className={`${styles.sidebar} ${sidebar.collapsed ? styles.sidebarCollapsed : ''} ${sidebar.drawerOpen ? styles.sidebarOpen : ''}`}
          part="sidebar"
          // Closed drawers are out of the tab order and the accessibility tree.
          inert={sidebar.mobile && !sidebar.drawerOpen}
        >
          <SideMenu items={menu} collapsed={sidebar.collapsed} activePaths={trail} />
        </aside>
        {sidebar.drawerOpen && <button type="button" className={styles.scrim} aria-label={t('console:menu.close')} tabIndex={-1} onClick={sidebar.closeDrawer} />}
        <main className={styles.main} part="content">
          <Breadcrumb route={route} />
          <div className={styles.content}>{children}</div>
        </main>
      </div>
    </>
  );
}
