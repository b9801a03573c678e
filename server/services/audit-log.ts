// Reading the audit log (server/routes/audit.ts): security events filtered by time range, actor,
// event type and tenant, paged, and the same selection as CSV lines read in batches. A tenant
// administrator reads only the events of their tenant's subtree, the platform administrator all.
// (Events are written by server/audit.ts.)
import type { ExpressionBuilder, Selectable } from 'kysely';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { AuditTable, Database } from '../db/tables';
import type { Actor } from '../auth/actor';
import type { auditFilterFields, auditListQuery } from '../../src/core/schemas/audit';
import { contains, paginate } from '../http/paging';
import { tenantPathOf } from '../auth/scope';
import { csvLine } from '../http/csv';

type AuditFilter = v.InferOutput<v.ObjectSchema<typeof auditFilterFields, undefined>>;

/** Rows per read of the export; the export stops after EXPORT_LIMIT rows (narrow the filters for more). */
const EXPORT_BATCH = 500;
export const EXPORT_LIMIT = 100_000;

/** The tenant subtrees (materialised paths) an event must concern to be read: the tenant
 *  administrator's own and the tenant filter's; none for the platform administrator unfiltered. */
async function subtreesRead(ctx: Ctx, actor: Actor, filter: AuditFilter): Promise<string[]> {
  const paths: string[] = [];
  if (!actor.platformAdmin) paths.push(actor.tenantPath ?? '/-none-/');
  if (filter.tenantId) paths.push((await tenantPathOf(ctx, filter.tenantId)) ?? '/-none-/');
  return paths;
}

/** Whether the event `row` concerns a tenant in each of `paths`: its tenant, or the tenant its
 *  target left (a person moved to another tenant is in the logs of both). */
const concerns =
  (ctx: Ctx, row: 'auditLog' | 'parent', paths: readonly string[]) => (eb: ExpressionBuilder<Database & { parent: AuditTable }, 'auditLog' | 'parent'>) =>
    eb.and(
      paths.map((path) => {
        const under = ctx.db.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${path}%`);
        return eb.or([eb(`${row}.tenantId`, 'in', under), eb(`${row}.formerTenantId`, 'in', under)]);
      }),
    );

/** The events the actor may read that match the filter (no order, no columns chosen). */
async function matching(ctx: Ctx, actor: Actor, filter: AuditFilter) {
  let select = ctx.db.selectFrom('auditLog');
  const paths = await subtreesRead(ctx, actor, filter);
  if (paths.length) select = select.where((eb) => concerns(ctx, 'auditLog', paths)(eb));
  if (filter.from !== undefined) select = select.where('auditLog.at', '>=', filter.from);
  if (filter.to !== undefined) select = select.where('auditLog.at', '<=', filter.to);
  if (filter.actor) select = select.where(contains(ctx.engine, 'auditLog.actorName', filter.actor));
  if (filter.target) {
    const target = filter.target;
    select = select.where((eb) => eb.or([contains(ctx.engine, 'auditLog.targetName', target), eb('auditLog.targetId', '=', target)]));
  }
  // A bulk action's or import's rows are read beneath it (parentId), or found by a filter on them.
  // A row whose parent this reader does not see (a platform administrator's bulk action, read in
  // the log of a tenant whose people it changed) is listed on its own: else that tenant's log
  // would show nothing of what was done to its people.
  if (filter.parentId !== undefined) select = select.where('auditLog.parentId', '=', filter.parentId);
  else if (!filter.actor && !filter.target && !filter.action)
    select = select.where((eb) =>
      paths.length
        ? eb.or([
            eb('auditLog.parentId', 'is', null),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('auditLog as parent')
                  .select(eb.lit(1).as('one'))
                  .whereRef('parent.id', '=', 'auditLog.parentId')
                  .where((inner) => concerns(ctx, 'parent', paths)(inner)),
              ),
            ),
          ])
        : eb('auditLog.parentId', 'is', null),
    );
  if (filter.action) select = select.where('auditLog.action', '=', filter.action);
  return select;
}

/** The kinds of target the console opens by address, each with the table it lives in: the log says
 *  when one is gone, so the console names it as deleted instead of linking to nothing. */
const linkedTargets = { user: 'users', tenant: 'tenants', app: 'apps', menu: 'menuPlans' } as const;

/** An audit row as the API answers it. */
const toEntry = ({
  formerTenantId: _formerTenantId,
  ...row
}: Selectable<AuditTable> & { children: number | string | bigint | null; targetGone: number | string | bigint | null }) => ({
  ...row,
  id: Number(row.id),
  parentId: row.parentId === null ? null : Number(row.parentId),
  children: Number(row.children ?? 0),
  targetGone: Number(row.targetGone ?? 0) === 1,
  success: row.success === 1,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
});

/** The matching events, newest first, paged. */
export async function listEvents(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof auditListQuery>) {
  let select = (await matching(ctx, actor, query))
    .selectAll('auditLog')
    .select((eb) =>
      eb
        .selectFrom('auditLog as row')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('row.parentId', '=', 'auditLog.id')
        .as('children'),
    )
    .select((eb) =>
      eb
        .case()
        .when(
          eb.or(
            Object.entries(linkedTargets).map(([type, table]) =>
              eb.and([
                eb('auditLog.targetType', '=', type),
                eb.not(eb.exists(eb.selectFrom(table).select(eb.lit(1).as('one')).whereRef(`${table}.id`, '=', 'auditLog.targetId'))),
              ]),
            ),
          ),
        )
        .then(1)
        .else(0)
        .end()
        .as('targetGone'),
    );
  if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
  return paginate(select.orderBy('at', 'desc').orderBy('id', 'desc'), query, toEntry);
}

const CSV_HEADER = ['time', 'actor', 'event', 'success', 'target type', 'target', 'target name', 'tenant', 'ip', 'detail', 'id', 'part of'];

/** The export, one CSV line per event, newest first, read in keyset batches (no offset scans). */
export async function* exportLines(ctx: Ctx, actor: Actor, filter: AuditFilter): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(CSV_HEADER)}`; // the byte order mark makes spreadsheet programs read UTF-8
  let last: { at: number; id: number } | undefined;
  for (let sent = 0; sent < EXPORT_LIMIT;) {
    let select = (await matching(ctx, actor, filter))
      .leftJoin('tenants', 'tenants.id', 'auditLog.tenantId')
      .selectAll('auditLog')
      .select('tenants.name as tenantName');
    if (last) {
      const { at, id } = last;
      select = select.where((eb) => eb.or([eb('auditLog.at', '<', at), eb.and([eb('auditLog.at', '=', at), eb('auditLog.id', '<', id)])]));
    }
    const rows = await select
      .orderBy('auditLog.at', 'desc')
      .orderBy('auditLog.id', 'desc')
      .limit(Math.min(EXPORT_BATCH, EXPORT_LIMIT - sent))
      .execute();
    for (const row of rows) {
      yield csvLine([
        new Date(Number(row.at)).toISOString(),
        row.actorName,
        row.action,
        row.success === 1 ? 'yes' : 'no',
        row.targetType,
        row.targetId,
        row.targetName,
        row.tenantName ?? row.tenantId,
        row.ip,
        row.detail === '{}' ? '' : row.detail,
        String(row.id),
        row.parentId === null ? '' : String(row.parentId),
      ]);
    }
    sent += rows.length;
    if (rows.length < EXPORT_BATCH) return;
    const end = rows[rows.length - 1]!;
    last = { at: Number(end.at), id: Number(end.id) };
  }
}
