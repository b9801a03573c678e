// Tenants (operate/tenant/list): the tenant tree of my scope with the type labels; the chosen
// tenant's details, its sub-tenant creation, rename, move, delete (refused with a clear message
// while it has sub-tenants or users) and its administrators.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import * as tenantApi from '../../../core/api/tenants';
import type { Tenant } from '../../../core/api/tenants';
import { HttpError, showInline } from '../../../core/http';
import { notifyError, notifySuccess } from '../../../core/messages';
import { formatDate } from '../../../core/format';
import { TenantType } from '../../../core/enums';
import { RECORD_PARAM } from '../../../core/routes';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { SearchBar } from '../../widgets/admin/SearchBar';
import { TreeView } from '../../widgets/admin/TreeView';
import { useAdminScope } from '../../widgets/admin/scope';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';
import { Tabs } from '../../widgets/admin/Tabs';
import { TenantAdmins } from './TenantAdmins';

const TenantDialog = lazy(() => import('./TenantDialog'));
const MoveDialog = lazy(() => import('./MoveDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));
const DirectoryPanel = lazy(() => import('./DirectoryPanel'));

type Section = 'admins' | 'directory';

type Open = { kind: 'create' | 'edit' | 'move' | 'delete'; tenant: Tenant };
const MAX_MATCHES = 20;

export default function TenantListScreen() {
  const t = useT();
  const scope = useAdminScope();
  const tree = useResource(tenantApi.tree, []);
  // `?tenant=<id>` (the audit log's links) chooses that tenant.
  const linkedId = new URLSearchParams(useSearch()).get(RECORD_PARAM.tenant) ?? undefined;
  const [selectedId, setSelectedId] = useState<string | undefined>(linkedId);
  useEffect(() => {
    if (linkedId) setSelectedId(linkedId);
  }, [linkedId]);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Open>();
  const [section, setSection] = useState<Section>('admins');
  const tenants = useMemo(() => tree.data ?? [], [tree.data]);
  const selected = tenants.find((tenant) => tenant.id === selectedId) ?? tenants[0];
  const linkedGone = Boolean(linkedId && tree.data && !tenants.some((tenant) => tenant.id === linkedId));
  const matches = useMemo(() => {
    const wanted = search.toLowerCase();
    return wanted ? tenants.filter((tenant) => tenant.name.toLowerCase().includes(wanted)).slice(0, MAX_MATCHES) : [];
  }, [tenants, search]);
  const typeLabel = (tenant: Tenant) => {
    const known = Object.values(TenantType).find((type) => type === tenant.type);
    return known ? t(`tenantType.${known}`) : tenant.type;
  };
  // The root and the administrator's own tenant stay where they are.
  const fixed = (tenant: Tenant) => !tenant.parentId || (scope.tenantAdmin && tenant.id === scope.tenantId);

  const remove = async (tenant: Tenant) => {
    try {
      await tenantApi.remove(tenant.id);
    } catch (error) {
      // A tenant that still holds something: say what to do instead of the server's words (once).
      if (error instanceof HttpError && error.status === 409) {
        showInline(error);
        notifyError(t('admin:tenant.notEmpty', { name: tenant.name }));
      }
      return;
    }
    notifySuccess(t('admin:done.tenantDeleted', { name: tenant.name }));
    setSelectedId(tenant.parentId ?? undefined);
    tree.reload();
  };
  const saved = (tenant: Tenant) => {
    setSelectedId(tenant.id);
    tree.reload();
  };
  const close = () => setOpen(undefined);
  const named = (action: 'addChild' | 'edit' | 'move' | 'delete') => t('admin:action.of', { action: t(`admin:tenant.${action}`), name: selected?.name ?? '' });

  return (
    <AdminPage title="route.tenant">
      <div className={styles.toolbar}>
        <SearchBar fields={[{ value: 'name', label: t('admin:tenant.name') }]} onSearch={(_field, text) => setSearch(text)} />
      </div>
      {matches.length > 0 && (
        <ul className={`${styles.options} ${styles.toolbar}`} aria-label={t('admin:tenant.matches')}>
          {matches.map((tenant) => (
            <li key={tenant.id}>
              <button type="button" className={ui.button.ghost} onClick={() => setSelectedId(tenant.id)}>
                {tenant.name} <span className={styles.tag}>{typeLabel(tenant)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {search && !matches.length && tree.data && <p className={ui.empty}>{t('admin:tenant.noMatch')}</p>}
      {linkedGone && (
        <p role="status" className={ui.empty}>
          {t('admin:recordLinks.tenantGone')}
        </p>
      )}
      <div className={styles.split}>
        <section className={ui.card} aria-labelledby="iam-tenant-tree">
          <h2 id="iam-tenant-tree" className={styles.panelTitle}>
            {t('admin:tenant.tree')}
          </h2>
          {tree.failed && !tree.data ? (
            <p role="alert">
              {t('admin:table.failed')}{' '}
              <button type="button" className={ui.button.ghost} onClick={tree.reload}>
                {t('console:status.retry')}
              </button>
            </p>
          ) : !tree.data ? (
            <p role="status">{t('console:loading')}</p>
          ) : (
            <TreeView
              label={t('admin:tenant.tree')}
              nodes={tenants}
              selectedId={selected?.id}
              onSelect={(tenant) => setSelectedId(tenant.id)}
              renderLabel={(tenant) => (
                <>
                  {tenant.name}
                  <span className={styles.tag}>{typeLabel(tenant)}</span>
                </>
              )}
            />
          )}
        </section>
        {selected && (
          <div className={styles.stack}>
            <section className={ui.card} aria-labelledby="iam-tenant-details">
              <div className={ui.cardHeader}>
                <h2 id="iam-tenant-details" className={ui.cardTitle}>
                  {selected.name}
                </h2>
                <span className={ui.badge}>{typeLabel(selected)}</span>
              </div>
              <dl className={`${styles.stack} ${styles.details}`}>
                <div>
                  <dt className={styles.controlLabel}>{t('admin:tenant.description')}</dt>
                  <dd>{selected.description || '—'}</dd>
                </div>
                <div>
                  <dt className={styles.controlLabel}>{t('admin:tenant.parent')}</dt>
                  <dd>{tenants.find((tenant) => tenant.id === selected.parentId)?.name ?? '—'}</dd>
                </div>
                <div>
                  <dt className={styles.controlLabel}>{t('admin:tenant.createdAt')}</dt>
                  <dd>{formatDate(selected.createdAt)}</dd>
                </div>
              </dl>
              <div className={ui.actions}>
                <button
                  type="button"
                  className={ui.button.primary}
                  aria-label={named('addChild')}
                  onClick={() => setOpen({ kind: 'create', tenant: selected })}
                >
                  {t('admin:tenant.addChild')}
                </button>
                {selected.parentId && (
                  <button type="button" className={ui.button.secondary} aria-label={named('edit')} onClick={() => setOpen({ kind: 'edit', tenant: selected })}>
                    {t('admin:tenant.edit')}
                  </button>
                )}
                {!fixed(selected) && (
                  <>
                    <button
                      type="button"
                      className={ui.button.secondary}
                      aria-label={named('move')}
                      onClick={() => setOpen({ kind: 'move', tenant: selected })}
                    >
                      {t('admin:tenant.move')}
                    </button>
                    <button
                      type="button"
                      className={ui.button.danger}
                      aria-label={named('delete')}
                      onClick={() => setOpen({ kind: 'delete', tenant: selected })}
                    >
                      {t('admin:tenant.delete')}
                    </button>
                  </>
                )}
              </div>
            </section>
            <Tabs
              label={t('admin:directory.tabs')}
              tabs={[
                { key: 'admins', label: t('admin:directory.admins') },
                { key: 'directory', label: t('admin:directory.tab') },
              ]}
              selected={section}
              onSelect={setSection}
            >
              {section === 'admins' ? (
                <TenantAdmins key={selected.id} tenant={selected} />
              ) : (
                <Suspense fallback={<p role="status">{t('console:loading')}</p>}>
                  <DirectoryPanel key={selected.id} tenant={selected} />
                </Suspense>
              )}
            </Tabs>
          </div>
        )}
      </div>

      <Suspense fallback={null}>
        {open?.kind === 'create' && <TenantDialog parent={open.tenant} onClose={close} onSaved={saved} />}
        {open?.kind === 'edit' && <TenantDialog tenant={open.tenant} onClose={close} onSaved={saved} />}
        {open?.kind === 'move' && <MoveDialog tenant={open.tenant} tenants={tenants} onClose={close} onSaved={saved} />}
        {open?.kind === 'delete' && (
          <ConfirmDialog
            open
            onOpenChange={(still) => !still && close()}
            title={t('admin:tenant.deleteTitle')}
            question={t('admin:tenant.deleteQuestion', { name: open.tenant.name })}
            confirmLabel={t('admin:tenant.delete')}
            onConfirm={() => remove(open.tenant)}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
