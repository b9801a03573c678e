// The user menu's button in the top bar. The dropdown behind it (Radix menu + positioning,
// ≈16 KiB min+gzip) is not part of the console's first load: it is fetched when the pointer or
// the focus reaches the button and opens as soon as it is there if the button was pressed.
import { lazy, Suspense, useState } from 'react';
import { useStore } from '../store';
import { $session } from '../../core/session';
import { useT } from '../i18n';
import { Avatar } from '../widgets/Avatar';
import { Icon } from '../widgets/Icon';
import * as styles from './topBar.css';
import { displayName } from './user';

const loadDropdown = () => import('./UserMenuDropdown');
const UserMenuDropdown = lazy(loadDropdown);
/** Fetch ahead; a failure shows when the press renders the dropdown (lazy retries the import). */
const prefetch = () => void loadDropdown().catch(() => undefined);

export default function UserMenu() {
  const [wanted, setWanted] = useState(false);
  if (wanted) {
    return (
      <Suspense fallback={<UserMenuButton />}>
        <UserMenuDropdown defaultOpen />
      </Suspense>
    );
  }
  return <UserMenuButton onPress={() => setWanted(true)} />;
}

/** The button as the dropdown's trigger draws it; `onPress` absent: a stand-in while it loads. */
function UserMenuButton({ onPress }: { onPress?: () => void }) {
  const t = useT();
  const user = useStore($session).user;
  if (!user) return null;
  const name = displayName(user);
  return (
    <button
      type="button"
      className={styles.userButton}
      aria-label={t('console:user.menu', { name })}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={onPress}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowDown' || !onPress) return;
        event.preventDefault();
        onPress();
      }}
    >
      <Avatar src={user.avatar} name={name} />
      <span className={styles.userName}>{name}</span>
      <Icon name="chevronDown" />
    </button>
  );
}
