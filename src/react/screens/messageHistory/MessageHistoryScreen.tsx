// profile/messageHis: every message sent to me, newest first: title, sender, service type, vendor, push
// time and status (in-site ones unread/read; email, SMS … queued, sent or failed).
import * as messages from '../../../core/api/messages';
import { formatDate } from '../../../core/format';
import type { Message } from '../../../core/schemas/messaging';
import { useT, useTexts } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { usePagedList } from '../../widgets/admin/usePagedList';
import { StatusBadge } from '../../widgets/StatusBadge';
import type { ScreenProps } from '../types';
import { serviceTypeText } from '../../widgets/messageTexts';

export default function MessageHistoryScreen({ route }: ScreenProps) {
  const t = useT();
  const ready = useTexts(undefined, 'settings', 'admin');
  const history = usePagedList<Message, { page: number; size: number }>(({ page, size }) => messages.history(page, size), {});
  const columns: Column<Message>[] = [
    { id: 'title', header: t('settings:history.title'), cell: (row) => row.title },
    { id: 'sender', header: t('settings:history.sender'), cell: (row) => row.sender ?? t('settings:inbox.system') },
    { id: 'type', header: t('settings:history.serviceType'), cell: (row) => serviceTypeText(t, row.serviceType) },
    { id: 'vendor', header: t('settings:history.vendor'), cell: (row) => row.vendor ?? '—' },
    { id: 'time', header: t('settings:history.pushTime'), cell: (row) => formatDate(row.pushTime) },
    { id: 'status', header: t('settings:history.status'), cell: (row) => <StatusBadge status={row.status} /> },
  ];
  return (
    <AdminPage title={route.name}>
      {ready && (
        <>
          <DataTable
            caption={t(route.name)}
            columns={columns}
            rows={history.data?.list}
            rowKey={(row) => row.id}
            loading={history.loading}
            failed={history.failed}
            onRetry={history.reload}
            emptyText={t('settings:history.empty')}
            stackOnPhone
          />
          {history.data && <Pager page={history.query.page} size={history.query.size} total={history.data.pager.total} onChange={history.turn} />}
        </>
      )}
    </AdminPage>
  );
}
