// One synchronisation of a tenant's directory (on demand, or scheduled by server/ldap/scheduler.ts):
// first the whole directory is read (people, then groups); only a complete read changes anything
// here, so a directory that stops answering half-way changes nothing (a partial list would disable
// everyone not read yet). Then each entry creates or updates its person (server/ldap/people.ts),
// linked people gone from the directory are disabled, and the roles mapped to directory groups are
// given and taken back (only those roles: roles granted here by hand stay). One process at a time
// synchronises a connection (`claimed_until`). The report is stored (server/ldap/report.ts).
import type { Ctx } from '../context';
import type { LdapSyncReport, LdapSyncSummary } from '../../src/core/schemas/ldap';
import type { Actor, UserRow } from '../auth/actor';
import { ApiError } from '../http/errors';
import { Status } from '../../src/core/enums';
import { withFieldRules } from '../field-rules-scope';
import { directoryActor } from './actor';
import { Directory, DirectoryError, type DirectoryPerson } from './directory';
import { settingsOf, type LdapConnectionRow } from './connections';
import { createPeople, linksOf, outsideDirectoryAll, updatePerson, type PersonOutcome } from './people';
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
    return { people: await directory.people(), groupsByMember: await directory.groupsByMember() };
  } finally {
    await directory.close();
  }
}

/** The group DNs (lower case) of a person: memberOf on the entry and the groups listing them. */
const groupsOf = (person: DirectoryPerson, byMember: Map<string, string[]>) => new Set([...person.groups, ...(byMember.get(person.dn.toLowerCase()) ?? [])]);

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
  const { people, groupsByMember } = await readDirectory(ctx, row);
  const tenant = await ctx.db.selectFrom('tenants').select('path').where('id', '=', row.tenantId).executeTakeFirstOrThrow();
  const actor = directoryActor(row, tenant.path);
  const address = ip ?? '';
  const links = await linksOf(ctx, row.id);
  const count = (outcome: PersonOutcome) => {
    if (outcome.kind === 'conflict') summary.conflicts.push(outcome.conflict);
    else if (outcome.kind !== 'unchanged') summary[outcome.kind] += 1;
  };
  const members = new Map<string, { user: UserRow; groups: Set<string> }>();
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
      const disabledNow = outcome.kind === 'updated' && person.disabled && linked.user.availabilityStatus === Status.Enable;
      if (disabledNow) summary.disabled += 1;
      else count(outcome);
      if (outcome.kind !== 'conflict') members.set(outcome.user.id, { user: outcome.user, groups: groupsOf(person, groupsByMember) });
    }
    // The new entries of the chunk together: a few queries and one insert (createPeople).
    const fresh = chunk.filter((person) => !links.has(person.externalId));
    const outcomes = await createPeople(ctx, actor, row.id, row.tenantId, fresh, address);
    outcomes.forEach((outcome, index) => {
      count(outcome);
      if (outcome.kind !== 'conflict') members.set(outcome.user.id, { user: outcome.user, groups: groupsOf(fresh[index]!, groupsByMember) });
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
      if (outcome.kind === 'updated') summary.disabled += 1;
      else count(outcome);
      // A person the directory no longer speaks for (a conflict: made an administrator here since)
      // keeps the roles its groups gave, as one whose entry is still there does.
      if (outcome.kind !== 'conflict') members.set(linked.user.id, { user: linked.user, groups: new Set() });
    }
  });
  summary.roleChanges = await applyGroupRoles(ctx, row, actor, members, address);
}

/** People per transaction: each changed person's change is a savepoint of it (a refused one is
 *  rolled back alone), the chunk's new people are written together (createPeople), and thousands of
 *  people cost a few dozen commits, not thousands. */
const CHUNK = 200;

async function inChunks<T>(ctx: Ctx, items: T[], work: (chunk: T[]) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += CHUNK) await ctx.audit.change(() => work(items.slice(start, start + CHUNK)));
}

/** Gives and takes back the roles mapped to directory groups; answers how many people changed. */
async function applyGroupRoles(
  ctx: Ctx,
  row: LdapConnectionRow,
  actor: ReturnType<typeof directoryActor>,
  members: Map<string, { user: UserRow; groups: Set<string> }>,
  ip: string,
): Promise<number> {
  const mapping = settingsOf(row).groupRoles;
  const mappedRoles = [...new Set(mapping.map((entry) => entry.roleId))];
  if (!mappedRoles.length) return 0;
  const held = await ctx.db.selectFrom('roleMembers').select(['roleId', 'userId']).where('roleId', 'in', mappedRoles).execute();
  const heldBy = new Map<string, Set<string>>();
  for (const { roleId, userId } of held) heldBy.set(userId, (heldBy.get(userId) ?? new Set()).add(roleId));
  let changed = 0;
  await inChunks(ctx, [...members.values()], async (chunk) => {
    for (const { user, groups } of chunk) await giveAndTakeBack(user, groups);
  });
  return changed;

  async function giveAndTakeBack(user: UserRow, groups: Set<string>) {
    const wanted = new Set(mapping.filter((entry) => groups.has(entry.groupDn.toLowerCase())).map((entry) => entry.roleId));
    const current = heldBy.get(user.id) ?? new Set<string>();
    const added = [...wanted].filter((role) => !current.has(role));
    const removed = [...current].filter((role) => !wanted.has(role));
    if (!added.length && !removed.length) return;
    changed += 1;
    await ctx.audit.change(async () => {
      if (removed.length) await ctx.db.deleteFrom('roleMembers').where('userId', '=', user.id).where('roleId', 'in', removed).execute();
      if (added.length)
        await ctx.db
          .insertInto('roleMembers')
          .values(added.map((roleId) => ({ roleId, userId: user.id })))
          .execute();
      await ctx.audit.record({
        action: 'user.update',
        actor,
        target: { type: 'user', id: user.id },
        tenantId: user.tenantId,
        ip,
        detail: { rolesAdded: added, rolesRemoved: removed, from: 'directory groups' },
      });
    });
  }
}
