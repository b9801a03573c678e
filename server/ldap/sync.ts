// One synchronisation of a tenant's directory (on demand, or scheduled by server/ldap/scheduler.ts):
// first the whole directory is read (people, then groups); only a complete read changes anything
// here, so a directory that stops answering half-way changes nothing (a partial list would disable
// everyone not read yet). Then each entry creates or updates its person (server/ldap/people.ts),
// linked people gone from the directory are disabled, and the roles mapped to directory groups are
// given and taken back (server/ldap/group-roles.ts). One process at a time
// synchronises a connection (`claimed_until`). The report is stored (server/ldap/report.ts).
import type { Ctx } from '../context';
import type { LdapSyncReport, LdapSyncSummary } from '../../src/core/schemas/ldap';
import type { Actor } from '../auth/actor';
import { ApiError } from '../http/errors';
import { Status } from '../../src/core/enums';
import { withFieldRules } from '../field-rules-scope';
import { directoryActor } from './actor';
import { Directory, DirectoryError, type DirectoryGroups, type DirectoryPerson } from './directory';
import { settingsOf, type LdapConnectionRow } from './connections';
import { createPeople, linksOf, outsideDirectoryAll, updatePerson, type PersonOutcome } from './people';
import { dnKey } from './dn';
import { applyGroupRoles, nestedGroups, type GroupMember } from './group-roles';
import { emptySummary, runRecord, storeReport } from './report';

/** How long a claim holds if its process dies mid-run (a run of 100,000 people stays well inside). */
const CLAIM_MS = 30 * 60_000;

const SYNC_RUNNING = 'A synchronisation of this directory is already running';

/**
 * Claims the connection for one run, only if no run holds it and none has finished since `row` was
 * read: a burst of "Synchronise now", or one racing the scheduled tick, runs once.
 */
