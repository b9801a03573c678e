// The user dropdown of the top bar (§2): who is signed in and their role ('regular tenant' or
// 'admin tenant'), then Profile, Reset Password and Logout.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useStore } from '@nanostores/react';
import { $session } from '../../core/session';
import type { SessionUser } from '../../core/types';
import { useT } from '../i18n';
import { Avatar } from '../widgets/Avatar';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import { openAccountDialog } from './accountDialogs';
import { useConsole } from './context';
import * as styles from './topBar.css';

/** §3: the profile menu shows the role as 'regular tenant' or 'admin tenant'. */
export function roleKey(user: Pick<SessionUser, 'isAdmin'>): string {
  return user.isAdmin ? 'userRole.adminTenant' : 'userRole.regularTenant';
}

export function displayName(user: Pick<SessionUser, 'realName' | 'username'>): string {
  return user.realName || user.username;
}

export function UserMenu() {
  const t = useT();
  const user = useStore($session).user;
  const { portalContainer } = useConsole();
  if (!user) return null;
  const name = displayName(user);

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles.userButton} aria-label={t('console:user.menu', { name })}>
        <Avatar src={user.avatar} name={name} />
        <span className={styles.userName}>{name}</span>
        <Icon name="chevronDown" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={portalContainer ?? undefined}>
        <DropdownMenu.Content className={styles.menu} align="end" sideOffset={6} collisionPadding={8}>
          <DropdownMenu.Label className={styles.menuLabel}>
            <span className={styles.menuName}>{name}</span>
            <span className={ui.muted}>@{user.username}</span>
            <span>
              <span className={ui.badge}>{t(roleKey(user))}</span>
            </span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className={styles.menuSeparator} />
          <DropdownMenu.Item className={styles.menuItem} onSelect={() => openAccountDialog('profile')}>
            <Icon name="user" />
            {t('console:user.profile')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={styles.menuItem} onSelect={() => openAccountDialog('password')}>
            <Icon name="key" />
            {t('console:user.resetPassword')}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className={styles.menuSeparator} />
          <DropdownMenu.Item className={styles.menuItem} onSelect={() => openAccountDialog('logout')}>
            <Icon name="logout" />
            {t('console:user.logout')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
