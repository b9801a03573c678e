// The top bar's messages link with the unread count as a badge. The count is read when the person
// signs in, after each change to their inbox (the core refreshes it), and every minute while the
// page is visible (the timer stops while the page is hidden and reads again when it comes back).
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useStore } from '../store';
import { $unreadCount, refreshUnreadCount } from '../../core/api/messages';
import { $session } from '../../core/session';
import { useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import * as topBar from './topBar.css';

const REFRESH_MS = 60_000;

function useUnreadCountRefresh(userId: string | undefined): void {
  useEffect(() => {
    // Signed out: forget the count, so that the next person never sees it.
    if (!userId) {
      $unreadCount.set(undefined);
      return;
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      void refreshUnreadCount();
      timer = setInterval(() => void refreshUnreadCount(), REFRESH_MS);
    };
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.hidden) stop();
      else if (timer === undefined) start();
    };
    if (!document.hidden) start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [userId]);
}

export function UnreadBadge() {
  const t = useT();
  const userId = useStore($session).user?.id;
  const count = useStore($unreadCount);
  useUnreadCountRefresh(userId);
  if (!userId) return null;
  const label = count ? t('console:unread.label', { count }) : t('console:unread.none');
  return (
    <Link href="/profile/message" className={`${ui.iconButton} ${topBar.messages}`} aria-label={label} title={label}>
      <Icon name="message" />
      {!!count && (
        <span className={topBar.unreadBadge} aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