async function claim(ctx: Ctx, row: LdapConnectionRow): Promise<boolean> {
  const now = ctx.now();
  const result = await ctx.db
    .updateTable('ldapConnections')
    .set({ claimedUntil: now + CLAIM_MS })
    .where('id', '=', row.id)
    .where('claimedUntil', '<', now)
    .where((where) => (row.lastSyncAt === null ? where('lastSyncAt', 'is', null) : where('lastSyncAt', '=', row.lastSyncAt)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Reads every person and group of the directory, or throws a DirectoryError. */
async function readDirectory(ctx: Ctx, row: LdapConnectionRow) {
  const directory = await Directory.open(ctx, { settings: settingsOf(row), bindSecret: row.bindSecret });
  try {
    return { people: await directory.people(), groups: await directory.groups() };
  } finally {
    await directory.close();
  }
}

/** The groups of a person: memberOf on the entry, their primary group, the groups listing them, and
 *  the groups those are in. */
function groupsOf(person: DirectoryPerson, { byMember, bySid }: DirectoryGroups): Set<string> {
  const primary = bySid.get(person.primaryGroup);
  return nestedGroups([...person.groups.map(dnKey), ...(primary ? [primary] : []), ...(byMember.get(dnKey(person.dn)) ?? [])], byMember);
}

/** One run; `ranBy`: the administrator who asked for it ("Synchronise now"), recorded with its report. */
export async function synchronise(
  ctx: Ctx,
  row: LdapConnectionRow,
  trigger: LdapSyncReport['trigger'],
  ip: string | null,
  ranBy?: Actor,
): Promise<LdapSyncReport> {
  if (!(await claim(ctx, row))) throw new ApiError(409, SYNC_RUNNING);
  const startedAt = ctx.now();
  const summary = emptySummary();
  let finishedAt = startedAt;
  try {
    await withFieldRules(ctx, () => run(ctx, row, summary, ip));
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    summary.error = { step: error.step, message: error.message };
  } finally {
    // Taken before the claim is released, so that the next run's report starts after this one's ends.
    finishedAt = ctx.now();
    await ctx.db.updateTable('ldapConnections').set({ claimedUntil: 0, lastSyncAt: startedAt }).where('id', '=', row.id).execute();
  }
  const report: Omit<LdapSyncReport, 'id'> = { trigger, startedAt, finishedAt, outcome: summary.error ? 'failure' : 'success', summary };
  return storeReport(ctx, row.id, report, ranBy && ((stored) => runRecord(row, ranBy, ip, stored)));
}

async function run(ctx: Ctx, row: LdapConnectionRow, summary: LdapSyncSummary, ip: string | null): Promise<void> {
  const { people, groups } = await readDirectory(ctx, row);
  const tenant = await ctx.db.selectFrom('tenants').select('path').where('id', '=', row.tenantId).executeTakeFirstOrThrow();
  const actor = directoryActor(row, tenant.path);
  const address = ip ?? '';
  const links = await linksOf(ctx, row.id);
  // A conflict of a person otherwise brought in step (a new name someone here has) is reported too.
  const count = (outcome: PersonOutcome, disabledNow = false) => {
    if (outcome.conflict) summary.conflicts.push(outcome.conflict);
    if (disabledNow) summary.disabled += 1;
    else if (outcome.kind !== 'conflict' && outcome.kind !== 'unchanged') summary[outcome.kind] += 1;
  };
  const members = new Map<string, GroupMember>();
  const seen = new Set<string>();
  const unique = people.filter((person) => !seen.has(person.externalId) && seen.add(person.externalId));
  summary.seen = unique.length;
  await inChunks(ctx, unique, async (chunk) => {
    const outside = await outsideDirectoryAll(
      ctx,
      actor,
      chunk.flatMap((person) => links.get(person.externalId)?.user ?? []),
    );
    for (const person of chunk) {
      const linked = links.get(person.externalId);
      if (!linked) continue;
      const outcome = await updatePerson(ctx, actor, row.id, linked, person, address, outside.get(linked.user.id));
      count(outcome, outcome.kind === 'updated' && person.disabled && linked.user.availabilityStatus === Status.Enable);
      if (outcome.kind !== 'conflict') members.set(outcome.user.id, { user: outcome.user, groups: groupsOf(person, groups) });
    }
    // The new entries of the chunk together: a few queries and one insert (createPeople).
    const fresh = chunk.filter((person) => !links.has(person.externalId));
    const outcomes = await createPeople(ctx, actor, row.id, row.tenantId, fresh, address);
    outcomes.forEach((outcome, index) => {
      count(outcome);
      if (outcome.kind !== 'conflict') members.set(outcome.user.id, { user: outcome.user, groups: groupsOf(fresh[index]!, groups) });
    });
  });
  const gone = [...links].filter(([externalId]) => !seen.has(externalId)).map(([, linked]) => linked);
  await inChunks(ctx, gone, async (chunk) => {
    const outside = await outsideDirectoryAll(
      ctx,
      actor,
      chunk.map((linked) => linked.user),
    );
    for (const linked of chunk) {
      const outcome = await updatePerson(ctx, actor, row.id, linked, undefined, address, outside.get(linked.user.id));
      count(outcome, outcome.kind === 'updated');
      // A person the directory no longer speaks for (a conflict: made an administrator here since)
      // keeps the roles its groups gave, as one whose entry is still there does.
      if (outcome.kind !== 'conflict') members.set(linked.user.id, { user: linked.user, groups: new Set() });
    }
  });
  summary.roleChanges = await applyGroupRoles(ctx, settingsOf(row), actor, [...members.values()], address, (items, work) => inChunks(ctx, items, work));
}

/** People per transaction: each changed person's change is a savepoint of it (a refused one is
 *  rolled back alone), the chunk's new people are written together (createPeople), and thousands of
 *  people cost a few dozen commits, not thousands. */
const CHUNK = 200;

async function inChunks<T>(ctx: Ctx, items: T[], work: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += CHUNK) await ctx.audit.change(() => work(items.slice(start, start + CHUNK)));
}
