// A person's console sessions as their administrator sees them (device, address, when signed in,
// last active), "End session" on one of them (a lost laptop: the others go on), and "Sign out
// everywhere" after a question in place: every console session and every app sign-in of the person ends.
import { useState } from 'react';
import { endSession, signOutEverywhere, userSessions, type AdminUser } from '../../../core/api/user-admin';
import { formatDate, relativeTime } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useResource } from '../../widgets/useResource';
import { describeAgent } from '../../../core/user-agent';
import * as ui from '../../widgets/ui.css';

export default function SessionsDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const t = useT();
  const sessions = useResource(() => userSessions(user.id), [user.id]);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  const signOut = async () => {
    setBusy(true);
    try {
      const { revoked } = await signOutEverywhere(user.id);
      notifySuccess(t('admin:sessions.signedOut', { name: user.username, count: revoked }));
      setAsking(false);
      sessions.reload();
    } catch {
      // the HTTP client has shown why
    } finally {
      setBusy(false);
    }
  };

  const end = async (sessionId: string, device: string) => {
    setBusy(true);
    try {
      await endSession(user.id, sessionId);
      notifySuccess(t('admin:sessions.ended', { device }));
      sessions.reload();
    } catch {
      // the HTTP client has shown why
    } finally {
      setBusy(false);
    }
  };

  const list = sessions.data;
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:sessions.title', { name: user.username })}>
      {sessions.failed ? (
        <p role="alert">{t('admin:table.failed')}</p>
      ) : !list ? (
        <p role="status">{t('console:loading')}</p>
      ) : !list.length ? (
        <p className={ui.empty}>{t('admin:sessions.none')}</p>
      ) : (
        <ul className={ui.list} aria-label={t('admin:sessions.listLabel', { name: user.username })}>
          {list.map((session) => {
            const agent = describeAgent(session.userAgent);
            const device = [agent.browser, agent.system].filter(Boolean).join(' · ') || t('console:session.unknownDevice');
            const lastSeen = relativeTime(session.lastSeenAt, Date.now(), t);
            return (
              <li key={session.id} className={ui.listItem}>
                <div>
                  <strong>{device}</strong>
                  <div className={ui.muted}>
                    {session.ip ?? t('console:session.unknownAddress')} · {t('console:session.signedIn', { time: formatDate(session.createdAt) })} ·{' '}
                    {t('console:session.lastSeen', { time: lastSeen })}
                  </div>
                </div>
                <button
                  type="button"
                  className={ui.button.secondary}
                  aria-label={t('admin:sessions.endLabel', { device, time: lastSeen })}
                  disabled={busy}
                  onClick={() => void end(session.id, device)}
                >
                  {t('admin:sessions.end')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {asking ? (
        <div role="group" aria-label={t('admin:sessions.confirmTitle')}>
          <p>{t('admin:sessions.question', { name: user.username })}</p>
          <div className={ui.actions}>
            {/* The question replaces the button that asked it: the focus goes to its safe answer. */}
            <button type="button" className={ui.button.secondary} autoFocus onClick={() => setAsking(false)}>
              {t('console:action.cancel')}
            </button>
            <button type="button" className={ui.button.danger} disabled={busy} onClick={() => void signOut()}>
              {t('admin:sessions.confirm')}
            </button>
          </div>
        </div>
      ) : (
        <div className={ui.actions}>
          <button type="button" className={ui.button.danger} disabled={!list?.length} onClick={() => setAsking(true)}>
            {t('admin:sessions.signOutEverywhere')}
          </button>
        </div>
      )}
    </DialogFrame>
  );
}
