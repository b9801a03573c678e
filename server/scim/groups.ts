// SCIM Groups (RFC 7643 §4.2) over tenants (docs/scim.md): a group is a tenant below the token's
// tenant (displayName ↔ name; new groups are "department" tenants directly below it) and its
// members are that tenant's own users. A person lives in one tenant, so a user is a member of at
// most one group: adding a member moves the user from the token's tenant into the group, removing
// moves them back; adding someone who is in another group is refused (409 uniqueness) rather than
// silently taking them out of it. Writes go through the console's services (tenants and users:
// rules, scope, audit).
import SCIMMY from 'scimmy';
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Ctx } from '../context';
import type { TenantTable } from '../db/tables';
import { TenantType, UserType } from '../../src/core/enums';
import { tenantCreateBody, tenantUpdateBody } from '../../src/core/schemas/resources';
import { scopeUsers } from '../auth/scope';
import * as tenants from '../services/tenants';
import { deleteTenant } from '../services/tenant-removal';
import * as users from '../services/users';
import { lockByName, lockUsers } from '../db/named-lock';
import type { ScimCaller } from './caller';
import { invalidValue, ScimError, scimNotFound } from './errors';
import { filterCondition, type FilterAttributes } from './filter';
import { listResponse, pageOf, projects, type ReadQuery } from './listing';
import { applyPatch } from './patch';
import { checked, externalIdOf, incoming, isoTime, locationOf, present, setExternalId } from './resource';

type ScimGroup = InstanceType<typeof SCIMMY.Schemas.Group>;
type Row = Selectable<TenantTable> & { externalId: string | null };
interface Member {
  value: string;
  display: string;
  $ref: string;
}

const isMemberOf = (userId: string) =>
  sql<SqlBool>`exists (select 1 from users m where m.tenant_id = tenants.id and m.id = ${userId} and m.user_type = ${UserType.Tenant})`;
const hasMembers = sql<SqlBool>`exists (select 1 from users m where m.tenant_id = tenants.id and m.user_type = ${UserType.Tenant})`;

const FILTERS: FilterAttributes = {
  id: { kind: 'text', column: 'tenants.id', caseExact: true },
  displayname: { kind: 'text', column: 'tenants.name' },
  externalid: { kind: 'text', column: 'scimGroupLinks.externalId', caseExact: true },
  members: { kind: 'equals', condition: isMemberOf, present: hasMembers },
  'members.value': { kind: 'equals', condition: isMemberOf, present: hasMembers },
  'meta.created': { kind: 'time', column: 'tenants.createdAt' },
  'meta.lastmodified': { kind: 'time', column: 'tenants.updatedAt' },
};

/** The groups of a caller: every tenant strictly below its token's tenant. */
function reachable(ctx: Ctx, caller: ScimCaller) {
  return ctx.db
    .selectFrom('tenants')
    .selectAll('tenants')
    .leftJoin('scimGroupLinks', (join) => join.onRef('scimGroupLinks.groupId', '=', 'tenants.id').on('scimGroupLinks.scopeId', '=', caller.tenantId))
    .select('scimGroupLinks.externalId')
    .where('tenants.path', 'like', `${caller.tenantPath}%`)
    .where('tenants.id', '!=', caller.tenantId);
}

async function rowOf(ctx: Ctx, caller: ScimCaller, id: string): Promise<Row> {
  const row = await reachable(ctx, caller).where('tenants.id', '=', id).executeTakeFirst();
  if (!row) throw scimNotFound('Group', id);
  return row;
}

/** The members of each group (its tenant users), by group id. */
async function membersOf(ctx: Ctx, groupIds: string[]): Promise<Map<string, Member[]>> {
  const members = new Map<string, Member[]>(groupIds.map((id) => [id, []]));
  if (!groupIds.length) return members;
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'realName', 'tenantId'])
    .where('tenantId', 'in', groupIds)
    .where('userType', '=', UserType.Tenant)
    .orderBy('username')
    .execute();
  const users = locationOf(ctx, '/Users');
  for (const row of rows) members.get(row.tenantId!)?.push({ value: row.id, display: row.realName, $ref: `${users}/${row.id}` });
  return members;
}

const scimGroupOf = (row: Row, members?: Member[]) => ({
  id: row.id,
  displayName: row.name,
  ...(row.externalId ? { externalId: row.externalId } : {}),
  ...(members ? { members } : {}),
  meta: { resourceType: 'Group', created: isoTime(row.createdAt), lastModified: isoTime(row.updatedAt) },
});

