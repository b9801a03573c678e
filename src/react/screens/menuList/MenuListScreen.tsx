// Menu plans (operate/menu): every app's menu and the global (unify) menu, from the multi-app
// menu list; a platform administrator opens one to edit it, starts a plan for another app, or
// deletes one.
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'wouter';
import * as menuApi from '../../../core/api/menu-plans';
import { GLOBAL_MENU, type AppMenu, type PlanMenuItem } from '../../../core/api/menu-plans';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { SearchBar } from '../../widgets/admin/SearchBar';
import { useAdminScope } from '../../widgets/admin/scope';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';
import { menuDetailPath } from '../../../core/routes';

const NewPlanDialog = lazy(() => import('./NewPlanDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

const countItems = (items: readonly PlanMenuItem[]): number => items.reduce((sum, item) => sum + 1 + countItems(item.children ?? []), 0);

export default function MenuListScreen() {
  const t = useT();
  const scope = useAdminScope();
  const menus = useResource(() => menuApi.appMenuList(), []);
  // The list answers the items the caller may see; the count is of the whole plan.
  const plans = useResource(menuApi.plans, []);
  const itemCounts = useMemo(() => new Map(plans.data?.map((each) => [each.id, countItems(each.items)])), [plans.data]);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<{ kind: 'create' } | { kind: 'delete'; menu: AppMenu }>();
  const close = () => setOpen(undefined);
  const nameOf = (menu: AppMenu) => (menu.appId ? menu.appName : t('admin:menu.global'));
  const rows = useMemo(() => {
    const wanted = search.toLowerCase();
    // The global menu first, then the apps by name (as the server orders them).
    const all = [...(menus.data ?? [])].sort((a, b) => Number(a.appId !== null) - Number(b.appId !== null));
    return wanted ? all.filter((menu) => `${menu.appName} ${menu.planName}`.toLowerCase().includes(wanted)) : all;
  }, [menus.data, search]);

  const remove = async (menu: AppMenu) => {
    try {
      await menuApi.remove(menu.planId);
    } catch {
      return;
    }
    notifySuccess(t('admin:done.menuDeleted', { name: menu.planName }));
    menus.reload();
    plans.reload();
  };

  const columns: Column<AppMenu>[] = [
    {
      id: 'app',
      header: t('admin:menu.app'),
      cell: (menu) => (
        <Link href={menuDetailPath(menu.appId ?? GLOBAL_MENU)} className={ui.link}>
          {nameOf(menu)}
        </Link>
      ),
    },
    { id: 'plan', header: t('admin:menu.planName'), cell: (menu) => menu.planName },
    { id: 'items', header: t('admin:menu.items'), cell: (menu) => itemCounts.get(menu.planId) ?? '…' },
    { id: 'entrypoint', header: t('admin:app.entrypoint'), cell: (menu) => menu.entrypoint ?? '—' },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (menu) => (
        <>
          <Link
            href={menuDetailPath(menu.appId ?? GLOBAL_MENU)}
            className={`${ui.button.ghost} ${styles.small}`}
            aria-label={t('admin:action.of', { action: t('admin:app.open'), name: nameOf(menu) })}
          >
            {t('admin:app.open')}
          </Link>
          {scope.platform && (
            <button
              type="button"
              className={`${ui.button.ghost} ${styles.small}`}
              aria-label={t('admin:action.of', { action: t('admin:action.delete'), name: nameOf(menu) })}
              onClick={() => setOpen({ kind: 'delete', menu })}
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
      title="route.menu"
      actions={
        scope.platform && (
          <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
            {t('admin:menu.create')}
          </button>
        )
      }
    >
      <div className={styles.toolbar}>
        <SearchBar fields={[{ value: 'name', label: t('admin:menu.app') }]} onSearch={(_field, text) => setSearch(text)} />
      </div>
      <DataTable
        caption={t('route.menu')}
        columns={columns}
        rows={menus.data ? rows : undefined}
        rowKey={(menu) => menu.planId}
        loading={menus.loading}
        failed={menus.failed && !menus.data}
        onRetry={menus.reload}
        emptyText={t(search ? 'admin:menu.noMatch' : 'admin:menu.empty')}
      />
      <Suspense fallback={null}>
        {open?.kind === 'create' && <NewPlanDialog planned={(menus.data ?? []).map((menu) => menu.appId)} onClose={close} />}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:menu.deleteTitle')}
            question={t('admin:menu.deleteQuestion', { name: nameOf(open.menu) })}
            confirmLabel={t('admin:action.delete')}
            onConfirm={() => remove(open.menu)}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
