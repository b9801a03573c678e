// The user dropdown of the top bar: who is signed in and their role (platform administrator, tenant
// administrator or member), then Profile, Reset password and Logout. Radix's menu and its positioning are
// most of its weight, so UserMenu loads it when the person first reaches for the menu.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { FocusEvent, KeyboardEvent } from 'react';
import { useStore } from '../store';
import { $session } from '../../core/session';
import { useT } from '../i18n';
import { Avatar } from '../widgets/Avatar';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import { openAccountDialog } from './accountDialogState';
import { useConsole } from './context';
import * as styles from './topBar.css';
import { displayName, roleKey } from './user';

// Radix moves the focus between items with a helper that compares document.activeElement, which
// inside a shadow root is the host: it then runs on through every item to the last. So the menu's
// arrow keys are handled here first, and the menu's first item takes the focus when the keyboard
// opened it.
const moves: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowUp: (index, count) => (index <= 0 ? count : index) - 1,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

function items(menu: HTMLElement): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([data-disabled])')];
}

function moveInMenu(event: KeyboardEvent<HTMLDivElement>): void {
  const move = moves[event.key];
  if (!move || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const all = items(event.currentTarget);
  if (!all.length) return;
  event.preventDefault();
  all[move(all.indexOf(event.target as HTMLElement), all.length)]?.focus();
}

function enterMenu(event: FocusEvent<HTMLDivElement>): void {
  if (event.target !== event.currentTarget) return;
  event.preventDefault();
  if (event.currentTarget.matches(':focus-visible')) items(event.currentTarget)[0]?.focus();
}

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
        <DropdownMenu.Content className={styles.menu} align="end" sideOffset={6} collisionPadding={8} onKeyDownCapture={moveInMenu} onFocus={enterMenu}>
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
