// The user list's bulk actions: with some users selected, enable, disable, unlock or delete them
// after one question naming them all; the server judges each user on its own, and the outcome per
// user is shown in a dialog (done, or why not).
import { lazy, Suspense, useState } from 'react';
import { bulkUsers, type AdminUser, type BulkUserResult } from '../../../core/api/user-admin';
import { bulkUserActions, type BulkUserAction } from '../../../core/schemas/user-bulk';
import { useT } from '../../i18n';
import { DialogFrame } from '../../dialogs/DialogFrame';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

export function BulkActions({ selected, onClear, onDone }: { selected: readonly AdminUser[]; onClear: () => void; onDone: () => void }) {
  const t = useT();
  const [asking, setAsking] = useState<BulkUserAction>();
  const [outcome, setOutcome] = useState<{ action: BulkUserAction; users: readonly AdminUser[]; results: BulkUserResult[] }>();
  const names = selected.map((user) => user.username).join(', ');

  const run = async (action: BulkUserAction) => {
    const users = [...selected];
    let results: BulkUserResult[];
    try {
      results = await bulkUsers(
        action,
        users.map((user) => user.id),
      );
    } catch {
      return; // the HTTP client has shown why
    }
    setOutcome({ action, users, results });
    onDone();
  };

  return (
    <>
      {selected.length > 0 && (
        <div className={styles.toolbar} role="group" aria-label={t('admin:bulk.label')}>
          <span role="status">{t('admin:bulk.selected', { count: selected.length })}</span>
          {bulkUserActions.map((action) => (
            <button key={action} type="button" className={action === 'delete' ? ui.button.danger : ui.button.secondary} onClick={() => setAsking(action)}>
              {t(`admin:bulk.action.${action}`)}
            </button>
          ))}
          <button type="button" className={ui.button.ghost} onClick={onClear}>
            {t('admin:bulk.clear')}
          </button>
        </div>
      )}
      <Suspense fallback={null}>
        {asking && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && setAsking(undefined)}
            title={t(`admin:bulk.title.${asking}`, { count: selected.length })}
            question={t(`admin:bulk.question.${asking}`, { count: selected.length, names })}
            confirmLabel={t(`admin:bulk.action.${asking}`)}
            onConfirm={() => run(asking)}
          />
        )}
      </Suspense>
      {outcome && (
        <DialogFrame
          open
          onOpenChange={(open) => !open && setOutcome(undefined)}
          title={t(`admin:bulk.title.${outcome.action}`, { count: outcome.users.length })}
        >
          <p>{t('admin:bulk.summary', { done: outcome.results.filter((result) => result.ok).length, count: outcome.results.length })}</p>
          <ul className={ui.list} aria-label={t('admin:bulk.results')}>
            {outcome.results.map((result) => (
              <li key={result.id} className={ui.listItem}>
                <span>
                  <strong>{outcome.users.find((user) => user.id === result.id)?.username ?? result.id}</strong>
                  {': '}
                  <span className={result.ok ? styles.status.enabled : styles.status.disabled}>
                    {result.ok ? t('admin:bulk.done') : t('admin:bulk.notDone')}
                  </span>
                  {!result.ok && <span className={ui.muted}> {result.message}</span>}
                </span>
              </li>
            ))}
          </ul>
          <div className={ui.actions}>
            <button type="button" className={ui.button.primary} onClick={() => setOutcome(undefined)}>
              {t('console:action.close')}
            </button>
          </div>
        </DialogFrame>
      )}
    </>
  );
}
