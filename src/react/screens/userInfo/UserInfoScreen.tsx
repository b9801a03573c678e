// The personal center (/profile/userInfo): own details (edited in the profile dialog), avatar,
// password change, the authenticator app, passkeys, the active sessions with "sign out other sessions", and recent sign-ins.
import { useStore } from '@nanostores/react';
import * as users from '../../../core/api/users';
import { formatDate, relativeTime } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { $session, reload } from '../../../core/session';
import { mySessions, signOutOtherSessions, signOutSession, type SessionInfo } from '../../../core/api/account';
import { openAccountDialog } from '../../app/accountDialogState';
import { roleKey } from '../../app/user';
import { useT } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { ImageUpload } from '../../widgets/ImageUpload';
import { useResource } from '../../widgets/useResource';
import { describeAgent } from '../../widgets/userAgent';
import * as ui from '../../widgets/ui.css';
import { AuthenticatorCard } from './AuthenticatorCard';
import { PasskeysCard } from './PasskeysCard';
import { Card } from '../../widgets/Card';
import * as styles from './UserInfoScreen.css';

function Details({ info }: { info: users.BasicInfo }) {
  const t = useT();
  const user = useStore($session).user;
  const rows: [string, string | undefined][] = [
    [t('console:profile.username'), info.username],
    [t('console:profile.realName'), info.realName],
    [t('console:profile.email'), info.email],
    [t('console:profile.mobilePhone'), info.mobilePhone],
    [t('console:userInfo.role'), user && t(roleKey(user))],
  ];
  return (
    <dl className={styles.details}>
      {rows.map(([term, value]) => (
        <div key={term} className={styles.row}>
          <dt className={styles.term}>{term}</dt>
          <dd className={styles.value}>{value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

function AvatarCard({ info }: { info: users.BasicInfo }) {
  const t = useT();
  const save = async (avatar: string) => {
    try {
      await users.updateProfile({ realName: info.realName, avatar, mobilePhone: info.mobilePhone ?? '', email: info.email ?? '' });
    } catch {
      return; // shown by the HTTP client
    }
    await reload().catch(() => undefined);
    notifySuccess(t('message.actionSuccess'));
  };
  return (
    <Card id="iam-userinfo-avatar" title={t('console:profile.avatar')}>
      <ImageUpload label={t('console:profile.avatar')} labelHidden purpose="avatar" hint={t('upload.avatarType')} value={info.avatar ?? ''} onChange={(url) => void save(url)} />
    </Card>
  );
}

function SessionRow({ session, onSignOut }: { session: SessionInfo; onSignOut: (id: string) => void }) {
  const t = useT();
  const agent = describeAgent(session.userAgent);
  const device = [agent.browser, agent.system].filter(Boolean).join(' · ') || t('console:session.unknownDevice');
  return (
    <li className={ui.listItem}>
      <span className={styles.itemMain}>
        <span>
          {device} {session.current && <span className={ui.badge}>{t('console:session.current')}</span>}
        </span>
        <span className={styles.itemMeta}>
          {session.ip ?? t('console:session.unknownAddress')} · {t('console:session.signedIn', { time: formatDate(session.createdAt) })} ·{' '}
          {t('console:session.lastSeen', { time: relativeTime(session.lastSeenAt, Date.now(), t) })}
        </span>
      </span>
      {!session.current && (
        <button type="button" className={ui.button.ghost} onClick={() => onSignOut(session.id)} aria-label={t('console:session.signOutOne', { device })}>
          {t('console:session.signOut')}
        </button>
      )}
    </li>
  );
}

function Sessions() {
  const t = useT();
  const sessions = useResource(mySessions, []);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch {
      return;
    }
    notifySuccess(t('message.actionSuccess'));
    sessions.reload();
  };

  return (
    <Card
      id="iam-userinfo-sessions"
      title={t('console:userInfo.sessions')}
      className={styles.wide}
      action={
        <button type="button" className={ui.button.secondary} disabled={!others} onClick={() => void act(signOutOtherSessions)}>
          {t('console:session.signOutOthers')}
        </button>
      }
    >
      {sessions.failed ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : !sessions.data ? (
        <p className={ui.empty}>{t('console:loading')}</p>
      ) : (
        <ul className={ui.list}>
          {[...sessions.data]
            .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt)
            .map((session) => (
              <SessionRow key={session.id} session={session} onSignOut={(id) => void act(() => signOutSession(id))} />
            ))}
        </ul>
      )}
    </Card>
  );
}

export default function UserInfoScreen() {
  const t = useT();
  // The session user changes after every save (the session is reloaded): read the details again.
  const user = useStore($session).user;
  const info = useResource(() => (user ? users.basicInfo(user.id) : Promise.reject(new Error('not signed in'))), [user]);

  return (
    <div>
      <h1 className={ui.pageTitle}>{t('route.userInfo')}</h1>
      <div className={styles.grid}>
        <Card
          id="iam-userinfo-details"
          title={t('console:userInfo.details')}
          action={
            <button type="button" className={ui.button.secondary} onClick={() => openAccountDialog('profile')}>
              {t('console:userInfo.edit')}
            </button>
          }
        >
          {info.data ? <Details info={info.data} /> : <p className={ui.empty}>{t(info.failed ? 'console:unavailable' : 'console:loading')}</p>}
        </Card>
        {info.data && <AvatarCard info={info.data} />}
        <Card id="iam-userinfo-password" title={t('console:userInfo.password')}>
          <p className={styles.text}>{t('console:userInfo.passwordText')}</p>
          <button type="button" className={ui.button.primary} onClick={() => openAccountDialog('password')}>
            <Icon name="key" />
            {t('console:userInfo.changePassword')}
          </button>
        </Card>
        <AuthenticatorCard />
        <PasskeysCard />
        <Sessions />
      </div>
    </div>
  );
}
