// The portal home (/home/index): who is signed in, the apps they may open (entrypoints, or a SAML
// app's IdP-initiated sign-in), the admin areas they are permitted, their unread messages and their
// recent sign-ins.
import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { useStore } from '../../store';
import type { MenuItem } from '../../../core/acl';
import type { OwnedApp } from '../../../core/types';
import { relativeTime } from '../../../core/format';
import { $session } from '../../../core/session';
import { mySessions, unreadMessages } from '../../../core/api/account';
import { appsFromMenus, uniqueApps, usePortalMenus } from '../../app/portalApps';
import { displayName, roleKey } from '../../app/user';
import { useMenu } from '../../app/useMenu';
import { useLocale, useNameText, useT } from '../../i18n';
import { Avatar } from '../../widgets/Avatar';
import { Card } from '../../widgets/Card';
import { Icon, isIconName } from '../../widgets/Icon';
import { safeLink } from '../../widgets/links';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './HomeScreen.css';
import type { TextKey } from '../../../core/i18n';

// Loaded when the person has a SAML app: the portal's first visit does not grow.
const SamlAppTile = lazy(() => import('./SamlAppTile'));

/** What each administration area is for, by its path. */
const areaTexts: Readonly<Partial<Record<string, TextKey>>> = {
  '/operate/app': 'console:home.areaText.app',
  '/operate/user': 'console:home.areaText.user',
  '/operate/tenant/list': 'console:home.areaText.tenant',
  '/operate/setting': 'console:home.areaText.setting',
  '/operate/tunnel': 'console:home.areaText.tunnel',
  '/operate/menu': 'console:home.areaText.menu',
  '/operate/audit': 'console:home.areaText.audit',
  '/operate/scim': 'console:home.areaText.scim',
  '/operate/webhooks': 'console:home.areaText.webhooks',
};

