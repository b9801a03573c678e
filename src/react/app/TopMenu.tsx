// The unified top menu (topMenuType 'unify', the entity fields): the portal's apps the person may open, each
// opening its entrypoint. 'self' shows no top menu: the console's own side menu is enough.
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import { safeLink } from '../widgets/links';
import { appsFromMenus, usePortalMenus } from './portalApps';
import * as styles from './shell.css';

export function TopMenu() {
  const t = useT();
  const entries = appsFromMenus(usePortalMenus()).flatMap((app) => {
    const href = safeLink(app.entrypoint);
    return href ? [{ key: app.id, name: app.name, href }] : [];
  });
  if (!entries.length) return null;
  return (
    <nav className={styles.topMenu} aria-label={t('console:topBar.appMenu')}>
      {entries.map((entry) => (
        <a key={entry.key} className={styles.topMenuLink} href={entry.href} target="_blank" rel="noopener noreferrer">
          {entry.name}
          <Icon name="external" />
        </a>
      ))}
    </nav>
  );
}
