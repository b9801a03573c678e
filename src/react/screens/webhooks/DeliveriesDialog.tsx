// The delivery log of one endpoint: each event's status and attempts, newest first, filtered by
// status, paged; a delivery's attempts (time, HTTP status, error, the start of the answer) and its
// signed payload in a details view; any delivery can be sent again (same payload and webhook-id).
import { useId, useState } from 'react';
import * as webhooks from '../../../core/api/webhooks';
import { formatDate } from '../../../core/format';
import { WebhookDeliveryStatus, type Webhook, type WebhookDelivery } from '../../../core/schemas/webhooks';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useT } from '../../i18n';
import type { Column } from '../../widgets/admin/DataTable';
import { FilterSelect } from '../../widgets/admin/FilterSelect';
import { PagedTable } from '../../widgets/admin/PagedTable';
import { RowActions } from '../../widgets/admin/RowActions';
import { usePagedList } from '../../widgets/admin/usePagedList';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { deliveryErrorText } from '../../widgets/messageTexts';
import { eventName, statusName } from './texts';
import * as styles from './webhooks.css';

type Query = webhooks.DeliveryQuery & { page: number; size: number };

const tone = (status: string) => (status === WebhookDeliveryStatus.Delivered ? 'enabled' : 'disabled');

export default function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const log = usePagedList<WebhookDelivery, Query>((query) => webhooks.deliveries(webhook.id, query), {});
  const [shown, setShown] = useState<WebhookDelivery>();

  const lastAnswer = (delivery: WebhookDelivery) => {
    const last = delivery.attemptLog[delivery.attemptLog.length - 1];
    if (!last) return '—';
    const error = deliveryErrorText(t, last);
    return <span className={error ? styles.error : undefined}>{error ?? `HTTP ${last.statusCode ?? ''}`}</span>;
  };
  const columns: Column<WebhookDelivery>[] = [
    { id: 'time', header: t('webhooks:time'), cell: (row) => <span className={styles.nowrap}>{formatDate(row.createdAt)}</span> },
    { id: 'event', header: t('webhooks:event'), cell: (row) => eventName(t, row.eventType) },
    {
      id: 'status',
      header: t('webhooks:status'),
      cell: (row) => (
        <>
          <span className={table.status[tone(row.status)]}>{statusName(t, row.status)}</span>
          {row.status === WebhookDeliveryStatus.Queued && row.nextAttemptAt && (
            <span className={ui.hint}> {t('webhooks:nextAttempt', { time: formatDate(row.nextAttemptAt) })}</span>
          )}
        </>
      ),
    },
    { id: 'attempts', header: t('webhooks:attempts'), cell: (row) => row.attempts },
    { id: 'answer', header: t('webhooks:lastAnswer'), cell: lastAnswer, wrap: true },
    {
      id: 'details',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (row) => (
        <RowActions
          actions={[
            {
              key: 'details',
              label: t('webhooks:details'),
              name: t('webhooks:detailsOf', { event: eventName(t, row.eventType), time: formatDate(row.createdAt) }),
              onSelect: () => setShown(row),
            },
            {
              key: 'redeliver',
              label: t('webhooks:redeliver'),
              name: t('webhooks:redeliverOf', { event: eventName(t, row.eventType), time: formatDate(row.createdAt) }),
              confirm: {
                title: t('webhooks:redeliverTitle'),
                question: t('webhooks:redeliverQuestion', { event: eventName(t, row.eventType), time: formatDate(row.createdAt) }),
                confirmLabel: t('webhooks:redeliver'),
              },
              onSelect: async () => {
                await webhooks.redeliver(webhook.id, row.id);
                log.reload();
              },
            },
          ]}
        />
      ),
    },
  ];

  return (
    <DialogFrame open size="wide" onOpenChange={(open) => !open && onClose()} title={t('webhooks:deliveriesTitle', { url: webhook.url })}>
      <div className={table.toolbar}>
        <FilterSelect
          label={t('webhooks:status')}
          allLabel={t('webhooks:allStatuses')}
          value={log.query.status}
          onChange={(status) => log.refine({ status })}
          options={Object.values(WebhookDeliveryStatus).map((status) => ({ value: status, label: statusName(t, status) }))}
        />
        <span className={table.grow} />
        <button type="button" className={ui.button.secondary} onClick={log.reload}>
          {t('webhooks:refresh')}
        </button>
      </div>
      <PagedTable list={log} caption={t('webhooks:deliveries')} columns={columns} rowKey={(row) => row.id} emptyText={t('webhooks:noDeliveries')} />
      {shown && (
        <section aria-labelledby={`${id}-details`}>
          <h3 id={`${id}-details`}>{t('webhooks:attemptLog')}</h3>
          <ol>
            {shown.attemptLog.map((attempt) => (
              <li key={attempt.at}>
                {formatDate(attempt.at)} · {attempt.statusCode === null ? t('webhooks:noAnswer') : `HTTP ${attempt.statusCode}`} ·{' '}
                {t('webhooks:durationMs', { ms: attempt.durationMs })}
                {(attempt.errorCode || attempt.error) && <span className={styles.error}> · {deliveryErrorText(t, attempt)}</span>}
                {attempt.answer && (
                  <>
                    <div className={ui.hint}>{t('webhooks:answerExcerpt')}</div>
                    <pre className={styles.pre}>{attempt.answer}</pre>
                  </>
                )}
              </li>
            ))}
          </ol>
          <div className={ui.hint}>{t('webhooks:payload')}</div>
          <pre className={styles.pre}>{shown.payload}</pre>
        </section>
      )}
      <div className={ui.actions}>
        <button type="button" className={ui.button.secondary} onClick={onClose}>
          {t('console:action.close')}
        </button>
      </div>
    </DialogFrame>
  );
}