function AdminAreas() {
  const t = useT();
  const nameText = useNameText();
  // Every permitted entry under /operate/, wherever the menu (or the global plan) puts it.
  const flatten = (items: readonly MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flatten(item.children ?? [])]);
  const areas = flatten(useMenu()).filter((item) => item.path.startsWith('/operate/') && !item.children?.length && !item.disabled);
  if (!areas.length) return <p className={ui.empty}>{t('console:home.noAdminAreas')}</p>;
  return (
    <ul className={styles.tiles}>
      {areas.map((area) => {
        const description = areaTexts[area.path];
        return (
          <li key={area.path}>
            <Link href={area.path} className={styles.tile}>
              <span className={styles.tileIcon}>{isIconName(area.icon) && <Icon name={area.icon} />}</span>
              <span className={styles.tileText}>
                <span className={styles.tileName}>{nameText(area.name)}</span>
                {description && <span className={styles.tileDescription}>{t(description)}</span>}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The apps the person may open (a visible menu item) and those they administer, once each. */
function Apps({ administered }: { administered: readonly OwnedApp[] }) {
  const t = useT();
  const menus = usePortalMenus();
  if (!menus) return <p className={ui.empty}>{t('console:loading')}</p>;
  const apps = uniqueApps(appsFromMenus(menus), administered);
  if (!apps.length) return <p className={ui.empty}>{t('console:home.noApps')}</p>;
  return (
    <ul className={styles.tiles}>
      {apps.map((app) => {
        const href = safeLink(app.entrypoint);
        const body = (
          <>
            <span className={styles.tileIcon}>
              <Icon name="app" />
            </span>
            <span className={styles.tileText}>
              <span className={styles.tileName}>{app.name}</span>
              <span className={styles.tileDescription}>{href ?? t('console:home.noEntrypoint')}</span>
            </span>
          </>
        );
        return (
          <li key={app.id}>
            {app.saml ? (
              <Suspense fallback={null}>
                <SamlAppTile app={app} />
              </Suspense>
            ) : href ? (
              <a className={styles.tile} href={href} target="_blank" rel="noopener noreferrer">
                {body}
              </a>
            ) : (
              <span className={styles.tile}>{body}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function RecentSignIns() {
  const t = useT();
  // The device describer arrives with the list it describes: the first visit does not load it.
  const sessions = useResource(() => Promise.all([mySessions(), import('../../../core/user-agent')]), []);
  if (sessions.loading && !sessions.data) return <p className={ui.empty}>{t('console:loading')}</p>;
  if (sessions.failed || !sessions.data) return <p className={ui.empty}>{t('console:unavailable')}</p>;
  const [list, { describeAgent }] = sessions.data;
  const recent = [...list].sort((a, b) => b.createdAt - a.createdAt).slice(0, 5);
  return (
    <ul className={ui.list}>
      {recent.map((session) => {
        const agent = describeAgent(session.userAgent);
        return (
          <li key={session.id} className={ui.listItem}>
            <span className={styles.itemMain}>
              <span>{[agent.browser, agent.system].filter(Boolean).join(' · ') || t('console:session.unknownDevice')}</span>
              <span className={styles.itemMeta}>{session.ip ?? t('console:session.unknownAddress')}</span>
            </span>
            <span className={styles.itemTime}>
              {session.current ? <span className={ui.badge}>{t('console:session.current')}</span> : relativeTime(session.createdAt, Date.now(), t)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export default function HomeScreen() {
  const t = useT();
  const { user, administeredApps } = useStore($session);
  if (!user) return null;
  const name = displayName(user);

  return (
    <div>
      <div className={styles.hero}>
        <Avatar src={user.avatar} name={name} size={56} />
        <div className={styles.heroText}>
          <h1 className={styles.heroTitle}>{t('console:home.welcome', { name })}</h1>
          <p className={styles.heroMeta}>
            <span className={`${ui.badge} ${styles.heroBadge}`}>{t(roleKey(user))}</span>
            <span>@{user.username}</span>
          </p>
        </div>
        <Link href="/profile/userInfo" className={ui.button.secondary}>
          <Icon name="userInfo" />
          {t('route.userInfo')}
        </Link>
      </div>
      <div className={styles.grid}>
        <Card id="iam-home-admin" title={t('console:home.admin')} className={styles.wide}>
          <AdminAreas />
        </Card>
        <Card id="iam-home-apps" title={t('console:home.apps')}>
          <Apps administered={uniqueApps(administeredApps ?? [], user.ownedApps)} />
        </Card>
        <Card id="iam-home-messages" title={t('console:home.messages')}>
          <UnreadMessages />
        </Card>
        <Card id="iam-home-signins" title={t('console:home.signIns')}>
          <RecentSignIns />
        </Card>
      </div>
    </div>
  );
}

function UnreadMessages() {
  const t = useT();
  // System messages are written in the reader's language: a language change asks again.
  const locale = useLocale();
  const messages = useResource(() => unreadMessages(5), [locale]);
  if (!messages.data) return <p className={ui.empty}>{t(messages.failed ? 'console:unavailable' : 'console:loading')}</p>;
  const { list, pager } = messages.data;
  return (
    <>
      {list.length ? (
        <ul className={ui.list}>
          {list.map((message) => (
            <li key={message.id} className={ui.listItem}>
              <span className={`${styles.itemMain} ${ui.ellipsis}`}>
                <span className={ui.ellipsis}>{message.title}</span>
                <span className={`${styles.itemMeta} ${ui.ellipsis}`}>{message.content}</span>
              </span>
              <span className={styles.itemTime}>{relativeTime(message.pushTime, Date.now(), t)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={ui.empty}>{t('console:home.noMessages')}</p>
      )}
      <p className={styles.more}>
        <Link href="/profile/message" className={ui.link}>
          {t('console:home.allMessages', { count: pager.total })}
        </Link>
      </p>
    </>
  );
}