async function answer(ctx: Ctx, row: Row, projection: ReadQuery['projection']) {
  const members = projects(projection, 'members') ? (await membersOf(ctx, [row.id])).get(row.id) : undefined;
  return present(SCIMMY.Schemas.Group, scimGroupOf(row, members), locationOf(ctx, '/Groups'), projection);
}

export async function listGroups(ctx: Ctx, caller: ScimCaller, query: ReadQuery) {
  let select = reachable(ctx, caller);
  if (query.filter) select = select.where(filterCondition(query.filter, FILTERS));
  const { rows, total } = await pageOf<Row>(select, ['tenants.createdAt', 'tenants.id'], query);
  const members = projects(query.projection, 'members')
    ? await membersOf(
        ctx,
        rows.map((row) => row.id),
      )
    : undefined;
  const location = locationOf(ctx, '/Groups');
  return listResponse(
    rows.map((row) => present(SCIMMY.Schemas.Group, scimGroupOf(row, members?.get(row.id)), location, query.projection)),
    total,
    query.startIndex,
  );
}

export async function getGroup(ctx: Ctx, caller: ScimCaller, id: string, query: ReadQuery) {
  return answer(ctx, await rowOf(ctx, caller, id), query.projection);
}

const memberIdsOf = (group: ScimGroup) => [
  ...new Set((group.members ?? []).map((member) => member.value).filter((value): value is string => typeof value === 'string')),
];

interface MemberMoves {
  joining: string[];
  leaving: string[];
}

/** Who joins and who leaves `groupId` (null: a group still to be made) so that exactly `wanted`
 *  are its members; each new member is a user the caller reaches, in no other group. Nobody moves
 *  when one of them administers a tenant: a move would carry the administrator flag into another
 *  tenant (out of a group: over the token's whole tenant), and a token grants no administrator right. */
async function memberMoves(ctx: Ctx, caller: ScimCaller, groupId: string | null, wanted: string[]): Promise<MemberMoves> {
  // Who is where is read with their rows locked: two groups' PATCHes adding one person at once both
  // found them in no group and moved them twice (the second silently out of the first group).
  await lockUsers(ctx, (eb) =>
    eb.or([
      ...(wanted.length ? [eb('id', 'in', wanted)] : []),
      ...(groupId === null ? [] : [eb.and([eb('tenantId', '=', groupId), eb('userType', '=', UserType.Tenant)])]),
    ]),
  );
  const current =
    groupId === null
      ? []
      : await ctx.db
          .selectFrom('users')
          .select(['id', 'username', 'isAdmin'])
          .where('tenantId', '=', groupId)
          .where('userType', '=', UserType.Tenant)
          .execute();
  const joining = wanted.filter((id) => !current.some((member) => member.id === id));
  const leaving = current.filter((member) => !wanted.includes(member.id));
  const rows = joining.length ? await scopeUsers(caller.actor, ctx.db.selectFrom('users').selectAll('users')).where('users.id', 'in', joining).execute() : [];
  for (const id of joining) {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw invalidValue(`members: no user ${id}`);
    if (row.tenantId !== caller.tenantId) {
      throw new ScimError(409, 'uniqueness', `members: ${row.username} is a member of another group; a user belongs to one group (tenant) at a time`);
    }
  }
  const administrator = [...rows, ...leaving].find((member) => member.isAdmin === 1);
  if (administrator) {
    throw new ScimError(
      403,
      undefined,
      `members: ${administrator.username} administers a tenant; provisioning never moves an administrator between groups (tenants). Move them in the console`,
    );
  }
  return { joining, leaving: leaving.map((member) => member.id) };
}

/** Moves the users (the console's user update: scope, audit), guarded by each one's version. */
async function moveMembers(ctx: Ctx, caller: ScimCaller, groupId: string, { joining, leaving }: MemberMoves): Promise<void> {
  const move = async (id: string, tenantId: string) => {
    const { version } = await ctx.db.selectFrom('users').select('version').where('id', '=', id).executeTakeFirstOrThrow();
    await users.updateUser(ctx, caller.actor, id, { tenantId, version }, caller.ip);
  };
  for (const id of joining) await move(id, groupId);
  for (const id of leaving) await move(id, caller.tenantId);
}

/** Entra ID and Okta find a group by its displayName before they create or rename one, so a name
 *  is one group for a client (letters compared without case): a group of that name other than
 *  `except` is refused (409 uniqueness). The caller holds the tenant tree's lock (taken once per
 *  change), so a burst of one POST makes one group. (The console itself allows departments of one
 *  name in different places.) */
