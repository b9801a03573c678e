// Audit log (operate/audit): the security events of my reach (a tenant administrator: their
// subtree's), newest first, paged on the server; filtered by time range, actor, event type and
// tenant; each event's details in a dialog; the filtered events exported as CSV by the server.
import { lazy, Suspense, useId, useMemo, useState, type FormEvent } from 'react';
import * as tenantApi from '../../../core/api/tenants';
import { auditExportUrl, listAudit, type AuditEntry, type AuditFilter, type AuditQuery } from '../../../core/api/audit';
import { auditActions, type AuditAction } from '../../../core/schemas/audit';
import { formatDate } from '../../../core/format';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DataTable, type Column } from '../../widgets/admin/DataTable';
import { Pager } from '../../widgets/admin/Pager';
import { TenantFilter } from '../../widgets/admin/TenantFilter';
import { usePagedList } from '../../widgets/admin/usePagedList';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

/** An event type's text key: its dots become underscores. */
type TextKeyOfAction<A extends string> = A extends `${infer Head}.${infer Tail}` ? `${Head}_${Tail}` : A;
const isKnownAction = (action: string): action is AuditAction => (auditActions as readonly string[]).includes(action);

const AuditDetailDialog = lazy(() => import('./AuditDetailDialog'));

type Query = Required<Pick<AuditQuery, 'page' | 'size'>> & AuditFilter;

/** A datetime-local value (local time, minutes) as epoch ms, or undefined when empty. */
const timeOf = (value: string) => (value ? new Date(value).getTime() : undefined);

export default function AuditLogScreen() {
  const t = useT();
  const ids = { from: useId(), to: useId(), actor: useId(), action: useId() };
  const list = usePagedList<AuditEntry, Query>(listAudit, {});
  const tree = useResource(tenantApi.tree, []);
  const tenantNames = useMemo(() => new Map(tree.data?.map((tenant) => [tenant.id, tenant.name])), [tree.data]);
  const [draft, setDraft] = useState({ from: '', to: '', actor: '', action: '' });
  const [shown, setShown] = useState<AuditEntry>();
  const { page: _page, size: _size, ...filter } = list.query;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // The end of the range includes its whole minute.
    const to = timeOf(draft.to);
    list.refine({
      from: timeOf(draft.from), to: to === undefined ? undefined : to + 59_999,
      actor: draft.actor.trim() || undefined, action: (draft.action || undefined) as AuditAction | undefined,
    });
  };
  // Event types are keyed with '_' for '.' (the texts' key separator); an event type this console
  // does not know (a newer server) is shown as recorded.
  const actionName = (action: string) =>
    isKnownAction(action) ? t(`admin:audit.actions.${action.replace('.', '_') as TextKeyOfAction<AuditAction>}`) : action;

  const columns: Column<AuditEntry>[] = [
    { id: 'at', header: t('admin:audit.time'), cell: (entry) => formatDate(entry.at) },
    { id: 'actor', header: t('admin:audit.actor'), cell: (entry) => entry.actorName ?? '—' },
    { id: 'action', header: t('admin:audit.action'), cell: (entry) => actionName(entry.action) },
    {
      id: 'result',
      header: t('admin:audit.result'),
      cell: (entry) => (
        <span className={entry.success ? styles.status.enabled : styles.status.disabled}>{t(entry.success ? 'admin:audit.succeeded' : 'admin:audit.failed')}</span>
      ),
    },
    { id: 'tenant', header: t('admin:user.tenant'), cell: (entry) => (entry.tenantId && tenantNames.get(entry.tenantId)) || '—' },
    { id: 'ip', header: t('admin:audit.ip'), cell: (entry) => entry.ip ?? '—' },
    {
      id: 'details',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (entry) => (
        <button
          type="button"
          className={`${ui.button.ghost} ${styles.small}`}
          aria-label={t('admin:audit.detailsOf', { action: actionName(entry.action), time: formatDate(entry.at) })}
          onClick={() => setShown(entry)}
        >
          {t('admin:audit.details')}
        </button>
      ),
    },
  ];

  return (
    <AdminPage
      title="route.audit"
      actions={
        <a className={ui.button.secondary} href={auditExportUrl(filter)} download="audit-log.csv">
          {t('admin:audit.export')}
        </a>
      }
    >
      <form className={styles.toolbar} onSubmit={apply} aria-label={t('admin:audit.filters')}>
        <div className={styles.control}>
          <label htmlFor={ids.from} className={styles.controlLabel}>{t('admin:audit.from')}</label>
          <input id={ids.from} type="datetime-local" className={ui.input} value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.currentTarget.value })} />
        </div>
        <div className={styles.control}>
          <label htmlFor={ids.to} className={styles.controlLabel}>{t('admin:audit.to')}</label>
          <input id={ids.to} type="datetime-local" className={ui.input} value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.currentTarget.value })} />
        </div>
        <div className={styles.control}>
          <label htmlFor={ids.actor} className={styles.controlLabel}>{t('admin:audit.actor')}</label>
          <input id={ids.actor} type="search" className={ui.input} value={draft.actor} maxLength={100} onChange={(event) => setDraft({ ...draft, actor: event.currentTarget.value })} />
        </div>
        <div className={styles.control}>
          <label htmlFor={ids.action} className={styles.controlLabel}>{t('admin:audit.action')}</label>
          <select id={ids.action} className={styles.select} value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.currentTarget.value })}>
            <option value="">{t('admin:audit.allActions')}</option>
            {auditActions.map((action) => <option key={action} value={action}>{actionName(action)}</option>)}
          </select>
        </div>
        <TenantFilter tenants={tree.data ?? []} value={list.query.tenantId} onChange={(tenantId) => list.refine({ tenantId })} />
        <button type="submit" className={ui.button.primary}>{t('admin:audit.apply')}</button>
      </form>
      <DataTable
        caption={t('route.audit')}
        columns={columns}
        rows={list.data?.list}
        rowKey={(entry) => String(entry.id)}
        loading={list.loading}
        failed={list.failed && !list.data}
        onRetry={list.reload}
        emptyText={t('admin:audit.empty')}
        stackOnPhone
        stickyActions
      />
      {list.data && <Pager page={list.query.page} size={list.query.size} total={list.data.pager.total} onChange={list.turn} />}
      <Suspense fallback={null}>
        {shown && <AuditDetailDialog entry={shown} actionName={actionName(shown.action)} tenantName={shown.tenantId ? tenantNames.get(shown.tenantId) : undefined} onClose={() => setShown(undefined)} />}
      </Suspense>
    </AdminPage>
  );
}
