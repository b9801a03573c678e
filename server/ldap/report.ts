// The reports of a connection's synchronisations (the console's sync report): kept per run, newest
// first, the last REPORTS_KEPT of each connection.
import * as v from 'valibot';
import type { Ctx } from '../context';
import type { AuditEvent } from '../audit';
import { ldapConflict, ldapSyncSummary, type LdapSyncReport, type LdapSyncSummary } from '../../src/core/schemas/ldap';
import { newId } from '../auth/secrets';

export type LdapConflictEntry = v.InferOutput<typeof ldapConflict>;

const REPORTS_KEPT = 50;
/** Conflicts listed in one report at most (the count stays exact in `seen`). */
const CONFLICTS_LISTED = 500;

export const emptySummary = (): LdapSyncSummary => ({ seen: 0, created: 0, updated: 0, disabled: 0, roleChanges: 0, conflicts: [], error: null });

/** The audit record of a run an administrator asked for ("Synchronise now"): who ran it on which
 *  connection, and the report in short (its id and counts). What the run changed is recorded per
 *  person with the connection as the actor (server/ldap/actor.ts). */
export const runRecord = (
  connection: { id: string; name: string; tenantId: string },
  ranBy: NonNullable<AuditEvent['actor']>,
  ip: string | null,
  report: LdapSyncReport,
): AuditEvent => {
  const { conflicts, error, ...counts } = report.summary;
  return {
    action: 'ldap.sync',
    actor: ranBy,
    target: { type: 'ldap_connection', id: connection.id, name: connection.name },
    tenantId: connection.tenantId,
    ip,
    success: report.outcome === 'success',
    detail: { report: report.id, ...counts, conflicts: conflicts.length, ...(error ? { error } : {}) },
  };
};

/** Stores a run's report, with `record` (runRecord) when an administrator ran it: both or neither. */
export async function storeReport(
  ctx: Ctx,
  connectionId: string,
  report: Omit<LdapSyncReport, 'id'>,
  record?: (stored: LdapSyncReport) => AuditEvent,
): Promise<LdapSyncReport> {
  const id = newId();
  const summary = { ...report.summary, conflicts: report.summary.conflicts.slice(0, CONFLICTS_LISTED) };
  await ctx.audit.change(async () => {
    await ctx.db
      .insertInto('ldapSyncReports')
      .values({
        id,
        connectionId,
        trigger: report.trigger,
        startedAt: report.startedAt,
        finishedAt: report.finishedAt,
        outcome: report.outcome,
        summary: JSON.stringify(summary),
      })
      .execute();
    const old = ctx.db
      .selectFrom('ldapSyncReports')
      .select('id')
      .where('connectionId', '=', connectionId)
      .orderBy('startedAt', 'desc')
      .offset(REPORTS_KEPT)
      .limit(1000);
    await ctx.db.deleteFrom('ldapSyncReports').where('id', 'in', old).execute();
    if (record) await ctx.audit.record(record({ id, ...report }));
  });
  return { id, ...report, summary };
}

export async function reportsOf(ctx: Ctx, connectionId: string): Promise<LdapSyncReport[]> {
  const rows = await ctx.db
    .selectFrom('ldapSyncReports')
    .selectAll()
    .where('connectionId', '=', connectionId)
    .orderBy('startedAt', 'desc')
    .limit(REPORTS_KEPT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    trigger: row.trigger as LdapSyncReport['trigger'],
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    outcome: row.outcome as LdapSyncReport['outcome'],
    summary: v.parse(ldapSyncSummary, JSON.parse(row.summary)),
  }));
}
