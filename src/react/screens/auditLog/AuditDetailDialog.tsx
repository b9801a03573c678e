// One audit event in full: when, who, what, on which record, from where, and the event's details.
import type { AuditEntry } from '../../../core/api/audit';
import { formatDate } from '../../../core/format';
import { useT } from '../../i18n';
import { DialogFrame } from '../../dialogs/DialogFrame';
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
  const rows: [string, string][] = [
    [t('admin:audit.time'), formatDate(entry.at)],
    [t('admin:audit.actor'), entry.actorName ?? '—'],
    [t('admin:audit.action'), actionName],
    [t('admin:audit.result'), t(entry.success ? 'admin:audit.succeeded' : 'admin:audit.failed')],
    [t('admin:audit.target'), entry.targetType ? `${entry.targetType} ${entry.targetId ?? ''}`.trim() : '—'],
    [t('admin:user.tenant'), tenantName ?? entry.tenantId ?? '—'],
    [t('admin:audit.ip'), entry.ip ?? '—'],
  ];
  const detail = Object.keys(entry.detail).length ? JSON.stringify(entry.detail, null, 2) : undefined;
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
      {detail && (
        <pre className={styles.detail} tabIndex={0} aria-label={t('admin:audit.details')}>
          {detail}
        </pre>
      )}
    </DialogFrame>
  );
}
