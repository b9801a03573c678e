// The personal center's passkeys: the list (name, added, last used, synced), "Add a passkey" (a
// dialog: name, current password, then the browser's prompt), rename and remove (confirmed).
// Signing in with them is the sign-in form's (src/react/login/PasskeySignIn.tsx).
import { lazy, Suspense, useState } from 'react';
import { myPasskeys, removePasskey, type PasskeyInfo } from '../../../core/api/passkeys';
import { formatDate, relativeTime } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { Card } from '../../widgets/Card';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from './UserInfoScreen.css';

// The dialogs (and the dialog frame under them) load when first opened: the screen's chunk has a size budget.
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));
const AddPasskeyDialog = lazy(() => import('./PasskeyDialogs').then((module) => ({ default: module.AddPasskeyDialog })));
const RenamePasskeyDialog = lazy(() => import('./PasskeyDialogs').then((module) => ({ default: module.RenamePasskeyDialog })));

type Editing = { kind: 'add' } | { kind: 'rename' | 'remove'; passkey: PasskeyInfo };

function PasskeyRow({ passkey, onEdit }: { passkey: PasskeyInfo; onEdit: (editing: Editing) => void }) {
  const t = useT();
  const used =
    passkey.lastUsedAt === null ? t('console:passkeys.neverUsed') : t('console:passkeys.lastUsed', { time: relativeTime(passkey.lastUsedAt, Date.now(), t) });
  return (
    <li className={ui.listItem}>
      <span className={styles.itemMain}>
        <span>
          {passkey.name} {passkey.backedUp && <span className={ui.badge}>{t('console:passkeys.synced')}</span>}
        </span>
        <span className={styles.itemMeta}>
          {t('console:passkeys.created', { time: formatDate(passkey.createdAt, 'YYYY-MM-DD') })} · {used}
        </span>
      </span>
      <span className={styles.itemActions}>
        <button
          type="button"
          className={ui.button.ghost}
          aria-label={t('console:passkeys.renameNamed', { name: passkey.name })}
          onClick={() => onEdit({ kind: 'rename', passkey })}
        >
          {t('console:passkeys.rename')}
        </button>
        <button
          type="button"
          className={ui.button.ghost}
          aria-label={t('console:passkeys.removeNamed', { name: passkey.name })}
          onClick={() => onEdit({ kind: 'remove', passkey })}
        >
          {t('console:passkeys.remove')}
        </button>
      </span>
    </li>
  );
}

export function PasskeysCard() {
  const t = useT();
  const list = useResource(myPasskeys, []);
  const [editing, setEditing] = useState<Editing>();
  const supported = typeof PublicKeyCredential === 'function';
  const close = (open: boolean) => !open && setEditing(undefined);

  const remove = async (passkey: PasskeyInfo) => {
    await removePasskey(passkey.id);
    notifySuccess(t('console:passkeys.removed'));
    list.reload();
  };

  const action = supported && (
    <button type="button" className={ui.button.primary} onClick={() => setEditing({ kind: 'add' })}>
      {t('console:passkeys.add')}
    </button>
  );

  return (
    <Card id="iam-userinfo-passkeys" title={t('console:passkeys.title')} action={action || undefined}>
      <p className={styles.text}>{t(supported ? 'console:passkeys.text' : 'console:passkeys.unsupported')}</p>
      {list.failed ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : !list.data ? (
        <p className={ui.empty}>{t('console:loading')}</p>
      ) : list.data.length === 0 ? (
        <p className={ui.empty}>{t('console:passkeys.empty')}</p>
      ) : (
        <ul className={ui.list}>
          {list.data.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onEdit={setEditing} />
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {editing?.kind === 'add' && <AddPasskeyDialog onOpenChange={close} onSaved={list.reload} />}
        {editing?.kind === 'rename' && <RenamePasskeyDialog passkey={editing.passkey} onOpenChange={close} onSaved={list.reload} />}
        {editing?.kind === 'remove' && (
          <ConfirmDialog
            open
            onOpenChange={close}
            title={t('console:passkeys.removeTitle')}
            question={t('console:passkeys.removeQuestion', { name: editing.passkey.name })}
            confirmLabel={t('console:passkeys.remove')}
            onConfirm={() => remove(editing.passkey)}
          />
        )}
      </Suspense>
    </Card>
  );
}
