// The personal center's passkeys: the list (name, added, last used, synced), "Add a passkey" (a
// dialog: name, current password, then the browser's prompt), rename and remove (a dialog: the
// current password again).
// Signing in with them is the sign-in form's (src/react/login/PasskeySignIn.tsx). Loaded lazily
// by the personal center, which shows ./PasskeysStandIn.tsx in its place meanwhile.
import { lazy, Suspense, useState } from 'react';
import { myPasskeys, type PasskeyInfo } from '../../../core/api/passkeys';
import { formatDate, relativeTime } from '../../../core/format';
import { useT } from '../../i18n';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './UserInfoScreen.css';
import { PasskeysFrame, PasskeysStandIn, passkeysSupported } from './PasskeysStandIn';
import { usePublicLoginSettings } from '../../login/publicSettings';
import { passkeysNotHere } from './passkeysHere';

// The dialogs (and the dialog frame under them) load when first opened: the screen's chunk has a size budget.
const AddPasskeyDialog = lazy(() => import('./PasskeyDialogs').then((module) => ({ default: module.AddPasskeyDialog })));
const RenamePasskeyDialog = lazy(() => import('./PasskeyDialogs').then((module) => ({ default: module.RenamePasskeyDialog })));
const RemovePasskeyDialog = lazy(() => import('./PasskeyDialogs').then((module) => ({ default: module.RemovePasskeyDialog })));

type Editing = { kind: 'add' } | { kind: 'rename' | 'remove'; passkey: PasskeyInfo };

function PasskeyRow({ passkey, onEdit }: { passkey: PasskeyInfo; onEdit: (editing: Editing) => void }) {
  const t = useT();
  const used =
    passkey.lastUsedAt === null ? t('account:passkeys.neverUsed') : t('account:passkeys.lastUsed', { time: relativeTime(passkey.lastUsedAt, Date.now(), t) });
  return (
    <li className={ui.listItem}>
      <span className={styles.itemMain}>
        <span>
          {passkey.name} {passkey.backedUp && <span className={ui.badge}>{t('account:passkeys.synced')}</span>}
        </span>
        <span className={styles.itemMeta}>
          {t('account:passkeys.created', { time: formatDate(passkey.createdAt, 'YYYY-MM-DD') })} · {used}
        </span>
      </span>
      <span className={styles.itemActions}>
        <button
          type="button"
          className={ui.button.ghost}
          aria-label={t('account:passkeys.renameNamed', { name: passkey.name })}
          onClick={() => onEdit({ kind: 'rename', passkey })}
        >
          {t('account:passkeys.rename')}
        </button>
        <button
          type="button"
          className={ui.button.ghost}
          aria-label={t('account:passkeys.removeNamed', { name: passkey.name })}
          onClick={() => onEdit({ kind: 'remove', passkey })}
        >
          {t('account:passkeys.remove')}
        </button>
      </span>
    </li>
  );
}

/** `onChange`: a passkey was added or removed (whether recovery codes are available may change). */
export default function PasskeysCard({ onChange }: { onChange: () => void }) {
  const t = useT();
  const list = useResource(myPasskeys, []);
  // The server's RP ID for this page (null: it accepts no passkeys from here); unread: undefined.
  const settings = usePublicLoginSettings('passkeys');
  const notHere = passkeysNotHere(settings ? settings.passkeyRpId : undefined, location);
  const [editing, setEditing] = useState<Editing>();
  const close = (open: boolean) => !open && setEditing(undefined);
  const changed = () => {
    list.reload();
    onChange();
  };

  if (!list.data && !list.failed) return <PasskeysStandIn />;

  const action = passkeysSupported() && !notHere && (
    <button type="button" className={ui.button.primary} onClick={() => setEditing({ kind: 'add' })}>
      {t('account:passkeys.add')}
    </button>
  );

  return (
    <PasskeysFrame action={action}>
      {notHere && (
        <p className={styles.text} role="note">
          {notHere.reason === 'ipAddress'
            ? t('account:passkeys.notHereIpAddress', { host: notHere.host })
            : t('account:passkeys.notHereOrigin', { origin: notHere.origin })}
        </p>
      )}
      {!list.data ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : list.data.length === 0 ? (
        <p className={ui.empty}>{t('account:passkeys.empty')}</p>
      ) : (
        <ul className={ui.list}>
          {list.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onEdit={setEditing} />
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {editing?.kind === 'add' && <AddPasskeyDialog onOpenChange={close} onSaved={changed} />}
        {editing?.kind === 'rename' && <RenamePasskeyDialog passkey={editing.passkey} onOpenChange={close} onSaved={list.reload} />}
        {editing?.kind === 'remove' && <RemovePasskeyDialog passkey={editing.passkey} onOpenChange={close} onSaved={changed} />}
      </Suspense>
    </PasskeysFrame>
  );
}
