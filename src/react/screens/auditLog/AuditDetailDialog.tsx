// One audit event in full: when, who, what, on which record, from where, and the event's details.
import type { ReactNode } from 'react';
import type { AuditEntry } from '../../../core/api/audit';
import { formatDate } from '../../../core/format';
import { useT } from '../../i18n';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { AuditTarget } from './AuditTarget';
import * as styles from './auditLog.css';

export default function AuditDetailDialog({
  entry,
  actionName,
  tenantName,
  onClose,
}: {
  entry: AuditEntry;
  actionName: string;
  tenantName?: string;
  onClose: () => void;
}) {
  const t = useT();
  const rows: [string, ReactNode][] = [
    [t('admin:audit.time'), formatDate(entry.at)],
    [t('admin:audit.actor'), entry.actorName ?? '—'],
    [t('admin:audit.action'), actionName],
    [t('admin:audit.result'), t(entry.success ? 'admin:audit.succeeded' : 'admin:audit.failed')],
    [t('admin:audit.target'), <AuditTarget entry={entry} />],
    ...(entry.parentId !== null ? [[t('admin:audit.partOf', { id: entry.parentId }), `#${entry.parentId}`] as [string, string]] : []),
    [t('admin:user.tenant'), tenantName ?? entry.tenantId ?? '—'],
    [t('admin:audit.ip'), entry.ip ?? '—'],
  ];
  const { changes, fields: _fields, ...rest } = entry.detail as { changes?: Record<string, { from: unknown; to: unknown }>; fields?: unknown };
  const changed = changes && typeof changes === 'object' ? Object.entries(changes) : [];
  const detail = Object.keys(rest).length ? JSON.stringify(rest, null, 2) : undefined;
  const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:audit.detailTitle')}>
      <dl className={styles.details}>
        {rows.map(([term, value]) => [
          <dt key={`${term}-term`} className={styles.term}>
            {term}
          </dt>,
          <dd key={`${term}-value`} className={styles.value}>
            {value}
          </dd>,
        ])}
      </dl>
      {changed.length > 0 && (
        <table className={styles.changes}>
          <caption>{t('admin:audit.changes')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin:audit.field')}</th>
              <th scope="col">{t('admin:audit.before')}</th>
              <th scope="col">{t('admin:audit.after')}</th>
            </tr>
          </thead>
          <tbody>
            {changed.map(([field, { from, to }]) => (
              <tr key={field}>
                <th scope="row">{field}</th>
                <td>{shown(from)}</td>
                <td>{shown(to)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {detail && (
        <pre className={styles.detail} tabIndex={0} aria-label={t('admin:audit.details')}>
          {detail}
        </pre>
      )}
    </DialogFrame>
  );
}
