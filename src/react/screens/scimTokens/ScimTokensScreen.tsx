// Provisioning (SCIM) (operate/scim): the SCIM tokens of the tenants of my scope — their tenant,
// when made and last used, active or revoked — with create (the secret and the tenant URL shown
// once) and revoke. The protocol itself and how to connect Entra ID or Okta: docs/scim.md.
import { lazy, Suspense, useState } from 'react';
import * as scimApi from '../../../core/api/scim-tokens';
import type { ScimToken, ScimTokenCreated } from '../../../core/api/scim-tokens';
import { formatDate } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { usePagedList, type PageQuery } from '../../widgets/admin/usePagedList';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';

const TokenDialog = lazy(() => import('./TokenDialog'));
const CreatedDialog = lazy(() => import('./CreatedDialog'));
const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

export default function ScimTokensScreen({ route }: ScreenProps) {
  const t = useT();
  const list = usePagedList<ScimToken, PageQuery>(scimApi.list, {});
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ScimTokenCreated>();
  const [revoking, setRevoking] = useState<ScimToken>();

  const columns: Column<ScimToken>[] = [
    { id: 'name', header: t('admin:scim.name'), cell: (token) => token.name },
    { id: 'tenant', header: t('admin:scim.tenant'), cell: (token) => token.tenantName },
    { id: 'created', header: t('admin:scim.created'), cell: (token) => formatDate(token.createdAt) },
    { id: 'lastUsed', header: t('admin:scim.lastUsed'), cell: (token) => (token.lastUsedAt ? formatDate(token.lastUsedAt) : t('admin:scim.never')) },
    {
      id: 'status',
      header: t('admin:scim.status'),
      cell: (token) => (
        <span className={table.status[token.revokedAt ? 'disabled' : 'enabled']}>{t(token.revokedAt ? 'admin:scim.revoked' : 'admin:scim.active')}</span>
      ),
    },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (token) =>
        !token.revokedAt && (
          <button
            type="button"
            className={`${ui.button.ghost} ${table.small}`}
            aria-label={t('admin:scim.revokeOf', { name: token.name })}
            onClick={() => setRevoking(token)}
          >
            {t('admin:scim.revoke')}
          </button>
        ),
    },
  ];

  const revoke = async (token: ScimToken) => {
    await scimApi.revoke(token.id);
    notifySuccess(t('admin:done.scimTokenRevoked', { name: token.name }));
    list.reload();
  };

  return (
    <AdminPage
      title={route.name}
      actions={
        <button type="button" className={ui.button.primary} onClick={() => setCreating(true)}>
          {t('admin:scim.create')}
        </button>
      }
    >
      <p className={`${ui.hint} ${table.toolbar}`}>{t('admin:scim.intro')}</p>
      <DataTable
        caption={t(route.name)}
        columns={columns}
        rows={list.data?.list}
        rowKey={(token) => token.id}
        loading={list.loading}
        failed={list.failed}
        onRetry={list.reload}
        emptyText={t('admin:scim.empty')}
        stackOnPhone
      />
      {list.data && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}
      <Suspense fallback={null}>
        {creating && (
          <TokenDialog
            onClose={() => setCreating(false)}
            onCreated={(answer) => {
              setCreated(answer);
              list.reload();
            }}
          />
        )}
        {created && <CreatedDialog created={created} onClose={() => setCreated(undefined)} />}
        {revoking && (
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && setRevoking(undefined)}
            title={t('admin:scim.revokeOf', { name: revoking.name })}
            question={t('admin:scim.revokeQuestion', { name: revoking.name })}
            confirmLabel={t('admin:scim.revoke')}
            onConfirm={() => revoke(revoking)}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
