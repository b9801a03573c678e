// The delivery log: outgoing messages with their channel, recipient, status, attempts and error,
// newest first, filtered by channel and status, paged.
import { useId } from 'react';
import * as channels from '../../../core/api/channels';
import { formatDate } from '../../../core/format';
import { DeliveryStatus, type Channel, type Delivery } from '../../../core/schemas/messaging';
import { useT } from '../../i18n';
import type { Translate } from '../../../core/i18n';
import type { Column } from '../../widgets/admin/DataTable';
import { FilterSelect } from '../../widgets/admin/FilterSelect';
import { PagedTable } from '../../widgets/admin/PagedTable';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import type { PagedListState } from '../../widgets/admin/usePagedList';
import * as styles from './channels.css';
import { StatusBadge } from '../../widgets/StatusBadge';
import { deliveryErrorText, messageStatusText, serviceTypeText } from '../../widgets/messageTexts';

/** Who a message went to: the address it was sent to, else the account (in-site), else a robot's group chat. */
function recipientOf(row: Delivery, t: Translate): string {
  if (row.address) return row.recipientName ? `${row.recipientName} <${row.address}>` : row.address;
  return row.recipientName ?? t('settings:log.groupChat');
}

export type DeliveryQuery = channels.DeliveryQuery & { page: number; size: number };

export function DeliveryLog({ log, channelList }: { log: PagedListState<Delivery, DeliveryQuery>; channelList: Channel[] }) {
  const t = useT();
  const id = useId();
  const columns: Column<Delivery>[] = [
    { id: 'time', header: t('settings:log.time'), cell: (row) => <span className={styles.nowrap}>{formatDate(row.pushTime)}</span> },
    { id: 'channel', header: t('settings:log.channel'), cell: (row) => row.channelName ?? '—' },
    { id: 'type', header: t('settings:log.serviceType'), cell: (row) => serviceTypeText(t, row.serviceType) },
    { id: 'recipient', header: t('settings:log.recipient'), cell: (row) => recipientOf(row, t) },
    { id: 'title', header: t('settings:log.title'), cell: (row) => row.title },
    { id: 'status', header: t('settings:log.status'), cell: (row) => <StatusBadge status={row.status} /> },
    { id: 'attempts', header: t('settings:log.attempts'), cell: (row) => row.attempts },
    {
      id: 'error',
      header: t('settings:log.error'),
      wrap: true,
      cell: (row) => {
        const error = deliveryErrorText(t, row);
        return error ? <span className={styles.error}>{error}</span> : '—';
      },
    },
  ];
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {t('settings:log.heading')}
      </h2>
      <div className={table.toolbar}>
        <FilterSelect
          label={t('settings:log.channel')}
          allLabel={t('settings:log.allChannels')}
          value={log.query.channelId}
          onChange={(channelId) => log.refine({ channelId })}
          options={channelList.map((channel) => ({ value: channel.id, label: channel.name }))}
        />
        <FilterSelect
          label={t('settings:log.status')}
          allLabel={t('settings:log.allStatuses')}
          value={log.query.status}
          onChange={(status) => log.refine({ status })}
          options={Object.values(DeliveryStatus).map((status) => ({ value: status, label: messageStatusText(t, status) }))}
        />
        <span className={table.grow} />
        <button type="button" className={ui.button.secondary} onClick={log.reload}>
          {t('settings:log.refresh')}
        </button>
      </div>
      <PagedTable list={log} caption={t('settings:log.heading')} columns={columns} rowKey={(row) => row.id} emptyText={t('settings:log.empty')} stackOnPhone />
    </section>
  );
}
