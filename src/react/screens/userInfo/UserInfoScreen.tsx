// The personal center (/profile/userInfo): own details (edited in the profile dialog), avatar,
// password change, the authenticator app, passkeys, recovery codes, the active sessions with "sign
// out other sessions" and "sign out everywhere", and recent sign-ins. Every card is there from the
// first paint, with stand-ins of its final size while its data loads, and the lazily loaded ones
// (LazyCard: passkeys, recovery codes) with a stand-in of their size until they come
// (bench/layout-shift.mjs measures that nothing moves as they arrive). The `account` texts load
// with the screen (app/screens.ts).
import { lazy, Suspense, useState } from 'react';
import { useStore } from '../../store';
import * as users from '../../../core/api/users';
import { formatDate, relativeTime } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { $session, reload } from '../../../core/session';
import { mySessions, signOutOtherSessions, signOutSession, type SessionInfo } from '../../../core/api/account';
import { openAccountDialog } from '../../app/accountDialogState';
import { roleKey } from '../../app/user';
import { useT, useTexts } from '../../i18n';
import { Icon } from '../../widgets/Icon';
import { ImageUpload } from '../../widgets/ImageUpload';
import { useResource } from '../../widgets/useResource';
import { describeAgent } from '../../../core/user-agent';
import * as ui from '../../widgets/ui.css';
import { AuthenticatorCard } from './AuthenticatorCard';
import { PasskeysStandIn } from './PasskeysStandIn';
import { Card } from '../../widgets/Card';
import { LazyCard } from '../../widgets/LazyCard';
import { RecoveryCodesStandIn } from './RecoveryCodesStandIn';
import * as styles from './UserInfoScreen.css';

const SignOutEverywhereDialog = lazy(() => import('./SignOutEverywhereDialog'));
const RecoveryCodesCard = lazy(() => import('./RecoveryCodesCard'));
const PasskeysCard = lazy(() => import('./PasskeysCard'));

/** The details, or stand-ins of the same rows while they load (`info` undefined). */
function Details({ info }: { info: users.BasicInfo | undefined }) {
  const t = useT();
  const user = useStore($session).user;
  const rows: [string, string | undefined][] = [
    [t('console:profile.username'), info?.username],
    [t('console:profile.realName'), info?.realName],
    [t('console:profile.email'), info?.email],
    [t('console:profile.mobilePhone'), info?.mobilePhone],
    [t('console:userInfo.role'), user && t(roleKey(user))],
  ];
  return (
    <dl className={styles.details}>
      {rows.map(([term, value]) => (
        <div key={term} className={styles.row}>
          <dt className={styles.term}>{term}</dt>
          <dd className={styles.value}>{info ? value || '—' : <span className={ui.skeleton} aria-hidden="true" />}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The avatar; while the details load, the same card with the upload not yet usable. */
function AvatarCard({ info }: { info: users.BasicInfo | undefined }) {
  const t = useT();
  const save = async (avatar: string) => {
    if (!info) return;
    try {
      await users.updateProfile({ realName: info.realName, avatar, mobilePhone: info.mobilePhone ?? '', email: info.email ?? '' });
    } catch {
      return; // shown by the HTTP client
    }
    await reload().catch(() => undefined);
    notifySuccess(t('console:done.avatarSaved'));
  };
  return (
    <Card id="iam-userinfo-avatar" title={t('console:profile.avatar')}>
      <ImageUpload
        label={t('console:profile.avatar')}
        labelHidden
        purpose="avatar"
        hint={t('upload.avatarType')}
        value={info?.avatar ?? ''}
        disabled={!info}
        onChange={(url) => void save(url)}
      />
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
  const [askingEverywhere, setAskingEverywhere] = useState(false);
  const accountTexts = useTexts(undefined, 'account');

  const act = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
    } catch {
      return;
    }
    notifySuccess(done);
    sessions.reload();
  };

  return (
    <Card
      id="iam-userinfo-sessions"
      title={t('console:userInfo.sessions')}
      className={styles.wide}
      action={
        <span className={styles.cardActions}>
          <button
            type="button"
            className={ui.button.secondary}
            disabled={!others}
            onClick={() => void act(signOutOtherSessions, t('console:done.signedOutOthers'))}
          >
            {t('console:session.signOutOthers')}
          </button>
          {accountTexts && (
            <button type="button" className={ui.button.secondary} onClick={() => setAskingEverywhere(true)}>
              {t('account:everywhere.button')}
            </button>
          )}
        </span>
      }
    >
      {askingEverywhere && (
        <Suspense fallback={null}>
          <SignOutEverywhereDialog onClose={() => setAskingEverywhere(false)} onDone={sessions.reload} />
        </Suspense>
      )}
      {sessions.failed ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : !sessions.data ? (
        // One session (this one) is always there: its row's stand-in, two lines like the row.
        <ul className={ui.list} aria-busy="true">
          <li className={ui.listItem}>
            <span className={styles.itemMain} aria-hidden="true">
              <span className={ui.skeleton} />
              <span className={`${styles.itemMeta} ${ui.skeleton}`} />
            </span>
          </li>
        </ul>
      ) : (
        <ul className={ui.list}>
          {[...sessions.data]
            .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt)
            .map((session) => (
              <SessionRow key={session.id} session={session} onSignOut={(id) => void act(() => signOutSession(id), t('console:done.signedOutOne'))} />
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
  // Turning the authenticator app on or off, or adding or removing a passkey, changes whether
  // recovery codes are available.
  const [factorsChanged, setFactorsChanged] = useState(0);
  const factorChanged = () => setFactorsChanged((count) => count + 1);

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
          {info.failed ? <p className={ui.empty}>{t('console:unavailable')}</p> : <Details info={info.data} />}
        </Card>
        <AvatarCard info={info.data} />
        <Card id="iam-userinfo-password" title={t('console:userInfo.password')}>
          <p className={styles.text}>{t('console:userInfo.passwordText')}</p>
          <button type="button" className={ui.button.primary} onClick={() => openAccountDialog('password')}>
            <Icon name="key" />
            {t('console:userInfo.changePassword')}
          </button>
        </Card>
        <AuthenticatorCard onChange={factorChanged} />
        <LazyCard card={PasskeysCard} props={{ onChange: factorChanged }} namespaces={['account']} standIn={<PasskeysStandIn />} />
        <LazyCard card={RecoveryCodesCard} props={{ factorsChanged }} namespaces={['account']} standIn={<RecoveryCodesStandIn />} />
        <Sessions />
      </div>
    </div>
  );
}
