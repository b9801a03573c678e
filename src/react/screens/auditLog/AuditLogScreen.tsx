// Audit log (operate/audit): the security events of my reach (a tenant administrator: their
// subtree's), newest first, paged on the server; filtered by time range, actor, event type and
// tenant; each event's details in a dialog; the filtered events exported as CSV by the server.
import { lazy, Suspense, useId, useMemo, useState, type FormEvent } from 'react';
import * as tenantApi from '../../../core/api/tenants';
import { auditExportUrl, exportAudit, listAudit, type AuditEntry, type AuditFilter, type AuditQuery } from '../../../core/api/audit';
import { auditActions, type AuditAction } from '../../../core/schemas/audit';
import { formatDate } from '../../../core/format';
import { parseTimeText } from '../../../core/time-text';
import { useT } from '../../i18n';
import { AdminPage } from '../../widgets/admin/AdminPage';
import { DownloadLink } from '../../widgets/admin/DownloadLink';
import type { Column } from '../../widgets/admin/DataTable';
import { FilterSelect } from '../../widgets/admin/FilterSelect';
import { PagedTable } from '../../widgets/admin/PagedTable';
import { RowActions } from '../../widgets/admin/RowActions';
import { TenantFilter } from '../../widgets/admin/TenantFilter';
import { usePagedList } from '../../widgets/admin/usePagedList';
import { useResource } from '../../widgets/useResource';
import { AuditTarget } from './AuditTarget';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

/** An event type's text key: its dots become underscores. */
type TextKeyOfAction<A extends string> = A extends `${infer Head}.${infer Tail}` ? `${Head}_${Tail}` : A;
const isKnownAction = (action: string): action is AuditAction => (auditActions as readonly string[]).includes(action);

const AuditDetailDialog = lazy(() => import('./AuditDetailDialog'));

type Query = Required<Pick<AuditQuery, 'page' | 'size'>> & AuditFilter;

