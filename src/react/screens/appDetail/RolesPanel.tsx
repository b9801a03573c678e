// The app's roles, paged and searched by name on the server; create, edit (privileges from the
// tree, members) and delete.
import { lazy, Suspense, useState } from 'react';
import * as appApi from '../../../core/api/apps';
import type { Role } from '../../../core/api/apps';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { SearchBar } from '../../widgets/admin/SearchBar';
import { usePagedList } from '../../widgets/admin/usePagedList';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

const RoleDialog = lazy(() => import('./RoleDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

type Query = { page: number; size: number; searchValue?: string };
type Open = { kind: 'create' } | { kind: 'edit' | 'delete'; role: Role };

export default function RolesPanel({ appId }: { appId: string }) {
  const t = useT();
  const list = usePagedList<Role, Query>((query) => appApi.roles(appId, query), {});
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);
  const named = (action: 'edit' | 'delete', role: Role) => t('admin:action.of', { action: t(`admin:action.${action}`), name: role.name });

  const remove = async (role: Role) => {
    try {
      await appApi.removeRole(appId, role.id);
    } catch {
      return;
    }
    notifySuccess(t('admin:done.roleDeleted', { name: role.name }));
    list.reload();
  };

  const columns: Column<Role>[] = [
    { id: 'name', header: t('admin:role.name'), cell: (role) => role.name },
    { id: 'description', header: t('admin:role.description'), wrap: true, cell: (role) => role.description ?? '—' },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (role) => (
        <>
          <button
            type="button"
            className={`${ui.button.ghost} ${styles.small}`}
            aria-label={named('edit', role)}
            onClick={() => setOpen({ kind: 'edit', role })}
          >
            {t('admin:action.edit')}
          </button>
          <button
            type="button"
            className={`${ui.button.ghost} ${styles.small}`}
            aria-label={named('delete', role)}
            onClick={() => setOpen({ kind: 'delete', role })}
          >
            {t('admin:action.delete')}
          </button>
        </>
      ),
    },
  ];

  return (
    <div className={styles.stack}>
      <div className={`${styles.toolbar} ${styles.header}`}>
        <SearchBar fields={[{ value: 'name', label: t('admin:role.name') }]} onSearch={(_field, searchValue) => list.refine({ searchValue })} />
        <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
          {t('admin:role.create')}
        </button>
      </div>
      <DataTable
        caption={t('admin:app.tab.roles')}
        columns={columns}
        rows={list.data?.list}
        rowKey={(role) => role.id}
        loading={list.loading}
        failed={list.failed && !list.data}
        onRetry={list.reload}
        emptyText={t(list.query.searchValue ? 'admin:role.noMatch' : 'admin:role.empty')}
      />
      {list.data && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}
      <Suspense fallback={null}>
        {open?.kind === 'create' && <RoleDialog appId={appId} onClose={close} onSaved={list.reload} />}
        {open?.kind === 'edit' && <RoleDialog appId={appId} role={open.role} onClose={close} onSaved={list.reload} />}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:role.deleteTitle')}
            question={t('admin:role.deleteQuestion', { name: open.role.name })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={() => remove(open.role)}
          />
        )}
      </Suspense>
    </div>
  );
}
