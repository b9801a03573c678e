// The audit log (operations, code 4): security events filtered by time range, actor, event type
// and tenant, paged; and the same selection exported as CSV, streamed in batches. A tenant
// administrator reads only the events of their tenant's subtree, the platform administrator all.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { AuditTable } from '../db/tables';
import type { Actor } from '../auth/actor';
import { defineRoute, type Gate } from '../http/route';
import { Permission } from '../../src/core/permission-codes';
import { auditExportQuery, auditFilterFields, auditList, auditListQuery } from '../../src/core/schemas/audit';
import { contains, paginate } from '../http/paging';
import { tenantPathOf } from '../auth/scope';
import { csvLine } from '../http/csv';

type AuditFilter = v.InferOutput<v.ObjectSchema<typeof auditFilterFields, undefined>>;

/** Rows per read of the export; the export stops after EXPORT_LIMIT rows (narrow the filters for more). */
const EXPORT_BATCH = 500;
export const EXPORT_LIMIT = 100_000;

/** The events the actor may read that match the filter (no order, no columns chosen). */
async function matching(ctx: Ctx, actor: Actor, filter: AuditFilter) {
  let select = ctx.db.selectFrom('auditLog');
  const tenantsUnder = (path: string) => ctx.db.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${path}%`);
  if (!actor.platformAdmin) select = select.where('auditLog.tenantId', 'in', tenantsUnder(actor.tenantPath ?? '/-none-/'));
  if (filter.tenantId) select = select.where('auditLog.tenantId', 'in', tenantsUnder((await tenantPathOf(ctx, filter.tenantId)) ?? '/-none-/'));
  if (filter.from !== undefined) select = select.where('auditLog.at', '>=', filter.from);
  if (filter.to !== undefined) select = select.where('auditLog.at', '<=', filter.to);
  if (filter.actor) select = select.where(contains(ctx.engine, 'auditLog.actorName', filter.actor));
  if (filter.action) select = select.where('auditLog.action', '=', filter.action);
  return select;
}

const toEntry = (row: Selectable<AuditTable>) => ({ ...row, id: Number(row.id), success: row.success === 1, detail: JSON.parse(row.detail) as Record<string, unknown> });

const CSV_HEADER = ['time', 'actor', 'event', 'success', 'target type', 'target', 'tenant', 'ip', 'detail'];

/** The export, one CSV line per event, newest first, read in keyset batches (no offset scans). */
async function* exportLines(ctx: Ctx, actor: Actor, filter: AuditFilter): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(CSV_HEADER)}`; // the byte order mark makes spreadsheet programs read UTF-8
  let last: { at: number; id: number } | undefined;
  for (let sent = 0; sent < EXPORT_LIMIT;) {
    let select = (await matching(ctx, actor, filter)).leftJoin('tenants', 'tenants.id', 'auditLog.tenantId')
      .selectAll('auditLog').select('tenants.name as tenantName');
    if (last) {
      const { at, id } = last;
      select = select.where((eb) => eb.or([eb('auditLog.at', '<', at), eb.and([eb('auditLog.at', '=', at), eb('auditLog.id', '<', id)])]));
    }
    const rows = await select.orderBy('auditLog.at', 'desc').orderBy('auditLog.id', 'desc').limit(Math.min(EXPORT_BATCH, EXPORT_LIMIT - sent)).execute();
    for (const row of rows) {
      yield csvLine([
        new Date(Number(row.at)).toISOString(), row.actorName, row.action, row.success === 1 ? 'yes' : 'no',
        row.targetType, row.targetId, row.tenantName ?? row.tenantId, row.ip, row.detail === '{}' ? '' : row.detail,
      ]);
    }
    sent += rows.length;
    if (rows.length < EXPORT_BATCH) return;
    const end = rows[rows.length - 1]!;
    last = { at: Number(end.at), id: Number(end.id) };
  }
}

export function auditRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  const tags = ['Audit'];
  defineRoute(app, gate, {
    method: 'GET', url: '/audit', tags, access: Permission.Operations,
    summary: 'Security events, newest first, filtered by time (from/to, epoch ms), actor (username contains), event type and tenant (its subtree); a tenant administrator sees their subtree’s',
    query: auditListQuery, response: auditList,
    handler: async ({ actor, query }) => {
      let select = (await matching(ctx, actor, query)).selectAll();
      if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
      return paginate(select.orderBy('at', 'desc').orderBy('id', 'desc'), query, toEntry);
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/audit/export', tags, access: Permission.Operations, raw: { contentType: 'text/csv' },
    summary: `The events of the same filters as CSV (UTF-8), newest first, at most ${EXPORT_LIMIT} rows; cells that a spreadsheet would run as a formula are prefixed with '`,
    query: auditExportQuery,
    handler: async ({ actor, query }, reply) => {
      reply.header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(exportLines(ctx, actor, query)));
    },
  });
}