async function refuseTakenName(ctx: Ctx, caller: ScimCaller, name: string, except: string): Promise<void> {
  const named = reachable(ctx, caller)
    .where(sql<string>`lower(tenants.name)`, '=', name.toLowerCase())
    .where('tenants.id', '!=', except);
  if (await named.executeTakeFirst()) throw new ScimError(409, 'uniqueness', `displayName: a group named ${name} exists`);
}

export async function createGroup(ctx: Ctx, caller: ScimCaller, body: unknown, query: ReadQuery) {
  const group = incoming(SCIMMY.Schemas.Group, body);
  const externalId = externalIdOf(group);
  const input = checked(tenantCreateBody, { parentId: caller.tenantId, name: group.displayName, type: TenantType.Department });
  const created = await ctx.audit.change(async () => {
    // createTenant takes the tenant tree's lock, held until this change commits: the name and the
    // members are checked under it, against every group committed before (the new one excepted).
    const tenant = await tenants.createTenant(ctx, caller.actor, input, caller.ip);
    await refuseTakenName(ctx, caller, group.displayName, tenant.id);
    const moves = await memberMoves(ctx, caller, null, memberIdsOf(group));
    await setExternalId(ctx, caller, 'group', tenant.id, externalId);
    await moveMembers(ctx, caller, tenant.id, moves);
    return tenant;
  });
  return answer(ctx, await rowOf(ctx, caller, created.id), query.projection);
}

/** The group's lock to the end of the change: its writes and its removal run one after the other. */
const lockGroup = (ctx: Ctx, id: string) => lockByName(ctx, `scim group ${id}`);

/**
 * Writes a whole group (PUT, or the result of a PATCH: `wanted` makes it from the stored group) over
 * the group `id`: one change (its name, its link and every member's move, with their records), so a
 * refusal half-way leaves nothing moved. The group is read in the change under its lock: writes of
 * one group run one after the other, each over the members the one before left (Okta pushes each
 * membership change as a PATCH of its own, several at once: one made from members read before
 * another's commit put that one's member back out).
 */
async function writeGroup(ctx: Ctx, caller: ScimCaller, id: string, wanted: (current: Row) => ScimGroup | Promise<ScimGroup>): Promise<Row> {
  return ctx.audit.change(async () => {
    await lockGroup(ctx, id);
    const current = await rowOf(ctx, caller, id);
    const group = await wanted(current);
    const externalId = externalIdOf(group);
    const renamed = group.displayName !== current.name;
    // The tenant tree's lock before the members' rows, in createGroup's order (else a rename adding
    // someone and a new group with them would wait on each other).
    if (renamed) await tenants.lockTenantTree(ctx);
    const moves = await memberMoves(ctx, caller, current.id, memberIdsOf(group));
    if (renamed) {
      await refuseTakenName(ctx, caller, group.displayName, current.id);
      await tenants.updateTenant(ctx, caller.actor, current.id, checked(tenantUpdateBody, { name: group.displayName, version: current.version }), caller.ip);
    }
    await setExternalId(ctx, caller, 'group', current.id, externalId);
    await moveMembers(ctx, caller, current.id, moves);
    return rowOf(ctx, caller, id);
  });
}

export async function replaceGroup(ctx: Ctx, caller: ScimCaller, id: string, body: unknown, query: ReadQuery) {
  const replaced = await writeGroup(ctx, caller, id, () => incoming(SCIMMY.Schemas.Group, body));
  return answer(ctx, replaced, query.projection);
}

/** PATCH answers 204 No Content, as Entra ID expects of groups (a body would list every member). */
export async function patchGroup(ctx: Ctx, caller: ScimCaller, id: string, body: unknown): Promise<void> {
  await writeGroup(ctx, caller, id, async (current) => {
    const members = (await membersOf(ctx, [id])).get(id);
    return applyPatch(body, new SCIMMY.Schemas.Group(scimGroupOf(current, members), 'out', locationOf(ctx, '/Groups')));
  });
}

/** Deletes the group's tenant; its members move back to the token's tenant first (a group with
 *  groups below it is refused: 409). */
export async function deleteGroup(ctx: Ctx, caller: ScimCaller, id: string): Promise<void> {
  const current = await rowOf(ctx, caller, id);
  const child = await ctx.db.selectFrom('tenants').select('id').where('parentId', '=', current.id).limit(1).executeTakeFirst();
  if (child) throw new ScimError(409, undefined, 'The group has groups (sub-tenants) below it: delete or move them first');
  // One change: a refused delete (the tenant still has people the client did not provision) moves nobody.
  await ctx.audit.change(async () => {
    await lockGroup(ctx, id);
    await moveMembers(ctx, caller, current.id, await memberMoves(ctx, caller, current.id, []));
    await deleteTenant(ctx, caller.actor, current.id, caller.ip);
  });
}
