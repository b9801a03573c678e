// Apps (operate/app): the apps I may manage, paged and searched by name on the server; platform
// administrators create and delete apps, everyone here opens an app's details.
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import * as appApi from '../../../core/api/apps';
import type { App } from '../../../core/api/apps';
import { Status } from '../../../core/enums';
import { notifySuccess } from '../../../core/messages';
import { useNavigate } from '../../app/router';
import { useT } from '../../i18n';
import { safeLink } from '../../widgets/links';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { SearchBar } from '../../widgets/admin/SearchBar';
import { useAdminScope } from '../../widgets/admin/scope';
import { usePagedList } from '../../widgets/admin/usePagedList';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';
import { appDetailPath } from './paths';

const AppDialog = lazy(() => import('./AppDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

type Query = { page: number; size: number; searchValue?: string };
type Open = { kind: 'create' } | { kind: 'delete'; app: App };

export default function AppListScreen() {
  const t = useT();
  // Permission.Operations opens this page too, but only app administrators (Permission.Apps) have apps here.
  if (!useAdminScope().may('1')) {
    return (
      <AdminPage title="route.app">
        <p className={ui.empty}>{t('admin:app.noneAdministered')}</p>
      </AdminPage>
    );
  }
  return <AppList />;
}

function AppList() {
  const t = useT();
  const scope = useAdminScope();
  const navigate = useNavigate();
  const list = usePagedList<App, Query>(appApi.list, {});
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);

  const remove = async (app: App) => {
    try {
      await appApi.remove(app.id);
    } catch {
      return; // shown by the HTTP client
    }
    notifySuccess(t('admin:done.appDeleted', { name: app.name }));
    list.reload();
  };

  const columns: Column<App>[] = [
    {
      id: 'name',
      header: t('admin:app.name'),
      cell: (app) => (
        <Link href={appDetailPath(app.id)} className={ui.link}>
          {app.name}
        </Link>
      ),
    },
    { id: 'detail', header: t('admin:app.detail'), wrap: true, cell: (app) => app.detail ?? '—' },
    {
      id: 'entrypoint',
      header: t('admin:app.entrypoint'),
      cell: (app) => {
        const href = safeLink(app.entrypoint ?? undefined);
        return href ? (
          <a className={ui.link} href={href} target="_blank" rel="noopener noreferrer">
            {app.entrypoint}
          </a>
        ) : (
          (app.entrypoint ?? '—')
        );
      },
    },
    { id: 'master', header: t('admin:app.master'), cell: (app) => (app.isMaster ? <span className={ui.badge}>{t('admin:app.masterYes')}</span> : '—') },
    { id: 'status', header: t('admin:user.status'), cell: (app) => t(app.status === Status.Enable ? 'admin:status.enabled' : 'admin:status.disabled') },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (app) => (
        <>
          <Link
            href={appDetailPath(app.id)}
            className={`${ui.button.ghost} ${styles.small}`}
            aria-label={t('admin:action.of', { action: t('admin:app.open'), name: app.name })}
          >
            {t('admin:app.open')}
          </Link>
          {scope.platform && (
            <button
              type="button"
              className={`${ui.button.ghost} ${styles.small}`}
              aria-label={t('admin:action.of', { action: t('admin:action.delete'), name: app.name })}
              onClick={() => setOpen({ kind: 'delete', app })}
            >
              {t('admin:action.delete')}
            </button>
          )}
        </>
      ),
    },
  ];

  return (
    <AdminPage
      title="route.app"
      actions={
        scope.platform && (
          <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
            {t('admin:app.create')}
          </button>
        )
      }
    >
      <div className={styles.toolbar}>
        <SearchBar fields={[{ value: 'name', label: t('admin:app.name') }]} onSearch={(_field, searchValue) => list.refine({ searchValue })} />
      </div>
      <DataTable
        caption={t('route.app')}
        columns={columns}
        rows={list.data?.list}
        rowKey={(app) => app.id}
        loading={list.loading}
        failed={list.failed && !list.data}
        onRetry={list.reload}
        emptyText={t(list.query.searchValue ? 'admin:app.noMatch' : 'admin:app.empty')}
      />
      {list.data && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}
      <Suspense fallback={null}>
        {open?.kind === 'create' && <AppDialog onClose={close} onSaved={(app) => navigate(appDetailPath(app.id))} />}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:app.deleteTitle')}
            question={t('admin:app.deleteQuestion', { name: open.app.name })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={() => remove(open.app)}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