export default function AuditLogScreen() {
  const t = useT();
  const ids = { from: useId(), to: useId(), actor: useId(), target: useId() };
  const list = usePagedList<AuditEntry, Query>(listAudit, {});
  const tree = useResource(tenantApi.tree, []);
  const tenantNames = useMemo(() => new Map(tree.data?.map((tenant) => [tenant.id, tenant.name])), [tree.data]);
  const [draft, setDraft] = useState({ from: '', to: '', actor: '', target: '', action: '' });
  const [shown, setShown] = useState<AuditEntry>();
  const [badTimes, setBadTimes] = useState<('from' | 'to')[]>([]);
  const { page: _page, size: _size, ...filter } = list.query;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // The end of the range includes its whole day (a date) or minute (a date and time).
    const from = parseTimeText(draft.from);
    const to = parseTimeText(draft.to, true);
    const bad = (['from', 'to'] as const).filter((name) => (name === 'from' ? from : to) === null);
    setBadTimes(bad);
    if (bad.length) return;
    list.refine({
      from: from ?? undefined,
      to: to ?? undefined,
      actor: draft.actor.trim() || undefined,
      target: draft.target.trim() || undefined,
      parentId: undefined,
      action: (draft.action || undefined) as AuditAction | undefined,
    });
  };
  // Event types are keyed with '_' for '.' (the texts' key separator); an event type this console
  // does not know (a newer server) is shown as recorded.
  const actionName = (action: string) =>
    isKnownAction(action) ? t(`admin:audit.actions.${action.replace('.', '_') as TextKeyOfAction<AuditAction>}`) : action;

  // The time range, actor and target are typed first and applied together (Apply). Times are
  // typed as text in the format the hint shows (src/core/time-text.ts), not in the browser's date
  // input, whose words and order follow the browser's language.
  const draftInput = (name: 'from' | 'to' | 'actor' | 'target') => {
    const time = name === 'from' || name === 'to';
    const bad = time && badTimes.includes(name);
    return (
      <div className={styles.control}>
        <label htmlFor={ids[name]} className={styles.controlLabel}>
          {t(name === 'target' ? 'admin:audit.targetFilter' : `admin:audit.${name}`)}
        </label>
        <input
          id={ids[name]}
          type={time ? 'text' : 'search'}
          className={ui.input}
          value={draft[name]}
          maxLength={time ? 16 : 100}
          placeholder={time ? t('admin:audit.timePlaceholder') : undefined}
          inputMode={time ? 'numeric' : undefined}
          aria-invalid={bad || undefined}
          aria-describedby={time ? `${ids[name]}-hint` : undefined}
          onChange={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
        />
        {time && (
          <span id={`${ids[name]}-hint`} className={bad ? ui.fieldError : ui.hint}>
            {t(bad ? 'admin:audit.timeRefused' : 'admin:audit.timeFormat')}
          </span>
        )}
      </div>
    );
  };

  const columns: Column<AuditEntry>[] = [
    { id: 'at', header: t('admin:audit.time'), cell: (entry) => formatDate(entry.at) },
    { id: 'actor', header: t('admin:audit.actor'), cell: (entry) => entry.actorName ?? '—' },
    { id: 'action', header: t('admin:audit.action'), cell: (entry) => actionName(entry.action) },
    { id: 'target', header: t('admin:audit.target'), cell: (entry) => <AuditTarget entry={entry} /> },
    {
      id: 'result',
      header: t('admin:audit.result'),
      cell: (entry) => (
        <span className={entry.success ? styles.status.enabled : styles.status.disabled}>
          {t(entry.success ? 'admin:audit.succeeded' : 'admin:audit.failed')}
        </span>
      ),
    },
    { id: 'tenant', header: t('admin:user.tenant'), cell: (entry) => (entry.tenantId && tenantNames.get(entry.tenantId)) || '—' },
    { id: 'ip', header: t('admin:audit.ip'), cell: (entry) => entry.ip ?? '—' },
    {
      id: 'details',
      header: t('admin:table.actions'),
      align: 'end',
      cell: (entry) => (
        <RowActions
          actions={[
            ...(entry.children
              ? [
                  {
                    key: 'rows',
                    label: t('admin:audit.rows', { count: entry.children }),
                    name: t('admin:audit.rowsOf', { count: entry.children, action: actionName(entry.action), time: formatDate(entry.at) }),
                    onSelect: () => list.refine({ parentId: entry.id }),
                  },
                ]
              : []),
            {
              key: 'details',
              label: t('admin:audit.details'),
              name: t('admin:audit.detailsOf', { action: actionName(entry.action), time: formatDate(entry.at) }),
              onSelect: () => setShown(entry),
            },
          ]}
        />
      ),
    },
  ];

  return (
    <AdminPage
      title="route.audit"
      actions={
        <DownloadLink href={auditExportUrl(filter)} fileName="audit-log.csv" fetchFile={() => exportAudit(filter)}>
          {t('admin:audit.export')}
        </DownloadLink>
      }
    >
      <form className={styles.toolbar} onSubmit={apply} aria-label={t('admin:audit.filters')}>
        {draftInput('from')}
        {draftInput('to')}
        {draftInput('actor')}
        {draftInput('target')}
        <FilterSelect
          label={t('admin:audit.action')}
          allLabel={t('admin:audit.allActions')}
          value={draft.action || undefined}
          onChange={(action) => setDraft({ ...draft, action: action ?? '' })}
          options={auditActions.map((action) => ({ value: action, label: actionName(action) }))}
        />
        <TenantFilter tenants={tree.data ?? []} value={list.query.tenantId} onChange={(tenantId) => list.refine({ tenantId })} />
        <button type="submit" className={ui.button.primary}>
          {t('admin:audit.apply')}
        </button>
      </form>
      {list.query.parentId !== undefined && (
        <p role="status">
          {t('admin:audit.rowsTitle')} (#{list.query.parentId}){' '}
          <button type="button" className={ui.button.secondary} onClick={() => list.refine({ parentId: undefined })}>
            {t('admin:audit.allActions')}
          </button>
        </p>
      )}
      <PagedTable
        list={list}
        caption={t('route.audit')}
        columns={columns}
        rowKey={(entry) => String(entry.id)}
        emptyText={t('admin:audit.empty')}
        stackOnPhone
        stickyActions
      />
      <Suspense fallback={null}>
        {shown && (
          <AuditDetailDialog
            entry={shown}
            actionName={actionName(shown.action)}
            tenantName={shown.tenantId ? tenantNames.get(shown.tenantId) : undefined}
            onClose={() => setShown(undefined)}
          />
        )}
      </Suspense>
    </AdminPage>
  );
}
