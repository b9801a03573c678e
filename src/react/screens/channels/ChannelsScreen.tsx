// operate/tunnel: the message channels (SMS, EMAIL, DING_TALK, QYWX_WEBHOOK, SITE_MESSAGE) with
// create/edit (write-only secrets), send test and delete, and the delivery log below.
import { lazy, Suspense, useState } from 'react';
import * as channels from '../../../core/api/channels';
import { notifySuccess } from '../../../core/messages';
import type { Channel, Delivery } from '../../../core/schemas/messaging';
import { useT, useTexts } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import type { Column } from '../../widgets/admin/DataTable';
import { PagedTable } from '../../widgets/admin/PagedTable';
import { RowActions } from '../../widgets/admin/RowActions';
import * as table from '../../widgets/admin/admin.css';
import { usePagedList } from '../../widgets/admin/usePagedList';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';
import { DeliveryLog, type DeliveryQuery } from './DeliveryLog';

const ChannelDialog = lazy(() => import('./ChannelDialog'));
const TestDialog = lazy(() => import('./TestDialog'));

type Editing = { channel?: Channel } | undefined;

export default function ChannelsScreen({ route }: ScreenProps) {
  const t = useT();
  const ready = useTexts(undefined, 'settings', 'admin');
  const list = usePagedList<Channel, { page: number; size: number }>(({ page, size }) => channels.list(page, size), {});
  const log = usePagedList<Delivery, DeliveryQuery>(channels.deliveries, {});
  const [editing, setEditing] = useState<Editing>();
  const [testing, setTesting] = useState<Channel>();

  const columns: Column<Channel>[] = [
    { id: 'name', header: t('settings:channel.name'), cell: (row) => row.name },
    { id: 'type', header: t('settings:channel.serviceType'), cell: (row) => t(`settings:serviceType.${row.serviceType}`) },
    { id: 'vendor', header: t('settings:channel.vendor'), cell: (row) => row.vendor },
    {
      id: 'enabled',
      header: t('settings:channel.state'),
      cell: (row) => (
        <span className={table.status[row.enabled ? 'enabled' : 'disabled']}>{t(row.enabled ? 'settings:channel.on' : 'settings:channel.off')}</span>
      ),
    },
    {
      id: 'actions',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (row) => (
        <RowActions
          actions={[
            { key: 'test', label: t('settings:channel.test'), name: t('settings:channel.testOf', { name: row.name }), onSelect: () => setTesting(row) },
            {
              key: 'edit',
              label: t('settings:channel.editShort'),
              name: t('settings:channel.editOf', { name: row.name }),
              onSelect: () => setEditing({ channel: row }),
            },
            {
              key: 'delete',
              label: t('settings:channel.delete'),
              name: t('settings:channel.deleteOf', { name: row.name }),
              confirm: { title: t('settings:channel.delete'), question: t('settings:channel.deleteQuestion', { name: row.name }) },
              onSelect: () => remove(row),
            },
          ]}
        />
      ),
    },
  ];

  const remove = async (channel: Channel) => {
    await channels.remove(channel.id);
    notifySuccess(t('settings:done.channelDeleted', { name: channel.name }));
    list.reload();
  };

  return (
    <AdminPage
      title={route.name}
      actions={
        ready && (
          <button type="button" className={ui.button.primary} onClick={() => setEditing({})}>
            {t('settings:channel.create')}
          </button>
        )
      }
    >
      {ready && (
        <>
          <PagedTable list={list} caption={t(route.name)} columns={columns} rowKey={(row) => row.id} emptyText={t('settings:channel.empty')} stackOnPhone />
          <DeliveryLog log={log} channelList={list.data?.list ?? []} />
        </>
      )}
      <Suspense fallback={null}>
        {editing && <ChannelDialog open onOpenChange={(open) => !open && setEditing(undefined)} channel={editing.channel} onSaved={list.reload} />}
        {testing && <TestDialog channel={testing} onOpenChange={(open) => !open && setTesting(undefined)} onSent={log.reload} />}
      </Suspense>
    </AdminPage>
  );
}
