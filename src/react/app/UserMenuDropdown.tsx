// The user dropdown of the top bar (§2): who is signed in and their role ('regular tenant' or
// 'admin tenant'), then Profile, Reset Password and Logout. Radix's menu and its positioning are
// most of its weight, so UserMenu loads it when the person first reaches for the menu.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useStore } from '@nanostores/react';
import { $session } from '../../core/session';
import { useT } from '../i18n';
import { Avatar } from '../widgets/Avatar';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import { openAccountDialog } from './accountDialogs';
import { useConsole } from './context';
import * as styles from './topBar.css';
import { displayName, roleKey } from './user';

/** `defaultOpen`: open at once (the first click on UserMenu's button loaded this). */
export default function UserMenuDropdown({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const t = useT();
  const user = useStore($session).user;
  const { portalContainer } = useConsole();
  if (!user) return null;
  const name = displayName(user);

  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
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
