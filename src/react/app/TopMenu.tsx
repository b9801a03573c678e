// The unified top menu (topMenuType 'unify', §3): the portal's apps from the multi-app menu list,
// each opening its entrypoint. 'self' shows no top menu: the console's own side menu is enough.
import { useEffect, useState } from 'react';
import { multiAppMenuList, type MultiAppMenu } from '../../core/api/menus';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import { safeLink } from '../widgets/links';
import * as styles from './shell.css';

interface TopMenuEntry {
  key: string;
  name: string;
  href: string;
}

function entriesOf(menus: readonly MultiAppMenu[]): TopMenuEntry[] {
  return menus.flatMap((menu, index) => {
    const name = typeof menu.appName === 'string' ? menu.appName : typeof menu.name === 'string' ? menu.name : '';
    const href = safeLink(typeof menu.entrypoint === 'string' ? menu.entrypoint : typeof menu.url === 'string' ? menu.url : undefined);
    return name && href ? [{ key: menu.appId ?? `${index}`, name, href }] : [];
  });
}

export function TopMenu() {
  const t = useT();
  const [entries, setEntries] = useState<TopMenuEntry[]>([]);
  useEffect(() => {
    let live = true;
    multiAppMenuList()
      .then((menus) => live && Array.isArray(menus) && setEntries(entriesOf(menus)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
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
