// The audit log (Permission.Operations): the paged list and the CSV export of the same filters,
// declared here; the reading (and the tenant subtree a tenant administrator is held to) is
// server/services/audit-log.ts.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { linkRoute, route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/audit';
import { Permission } from '../../src/core/permission-codes';
import { EXPORT_LIMIT, exportLines, listEvents } from '../services/audit-log';

const tags = ['Audit'];
const access = Permission.Operations;
const CSV_HEADERS = { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="audit-log.csv"', 'cache-control': 'no-store' };

export const auditRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getAudit, {
    tags,
    access,
    summary:
      'Security events, newest first, filtered by time (from/to, epoch ms), actor (username contains), event type and tenant (its subtree); a tenant administrator sees their subtree’s',
    handler: ({ actor, query }) => listEvents(ctx, actor, query),
  });

  linkRoute(app, gate, calls.getAuditExport, {
    tags,
    access,
    summary: `The events of the same filters as CSV (UTF-8), newest first, at most ${EXPORT_LIMIT} rows; cells that a spreadsheet would run as a formula are prefixed with '`,
    handler: async ({ actor, query }, reply) => {
      reply.headers(CSV_HEADERS).send(Readable.from(exportLines(ctx, actor, query)));
    },
  });
};
