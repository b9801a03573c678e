// operate/webhooks: the outbound webhook endpoints of my scope (a tenant administrator: their
// subtree's tenants') with create/edit, send test, the delivery log, a new signing secret (shown
// once) and delete.
import { lazy, Suspense, useMemo, useState } from 'react';
import * as webhooks from '../../../core/api/webhooks';
import * as tenantApi from '../../../core/api/tenants';
import { HttpError } from '../../../core/http';
import { notifyError, notifySuccess } from '../../../core/messages';
import type { Webhook } from '../../../core/schemas/webhooks';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT, useTexts } from '../../i18n';
import { SecretValue } from '../../widgets/SecretValue';
import { AdminPage } from '../../widgets/admin/AdminPage';
import type { Column } from '../../widgets/admin/DataTable';
import { PagedTable } from '../../widgets/admin/PagedTable';
import { RowActions } from '../../widgets/admin/RowActions';
import { usePagedList } from '../../widgets/admin/usePagedList';
import { useAdminScope } from '../../widgets/admin/scope';
import { useResource } from '../../widgets/useResource';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';
import { deliveryErrorText } from '../../widgets/messageTexts';
import { eventName } from './texts';
import * as styles from './webhooks.css';

const WebhookDialog = lazy(() => import('./WebhookDialog'));
const DeliveriesDialog = lazy(() => import('./DeliveriesDialog'));

type Open = { kind: 'create' } | { kind: 'edit' | 'deliveries'; webhook: Webhook } | { kind: 'secret'; webhook: Webhook; secret: string };

export default function WebhooksScreen({ route }: ScreenProps) {
  const t = useT();
  const ready = useTexts(undefined, 'webhooks', 'admin');
  const scope = useAdminScope();
  const list = usePagedList<Webhook, { page: number; size: number }>(({ page, size }) => webhooks.list(page, size), {});
  const tree = useResource(tenantApi.tree, []);
  const tenantNames = useMemo(() => new Map(tree.data?.map((tenant) => [tenant.id, tenant.name])), [tree.data]);
  const [open, setOpen] = useState<Open>();
  const close = () => setOpen(undefined);

  const sendTest = async (webhook: Webhook) => {
    let delivery;
    try {
      delivery = await webhooks.sendTest(webhook.id);
    } catch {
      return; // the HTTP client has shown why
    }
    const last = delivery.attemptLog[delivery.attemptLog.length - 1];
    if (delivery.status === 'delivered') notifySuccess(t('webhooks:testDelivered', { status: last?.statusCode ?? '' }));
    else notifyError(t('webhooks:testFailed', { error: (last && deliveryErrorText(t, last)) ?? '' }));
  };
  const rotate = async (webhook: Webhook) => {
    const { secret } = await webhooks.rotateSecret(webhook.id);
    list.reload();
    setOpen({ kind: 'secret', webhook, secret });
  };
  const remove = async (webhook: Webhook) => {
    try {
      await webhooks.remove(webhook.id);
    } catch (error) {
      if (error instanceof HttpError) return;
      throw error;
    }
    notifySuccess(t('webhooks:deletedNotice', { url: webhook.url }));
    list.reload();
  };

  const columns: Column<Webhook>[] = [
    { id: 'url', header: t('webhooks:url'), wrap: true, cell: (row) => <span className={styles.url}>{row.url}</span> },
    { id: 'description', header: t('webhooks:description'), wrap: true, cell: (row) => row.description || '—' },
    {
      id: 'events',
      header: t('webhooks:events'),
      cell: (row) => (
        <span title={row.events.map((event) => eventName(t, event)).join(', ')}>
          {row.events.length > 2 ? t('webhooks:eventCount', { count: row.events.length }) : row.events.map((event) => eventName(t, event)).join(', ')}
        </span>
      ),
    },
    { id: 'tenant', header: t('webhooks:tenant'), cell: (row) => (row.tenantId ? (tenantNames.get(row.tenantId) ?? '—') : t('webhooks:platformWide')) },
    {
      id: 'state',
      header: t('webhooks:state'),
      cell: (row) => <span className={table.status[row.enabled ? 'enabled' : 'disabled']}>{t(row.enabled ? 'webhooks:on' : 'webhooks:off')}</span>,
    },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (row) => (
        <RowActions
          actions={[
            { key: 'test', label: t('webhooks:test'), name: t('webhooks:testOf', { url: row.url }), onSelect: () => sendTest(row) },
            {
              key: 'deliveries',
              label: t('webhooks:deliveries'),
              name: t('webhooks:deliveriesOf', { url: row.url }),
              onSelect: () => setOpen({ kind: 'deliveries', webhook: row }),
            },
            { key: 'edit', label: t('webhooks:edit'), name: t('webhooks:editOf', { url: row.url }), onSelect: () => setOpen({ kind: 'edit', webhook: row }) },
          ]}
          more={{
            label: t('webhooks:more', { url: row.url }),
            actions: [
              {
                key: 'rotate',
                label: t('webhooks:rotate'),
                confirm: { title: t('webhooks:rotate'), question: t('webhooks:rotateQuestion', { url: row.url }) },
                onSelect: () => rotate(row),
              },
              {
                key: 'delete',
                label: t('webhooks:delete'),
                danger: true,
                confirm: { title: t('webhooks:deleteTitle'), question: t('webhooks:deleteQuestion', { url: row.url }), confirmLabel: t('webhooks:delete') },
                onSelect: () => remove(row),
              },
            ],
          }}
        />
      ),
    },
  ];

  return (
    <AdminPage
      title={route.name}
      actions={
        ready && (
          <button type="button" className={ui.button.primary} onClick={() => setOpen({ kind: 'create' })}>
            {t('webhooks:create')}
          </button>
        )
      }
    >
      {ready && (
        <PagedTable list={list} caption={t(route.name)} columns={columns} rowKey={(row) => row.id} emptyText={t('webhooks:empty')} stackOnPhone stickyActions />
      )}
      <Suspense fallback={null}>
        {open?.kind === 'create' && <WebhookDialog tenants={tree.data ?? []} platform={scope.platform} onClose={close} onSaved={list.reload} />}
        {open?.kind === 'edit' && (
          <WebhookDialog webhook={open.webhook} tenants={tree.data ?? []} platform={scope.platform} onClose={close} onSaved={list.reload} />
        )}
        {open?.kind === 'deliveries' && <DeliveriesDialog webhook={open.webhook} onClose={close} />}
        {open?.kind === 'secret' && (
          <DialogFrame open onOpenChange={(still) => !still && close()} title={t('webhooks:secretTitle')}>
            <SecretValue label={t('webhooks:secretLabel', { url: open.webhook.url })} value={open.secret} warning={t('webhooks:secretWarning')} />
            <div className={ui.actions}>
              <button type="button" className={ui.button.primary} onClick={close}>
                {t('webhooks:done')}
              </button>
            </div>
          </DialogFrame>
        )}
      </Suspense>
    </AdminPage>
  );
}
