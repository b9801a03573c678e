// profile/message: my in-site messages (all, unread or read), each with its sender ("System" for
// the console's own); opening one (its title is a disclosure button) shows its text and marks it
// read, and the top bar's unread badge follows. Mark read (one or all), delete; administrators
// (operations permission) send messages from here.
import { lazy, Suspense, useId, useState } from 'react';
import { useStore } from '../../store';
import { hasAccess, Permission } from '../../../core/acl';
import * as messages from '../../../core/api/messages';
import { formatDate, relativeTime } from '../../../core/format';
import type { Message } from '../../../core/schemas/messaging';
import { $session } from '../../../core/session';
import { useT, useTexts } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { Pager } from '../../widgets/admin/Pager';
import * as table from '../../widgets/admin/admin.css';
import { usePagedList } from '../../widgets/admin/usePagedList';
import * as ui from '../../widgets/ui.css';
import { Icon } from '../../widgets/Icon';
import { StatusBadge } from '../../widgets/StatusBadge';
import type { ScreenProps } from '../types';
import * as styles from './messages.css';

const SendDialog = lazy(() => import('./SendDialog'));

type InboxQuery = { page: number; size: number; status: messages.InboxFilter };

function Item({ message, onChanged }: { message: Message; onChanged: () => void }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  // Read by opening it: shown read at once, without reloading the list (in the "Unread" view the
  // message stays where the person is reading it).
  const [readHere, setReadHere] = useState(false);
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch {
      return; // shown by the HTTP client
    }
    onChanged();
  };
  const unread = message.readAt === null && !readHere;
  const toggle = () => {
    setOpen(!open);
    if (open || !unread) return;
    setReadHere(true);
    messages.markRead(message.id).catch(() => setReadHere(false));
  };
  return (
    <li className={`${styles.item} ${unread ? styles.unread : ''}`} aria-labelledby={`${id}-title`}>
      <div className={styles.itemHead}>
        <h2 className={styles.itemTitle}>
          <button type="button" id={`${id}-title`} className={styles.opener} aria-expanded={open} aria-controls={`${id}-text`} onClick={toggle}>
            <Icon name={open ? 'chevronDown' : 'chevronRight'} className={styles.openerIcon} />
            {message.title}
          </button>
        </h2>
        {unread && <StatusBadge status="unread" />}
        <time className={styles.time} dateTime={new Date(message.pushTime).toISOString()} title={formatDate(message.pushTime)}>
          {relativeTime(message.pushTime, Date.now(), t)}
        </time>
      </div>
      <p className={styles.sender}>{t('settings:inbox.from', { name: message.sender ?? t('settings:inbox.system') })}</p>
      <p id={`${id}-text`} className={styles.content} hidden={!open}>
        {message.content}
      </p>
      <div className={styles.itemActions}>
        {unread && (
          <button
            type="button"
            className={`${ui.button.ghost} ${table.small}`}
            aria-label={t('settings:inbox.markReadOf', { title: message.title })}
            onClick={() => void act(() => messages.markRead(message.id))}
          >
            {t('settings:inbox.markRead')}
          </button>
        )}
        <button
          type="button"
          className={`${ui.button.ghost} ${table.small}`}
          aria-label={t('settings:inbox.deleteOf', { title: message.title })}
          onClick={() => void act(() => messages.remove(message.id))}
        >
          {t('settings:inbox.delete')}
        </button>
      </div>
    </li>
  );
}

export default function MessagesScreen({ route }: ScreenProps) {
  const t = useT();
  const id = useId();
  const ready = useTexts(undefined, 'settings', 'admin');
  const user = useStore($session).user;
  const canSend = hasAccess(user, { code: Permission.Operations });
  const inbox = usePagedList<Message, InboxQuery>(({ status, page, size }) => messages.inbox(status, page, size), { status: 'all' });
  const [sending, setSending] = useState(false);

  const markAll = async () => {
    try {
      await messages.markAllRead();
    } catch {
      return;
    }
    inbox.reload();
  };

  return (
    <AdminPage
      title={route.name}
      actions={
        <span className={table.inline}>
          <button type="button" className={ui.button.secondary} onClick={() => void markAll()}>
            {t('settings:inbox.markAllRead')}
          </button>
          {canSend && (
            <button type="button" className={ui.button.primary} onClick={() => setSending(true)}>
              {t('settings:send.open')}
            </button>
          )}
        </span>
      }
    >
      {ready && (
        <>
          <div className={table.toolbar}>
            <div className={table.control}>
              <label htmlFor={`${id}-filter`} className={table.controlLabel}>
                {t('settings:inbox.show')}
              </label>
              <select
                id={`${id}-filter`}
                className={table.select}
                value={inbox.query.status}
                onChange={(event) => inbox.refine({ status: event.currentTarget.value as messages.InboxFilter })}
              >
                {(['all', 'unread', 'read'] as const).map((status) => (
                  <option key={status} value={status}>
                    {t(`settings:inbox.filter.${status}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {inbox.failed ? (
            <p className={ui.empty} role="alert">
              {t('console:unavailable')}
            </p>
          ) : !inbox.data ? (
            <p className={ui.empty} role="status">
              {t('console:loading')}
            </p>
          ) : !inbox.data.list.length ? (
            <p className={ui.empty}>{t('settings:inbox.empty')}</p>
          ) : (
            <ul className={styles.list} aria-label={t(route.name)}>
              {inbox.data.list.map((message) => (
                <Item key={message.id} message={message} onChanged={inbox.reload} />
              ))}
            </ul>
          )}
          {inbox.data && <Pager page={inbox.query.page} size={inbox.query.size} total={inbox.data.pager.total} onChange={inbox.turn} />}
        </>
      )}
      <Suspense fallback={null}>{sending && <SendDialog open onOpenChange={setSending} onSent={inbox.reload} />}</Suspense>
    </AdminPage>
  );
}
