// The privilege tree editor: the tree (name and key), the chosen node's fields, add a top-level
// node or a child, edit, move up/down among its siblings, delete (with its subtree).
import { lazy, Suspense, useState } from 'react';
import * as appApi from '../../../core/api/apps';
import type { Privilege } from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { TreeView } from '../../widgets/admin/TreeView';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

const PrivilegeDialog = lazy(() => import('./PrivilegeDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

type Open = { kind: 'create'; parent?: Privilege } | { kind: 'edit' | 'delete'; node: Privilege };

export default function PrivilegesPanel({ appId }: { appId: string }) {
  const t = useT();
  const tree = useResource(() => appApi.privileges(appId), [appId]);
  const [selectedId, setSelectedId] = useState<string>();
  const [open, setOpen] = useState<Open>();
  const nodes = tree.data ?? [];
  const selected = nodes.find((node) => node.id === selectedId);
  const siblings = selected ? nodes.filter((node) => node.parentId === selected.parentId) : [];
  const position = selected ? siblings.indexOf(selected) : -1;
  const close = () => setOpen(undefined);
  const named = (action: 'addChild' | 'edit' | 'up' | 'down' | 'delete', node: Privilege) =>
    t('admin:action.of', { action: t(`admin:privilege.${action}`), name: node.name });

  const run = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
    } catch {
      return false; // shown by the HTTP client
    }
    notifySuccess(done);
    tree.reload();
    return true;
  };
  const shift = (step: -1 | 1) => {
    if (!selected) return;
    const order = siblings.map((node) => node.id);
    const [moved] = order.splice(position, 1);
    if (!moved) return;
    order.splice(position + step, 0, moved);
    void run(() => appApi.orderPrivileges(appId, selected.parentId, order), t('admin:done.privilegesOrdered'));
  };

  return (
    <div className={styles.stack}>
      <div className={styles.inline}>
        <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
          {t('admin:privilege.addTop')}
        </button>
      </div>
      <div className={styles.split}>
        <div>
          {!tree.data ? (
            <p role="status">{t(tree.failed ? 'admin:table.failed' : 'console:loading')}</p>
          ) : !nodes.length ? (
            <p className={ui.empty}>{t('admin:privilege.empty')}</p>
          ) : (
            <TreeView
              label={t('admin:privilege.tree')}
              nodes={nodes}
              selectedId={selectedId}
              onSelect={(node) => setSelectedId(node.id)}
              initiallyOpen={() => true}
              renderLabel={(node) => (
                <>
                  {node.name}
                  <span className={styles.tag}>{node.key}</span>
                </>
              )}
            />
          )}
        </div>
        {selected ? (
          <section className={ui.card} aria-labelledby="iam-privilege-name">
            <h3 id="iam-privilege-name" className={styles.panelTitle}>
              {selected.name}
            </h3>
            <dl className={`${styles.formGrid} ${styles.details}`}>
              <div>
                <dt className={styles.controlLabel}>{t('admin:privilege.key')}</dt>
                <dd>{selected.key}</dd>
              </div>
              <div>
                <dt className={styles.controlLabel}>{t('admin:privilege.path')}</dt>
                <dd>{selected.path || '—'}</dd>
              </div>
              <div>
                <dt className={styles.controlLabel}>{t('admin:privilege.parent')}</dt>
                <dd>{nodes.find((node) => node.id === selected.parentId)?.name ?? '—'}</dd>
              </div>
              <div>
                <dt className={styles.controlLabel}>{t('admin:privilege.sort')}</dt>
                <dd>{selected.sort}</dd>
              </div>
            </dl>
            <div className={ui.actions}>
              <button
                type="button"
                className={ui.button.secondary}
                aria-label={named('addChild', selected)}
                onClick={() => setOpen({ kind: 'create', parent: selected })}
              >
                {t('admin:privilege.addChild')}
              </button>
              <button
                type="button"
                className={ui.button.secondary}
                aria-label={named('edit', selected)}
                onClick={() => setOpen({ kind: 'edit', node: selected })}
              >
                {t('admin:privilege.edit')}
              </button>
              <button type="button" className={ui.button.secondary} aria-label={named('up', selected)} disabled={position <= 0} onClick={() => shift(-1)}>
                {t('admin:privilege.up')}
              </button>
              <button
                type="button"
                className={ui.button.secondary}
                aria-label={named('down', selected)}
                disabled={position < 0 || position >= siblings.length - 1}
                onClick={() => shift(1)}
              >
                {t('admin:privilege.down')}
              </button>
              <button
                type="button"
                className={ui.button.danger}
                aria-label={named('delete', selected)}
                onClick={() => setOpen({ kind: 'delete', node: selected })}
              >
                {t('admin:privilege.delete')}
              </button>
            </div>
          </section>
        ) : (
          nodes.length > 0 && <p className={ui.muted}>{t('admin:privilege.choose')}</p>
        )}
      </div>
      <Suspense fallback={null}>
        {open?.kind === 'create' && (
          <PrivilegeDialog
            appId={appId}
            nodes={nodes}
            parentId={open.parent?.id ?? null}
            onClose={close}
            onSaved={(node) => {
              setSelectedId(node.id);
              tree.reload();
            }}
          />
        )}
        {open?.kind === 'edit' && <PrivilegeDialog appId={appId} nodes={nodes} node={open.node} onClose={close} onSaved={() => tree.reload()} />}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:privilege.deleteTitle')}
            question={t('admin:privilege.deleteQuestion', { name: open.node.name })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={async () => {
              if (await run(() => appApi.removePrivilege(appId, open.node.id), t('admin:done.privilegeDeleted', { name: open.node.name })))
                setSelectedId(undefined);
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
