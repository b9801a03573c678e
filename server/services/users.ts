// Users: the queries and audit records behind the user calls (server/routes/users.ts). Administrators
// (Permission.Users) reach the users of their scope (platform: all; tenant administrator: tenant
// users of their subtree); every user reaches their own basic info.
import type * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { AuditEvent } from '../audit';
import type { basicInfoBody, userCreateBody, userUpdateBody, passwordBody } from '../../src/core/schemas/users';
import type { adminUserListQuery } from '../../src/core/schemas/admin';
import { Status, UserType } from '../../src/core/enums';
import { Permission } from '../../src/core/permission-codes';
import type { ContactField } from '../auth/contacts';
import { usernameKey, usernameTaken } from '../auth/usernames';
import type { Actor, UserRow } from '../auth/actor';
import { manageableUser, scopeUsers, tenantPathOf } from '../auth/scope';
import { actionableUser, assertMayActOn, assertMayGrantInApp, assertMayGrantRows, assertMayPlace, grantableApps } from '../auth/grants';
import { clearFailures, keysOfUser, lockedKeys } from '../auth/throttle';
import { hashPassword } from '../auth/kdf';
import { recheck } from '../auth/recheck';
import { assertContactChangeProved } from '../auth/contact-change';
import { newId } from '../auth/secrets';
import { storeNewPassword } from '../auth/password-policy';
import {
  applyContactChange,
  assertContactsFree,
  checkContactCode,
  CONTACT_FIELDS,
  contactsTakenError,
  contactsToConfirm,
  heldContactKey,
  heldContacts,
  requestContactChanges,
  writingContacts,
} from '../auth/contacts';
import { paginate } from '../http/paging';
import { loweredUserColumn, searchPlan, userStartsWith, type SearchPlan } from '../db/search';
import { ApiError, fieldError, forbidden, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { isUniqueViolation } from '../db/errors';
import { removedOnce } from '../db/removal';
import { endEveryAccess, revokeAppGrants } from '../oidc/revoke';
import { basicInfoAnswer, userAnswer } from './user-answer';
import { keepingOnePlatformAdmin } from './last-platform-admin';
import { changed, namedChange, roleMembersLock, saveJoinList } from './list-save';
import type { User } from '../../src/core/types';
import { changesFollowRules } from '../../src/core/validation/changed-fields';
import { ruledUserFields } from '../../src/core/validation/user';

type CreateBody = v.InferOutput<typeof userCreateBody>;
type UpdateBody = v.InferOutput<typeof userUpdateBody>;
type BasicInfoBody = v.InferOutput<typeof basicInfoBody>;

const blankToNull = (value: string | undefined | null) => (value === undefined ? undefined : value === '' ? null : value);

/** The answer for a user row, with whether its sign-in is locked (looked up unless given). */
export async function toApiUser(ctx: Ctx, row: UserRow, locked?: boolean): Promise<User> {
  return userAnswer(row, locked ?? (await lockedKeys(ctx, keysOfUser(row))).size > 0);
}

type ListQuery = Pick<v.InferOutput<typeof adminUserListQuery>, 'searchProp' | 'searchValue' | 'tenantId' | 'tenantMatch'>;

/** The users of the actor's scope that the list's search and tenant filter select (unordered); a
 *  search's matches are read by `plan` (server/db/search.ts). The list and the CSV export use it. */
export async function listedUsers(ctx: Ctx, actor: Actor, query: ListQuery) {
  const subtree = query.tenantId && query.tenantMatch !== 'exact' ? await tenantPathOf(ctx, query.tenantId) : null;
  const { searchProp, searchValue } = query;
  return (plan?: SearchPlan) => {
    let select = scopeUsers(actor, ctx.db.selectFrom('users').selectAll('users'));
    if (searchProp && searchValue) select = select.where(userStartsWith(ctx.engine, searchProp, searchValue, plan));
    if (query.tenantId && query.tenantMatch === 'exact') select = select.where('users.tenantId', '=', query.tenantId);
    else if (query.tenantId) {
      select = select.where((eb) =>
        eb(
          'users.tenantId',
          'in',
          eb
            .selectFrom('tenants')
            .select('tenants.id')
            .where('tenants.path', 'like', `${subtree ?? '-'}%`),
        ),
      );
    }
    return select;
  };
}

/** A page of the users of the actor's scope, searched, filtered by tenant and sorted as asked. */
export async function listUsers(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof adminUserListQuery>) {
  const { searchProp, searchValue } = query;
  const matching = await listedUsers(ctx, actor, query);
  const listed = (plan?: SearchPlan) => matching(plan).orderBy(`users.${query.sort}`, query.order).orderBy('users.id');
  const population = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('rows'))
          .executeTakeFirstOrThrow()
      ).rows,
    );
  const rows: UserRow[] = [];
  const page = await paginate<UserRow, UserRow>(listed(), query, (row) => row, {
    key: 'users.id',
    ...(searchProp && searchValue
      ? { pageQuery: async (total: number) => listed(await searchPlan(ctx.engine, total, query.page * query.size, population)) }
      : {}),
  });
  rows.push(...page.list);
  // One lookup of the locks for the whole page.
  const locked = await lockedKeys(ctx, rows.flatMap(keysOfUser));
  return {
    ...page,
    list: rows.map((row) =>
      userAnswer(
        row,
        keysOfUser(row).some((key) => locked.has(key)),
      ),
    ),
  };
}

export async function rootTenantId(ctx: Ctx): Promise<string> {
  const root = await ctx.db.selectFrom('tenants').select('id').where('parentId', 'is', null).executeTakeFirstOrThrow();
  return root.id;
}

/** The tenant, user type and admin flags a change may set, within the actor's powers (`pathOf`:
 *  a tenant's path, looked up unless the caller keeps them, as a user import does). */
export async function placement(
  ctx: Ctx,
  actor: Actor,
  wanted: { tenantId?: string; userType?: number; isAdmin?: boolean; isMaster?: boolean },
  current?: UserRow,
  pathOf: (tenantId: string | null) => Promise<string | null> = (tenantId) => tenantPathOf(ctx, tenantId),
) {
  const tenantId = wanted.tenantId ?? current?.tenantId ?? (actor.tenantAdmin ? actor.user.tenantId : await rootTenantId(ctx));
  const tenantPath = await pathOf(tenantId);
  if (!tenantPath) throw fieldError([{ field: 'tenantId', rule: 'rule.tenantId' }]);
  const userType = wanted.userType ?? current?.userType ?? UserType.Tenant;
  const isMaster = wanted.isMaster ?? (current ? current.isMaster === 1 : false);
  assertMayPlace(actor, { tenantPath, userType, isMaster });
  if (isMaster && userType === UserType.Tenant) throw fieldError([{ field: 'isMaster', rule: 'rule.isMaster' }]);
  return { tenantId, userType, isMaster: isMaster ? 1 : 0, isAdmin: (wanted.isAdmin ?? current?.isAdmin === 1) ? 1 : 0 };
}

/** A username nobody has in any letter case (server/auth/usernames.ts). */
async function assertUsernameFree(ctx: Ctx, username: string): Promise<void> {
  if (await usernameTaken(ctx, username)) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
}

/** The stored row of a new person (createUser, createUsers). */
function newUserRow(body: CreateBody, place: Placement, passwordHash: string, now: number): UserRow {
  const { intProperty1: _type, ...extra } = body.extraProp ?? {};
  return {
    id: newId(),
    username: body.username,
    realName: body.realName,
    email: blankToNull(body.email) ?? null,
    mobilePhone: blankToNull(body.mobilePhone) ?? null,
    description: blankToNull(body.description) ?? null,
    avatar: blankToNull(body.avatar) ?? null,
    availabilityStatus: body.availabilityStatus ?? Status.Enable,
    extraProp: JSON.stringify(extra),
    ...place,
    passwordHash,
    passwordChangedAt: now,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

type Placement = Awaited<ReturnType<typeof placement>>;

const placementOf = (ctx: Ctx, actor: Actor, body: CreateBody) =>
  placement(ctx, actor, { tenantId: body.tenantId, userType: body.extraProp?.intProperty1, isAdmin: body.isAdmin, isMaster: body.isMaster });

const createdEvent = (actor: Actor, row: UserRow, ip: string): AuditEvent => ({
  action: 'user.create',
  actor,
  target: { type: 'user', id: row.id },
  tenantId: row.tenantId,
  ip,
  detail: { username: row.username },
});

/** `passwordHash`: stored as given instead of the body's password hashed (a directory's person,
 *  server/ldap/people.ts, has no local password: a marker no password verifies against). */
export async function createUser(ctx: Ctx, actor: Actor, body: CreateBody, ip: string, options: { passwordHash?: string } = {}): Promise<User> {
  await assertUsernameFree(ctx, body.username);
  await assertContactsFree(ctx, { email: body.email, mobilePhone: body.mobilePhone });
  const place = await placementOf(ctx, actor, body);
  const row = newUserRow(body, place, options.passwordHash ?? (await hashPassword(body.password)), ctx.now());
  await ctx.audit.change(async () => {
    await insertUser(ctx, row);
    await ctx.audit.record(createdEvent(actor, row, ip));
  });
  return userAnswer(row, false);
}

async function insertUser(ctx: Ctx, row: UserRow): Promise<void> {
  try {
    await writingContacts(() => ctx.db.insertInto('users').values(row).execute());
  } catch (error) {
    // A parallel create took the username (writingContacts answered a lost race for an address).
    if (isUniqueViolation(error)) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
    throw error;
  }
}

/**
 * Creates the people of `bodies` as createUser creates each (the same checks and refusals: a
 * username or an address someone here holds, or an earlier body took; a place out of the actor's
 * powers), for a caller that creates thousands (a directory synchronisation): the checks read the
 * whole list in a few queries, and the accepted rows are written by one insert with their audit
 * records in one statement, all in one change. Every one gets `passwordHash` (server/ldap/people.ts:
 * no local password). Answers, in the order of `bodies`, each stored row or the error that refused it.
 */
export async function createUsers(ctx: Ctx, actor: Actor, bodies: readonly CreateBody[], ip: string, passwordHash: string): Promise<(UserRow | ApiError)[]> {
  if (!bodies.length) return [];
  const usernames = new Set(
    (
      await ctx.db
        .selectFrom('users')
        .select('username')
        .where(loweredUserColumn(ctx.engine, 'username'), 'in', [...new Set(bodies.map((body) => usernameKey(body.username)))])
        .execute()
    ).map((row) => usernameKey(row.username)),
  );
  const contacts = await heldContacts(ctx, bodies);
  const places = new Map<string, Promise<Placement>>();
  const now = ctx.now();
  const answers: (UserRow | ApiError)[] = [];
  for (const body of bodies) {
    try {
      if (usernames.has(usernameKey(body.username))) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
      const taken = CONTACT_FIELDS.filter((field) => body[field] && contacts.has(heldContactKey(field, body[field])));
      if (taken.length) throw contactsTakenError(taken);
      const wanted = JSON.stringify([body.tenantId, body.extraProp?.intProperty1, body.isAdmin, body.isMaster]);
      if (!places.has(wanted)) places.set(wanted, placementOf(ctx, actor, body));
      const row = newUserRow(body, await places.get(wanted)!, passwordHash, now);
      usernames.add(usernameKey(row.username));
      for (const field of CONTACT_FIELDS) if (row[field]) contacts.add(heldContactKey(field, row[field]));
      answers.push(row);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      answers.push(error);
    }
  }
  return ctx.audit.change(async () => {
    const rows = answers.filter((answer): answer is UserRow => !(answer instanceof ApiError));
    const refused = await insertUsers(ctx, rows);
    const written = answers.map((answer) => (answer instanceof ApiError ? answer : (refused.get(answer) ?? answer)));
    await ctx.audit.recordAll(written.filter((answer): answer is UserRow => !(answer instanceof ApiError)).map((row) => createdEvent(actor, row, ip)));
    return written;
  });
}

/** Inserts `rows` at once; when a parallel write took a username or an address meanwhile, one at a
 *  time (a savepoint each), so that only the rows concerned are refused (mapped to their refusal). */
async function insertUsers(ctx: Ctx, rows: UserRow[]): Promise<Map<UserRow, ApiError>> {
  const refused = new Map<UserRow, ApiError>();
  if (!rows.length) return refused;
  try {
    await ctx.db.transaction().execute((trx) => trx.insertInto('users').values(rows).execute());
    return refused;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  for (const row of rows) {
    try {
      await ctx.db.transaction().execute(() => insertUser(ctx, row));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused.set(row, error);
    }
  }
  return refused;
}

/** `body` with its name and phone checked by the field rules in force where they differ from the
 *  stored person's: a stored value is never re-validated (src/core/validation/changed-fields.ts), so
 *  a person stored under other rules can still be edited, disabled and re-imported. */
function withRuledChanges<B extends { realName?: string; mobilePhone?: string }>(body: B, current: UserRow): B {
  const result = changesFollowRules({ realName: ruledUserFields.realName, mobilePhone: ruledUserFields.mobilePhone }, body, current);
  if (!result.success) throw fieldError(result.fields);
  return result.output;
}

export async function updateUser(ctx: Ctx, actor: Actor, id: string, changed: UpdateBody, ip: string): Promise<User> {
  const current = await actionableUser(ctx, actor, id);
  const body = withRuledChanges(changed, current);
  const place = await placement(
    ctx,
    actor,
    { tenantId: body.tenantId, userType: body.extraProp?.intProperty1, isAdmin: body.isAdmin, isMaster: body.isMaster },
    current,
  );
  const demoted = place.isAdmin === 0 || place.isMaster === 0 || place.userType === UserType.Tenant || body.availabilityStatus === Status.Disabled;
  const { intProperty1: _type, ...extra } = body.extraProp ?? JSON.parse(current.extraProp);
  const changes = {
    ...(body.realName !== undefined ? { realName: body.realName } : {}),
    ...(body.email !== undefined ? { email: blankToNull(body.email) } : {}),
    ...(body.mobilePhone !== undefined ? { mobilePhone: blankToNull(body.mobilePhone) } : {}),
    ...(body.description !== undefined ? { description: blankToNull(body.description) } : {}),
    ...(body.avatar !== undefined ? { avatar: blankToNull(body.avatar) } : {}),
    ...(body.availabilityStatus !== undefined ? { availabilityStatus: body.availabilityStatus } : {}),
    ...place,
    extraProp: JSON.stringify(extra),
  };
  await assertContactChangeProved(ctx, actor, current, changes, body.currentPassword, ip);
  await assertContactsFree(ctx, changes, id);
  const saved = await ctx.audit.change(async () => {
    const saved = await keepingOnePlatformAdmin(ctx, current, demoted, (db) => saveVersioned(ctx, db, id, body.version, changes));
    if (saved.availabilityStatus !== Status.Enable) await endEveryAccess(ctx, id);
    // `disabled` tells the audit log's readers (and webhooks, server/webhooks/events.ts) that this update disabled the person.
    const disabled = current.availabilityStatus === Status.Enable && saved.availabilityStatus !== Status.Enable;
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id },
      tenantId: saved.tenantId,
      formerTenantId: saved.tenantId === current.tenantId ? null : current.tenantId,
      ip,
      detail: { ...changeDetail(changedFields(current, saved, Object.keys(changes))), ...(disabled ? { disabled } : {}) },
    });
    return saved;
  });
  return toApiUser(ctx, saved);
}

export async function deleteUser(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  if (id === actor.id) throw forbidden('You cannot delete yourself');
  const target = await actionableUser(ctx, actor, id);
  await ctx.audit.change(async () => {
    // Before the delete: it cascades the person's SAML sessions, which the apps are told of first.
    await revokeAppGrants(ctx.db, target.id);
    await keepingOnePlatformAdmin(ctx, target, true, (db) => removedOnce(db.deleteFrom('users').where('id', '=', target.id).executeTakeFirst(), 'User'));
    await ctx.audit.record({
      action: 'user.delete',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
      detail: { username: target.username },
    });
  });
}

/**
 * A directory's rename of its person (server/ldap/people.ts): usernames never change in the console
 * or by SCIM, but a directory entry keeps its stable id when its sign-in name changes, and the
 * person here follows it. Refused (rule.usernameTaken) when someone else has the name in any letter
 * case, also when a parallel write took it (the unique index, as insertUser).
 */
export async function renameUser(ctx: Ctx, actor: Actor, id: string, username: string, ip: string): Promise<UserRow> {
  const current = await actionableUser(ctx, actor, id);
  const taken = fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
  if (usernameKey(username) !== usernameKey(current.username) && (await usernameTaken(ctx, username))) throw taken;
  return ctx.audit.change(async () => {
    const saved = await saveVersioned(ctx, ctx.db, id, current.version, { username }).catch((error: unknown) => {
      throw isUniqueViolation(error) ? taken : error;
    });
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id },
      tenantId: saved.tenantId,
      ip,
      detail: changeDetail(changedFields(current, saved, ['username'])),
    });
    return saved;
  });
}

/** Writes `changes` when `version` is current (409 otherwise) and answers the new row; an address
 *  another account took meanwhile answers 400 on its field. */
async function saveVersioned(ctx: Ctx, db: Kysely<Database>, id: string, version: number | undefined, changes: Partial<UserRow>): Promise<UserRow> {
  await writingContacts(() => updateVersioned(db, 'users', id, version, changes, ctx.now()));
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Self, or an administrator whose scope holds the user. */
export async function selfOrManageable(ctx: Ctx, actor: Actor, id: string): Promise<UserRow> {
  if (id === actor.id) return actor.user;
  if (!actor.permissions.includes(Permission.Users)) throw forbidden();
  return manageableUser(ctx, actor, id);
}

/** Basic info of a person. A changed address takes the caller's password (server/auth/contact-change.ts);
 *  administrators then set another person's addresses directly, while a new address of one's own is
 *  only sent a code (server/auth/contacts.ts) and named in the answer as pending. */
async function updateBasicInfo(ctx: Ctx, actor: Actor, target: UserRow, changed: BasicInfoBody, ip: string) {
  const body = withRuledChanges(changed, target);
  const contacts = {
    ...(body.mobilePhone !== undefined ? { mobilePhone: blankToNull(body.mobilePhone) } : {}),
    ...(body.email !== undefined ? { email: blankToNull(body.email) } : {}),
  };
  await assertContactChangeProved(ctx, actor, target, contacts, body.currentPassword, ip);
  const pending = target.id === actor.id ? contactsToConfirm(target, contacts) : {};
  // What is pending is not written now (the old address stays in force until the code is confirmed).
  if (pending.email) delete contacts.email;
  if (pending.mobilePhone) delete contacts.mobilePhone;
  await assertContactsFree(ctx, contacts, target.id);
  await requestContactChanges(ctx, target, pending);
  const saved = await ctx.audit.change(async () => {
    const changes = {
      realName: body.realName,
      ...(body.avatar !== undefined ? { avatar: blankToNull(body.avatar) } : {}),
      ...contacts,
      ...(body.description !== undefined ? { description: blankToNull(body.description) } : {}),
    };
    const saved = await saveVersioned(ctx, ctx.db, target.id, body.version, changes);
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
      detail: { basicInfo: true, ...changeDetail(changedFields(target, saved, Object.keys(changes))), pending: Object.keys(pending) },
    });
    return saved;
  });
  return {
    ...basicInfoAnswer(saved),
    ...(pending.email ? { pendingEmail: pending.email } : {}),
    ...(pending.mobilePhone ? { pendingMobilePhone: pending.mobilePhone } : {}),
  };
}

/** PUT /user/{id}/basic_info: of myself, or of a user of my scope. */
export async function updateBasicInfoOf(ctx: Ctx, actor: Actor, id: string, body: BasicInfoBody, ip: string) {
  const target = await selfOrManageable(ctx, actor, id);
  await assertMayActOn(ctx, actor, target);
  return updateBasicInfo(ctx, actor, target, body, ip);
}

/** PUT /user/profile: my own basic info. */
export const updateProfile = (ctx: Ctx, actor: Actor, body: BasicInfoBody, ip: string) => updateBasicInfo(ctx, actor, actor.user, body, ip);

/** Applies the actor's pending address of `channel` with the code sent to it. */
export async function confirmContact(ctx: Ctx, actor: Actor, channel: ContactField, code: string, ip: string) {
  // Checked (a wrong code counted) before the change, which rolls back whatever it wrote when refused.
  const proof = await checkContactCode(ctx, actor.user, channel, code);
  const saved = await ctx.audit.change(async () => {
    const saved = await applyContactChange(ctx, actor.user, channel, proof);
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id: actor.id },
      tenantId: actor.user.tenantId,
      ip,
      detail: { confirmed: channel },
    });
    return saved;
  });
  return basicInfoAnswer(saved);
}

/** Sets a new password (the policy's history applies) and ends the user's sessions and app grants
 *  everywhere. The caller clears the session cookie when `self`. */
async function setPassword(ctx: Ctx, actor: Actor, target: UserRow, password: string, ip: string, self: boolean): Promise<void> {
  await storeNewPassword(ctx, target, password, undefined, async () => {
    await endEveryAccess(ctx, target.id);
    await ctx.audit.record({
      action: self ? 'password.change' : 'password.reset',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
    });
  });
}

/** The actor's own current password, re-checked as the personal center's re-checks are (it counts
 *  towards the actor's sign-in lockout: server/auth/recheck.ts). */
const assertOwnPassword = (ctx: Ctx, actor: Actor, transformed: string, ip: string) => recheck(ctx, actor, { password: transformed }, ip, 'opUserPassword');

/** A signed-in person changes their own password with the old one. */
export async function changeOwnPassword(
  ctx: Ctx,
  actor: Actor,
  body: { loginUserId?: string; password: string; opUserPassword: string },
  ip: string,
): Promise<void> {
  if (body.loginUserId && body.loginUserId !== actor.id) throw forbidden();
  await assertOwnPassword(ctx, actor, body.opUserPassword, ip);
  await setPassword(ctx, actor, actor.user, body.password, ip, true);
}

/** POST /user/{id}/password: a self reset (with the old password) or an administrator's reset of a
 *  user of their scope (with their own password). Answers whether it was the actor's own. */
export async function resetPassword(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof passwordBody>, ip: string): Promise<{ self: boolean }> {
  await assertOwnPassword(ctx, actor, body.opUserPassword, ip);
  if ('loginUserId' in body || id === actor.id) {
    if (id !== actor.id || ('loginUserId' in body && body.loginUserId !== actor.id)) throw forbidden();
    await setPassword(ctx, actor, actor.user, body.password, ip, true);
    return { self: true };
  }
  if (!actor.permissions.includes(Permission.Users)) throw forbidden();
  const target = await actionableUser(ctx, actor, id);
  if (body.id !== target.id) throw fieldError([{ field: 'id', rule: 'rule.id' }]);
  await setPassword(ctx, actor, target, body.password, ip, false);
  return { self: false };
}

/** Every app whose roles the actor may grant, with its roles, each marked when the user holds it
 *  (apps and their roles are few; capped). */
export async function appRolesOf(ctx: Ctx, actor: Actor, userId: string) {
  const grantable = grantableApps(actor);
  if (grantable?.length === 0) return [];
  let select = ctx.db.selectFrom('apps').select(['id', 'name']);
  if (grantable) select = select.where('id', 'in', grantable);
  const apps = await select.orderBy('name').orderBy('id').limit(200).execute();
  const roles = apps.length
    ? await ctx.db
        .selectFrom('roles')
        .select(['id', 'name', 'appId'])
        .where(
          'appId',
          'in',
          apps.map((row) => row.id),
        )
        .orderBy('name')
        .orderBy('id')
        .limit(5000)
        .execute()
    : [];
  const held = new Set((await ctx.db.selectFrom('roleMembers').select('roleId').where('userId', '=', userId).execute()).map((row) => row.roleId));
  return apps.map((row) => ({
    appId: row.id,
    appName: row.name,
    roles: roles.filter((role) => role.appId === row.id).map((role) => ({ id: role.id, name: role.name, assigned: held.has(role.id) })),
  }));
}

/** Replaces the roles a user holds in one app. */
export async function setAppRoles(ctx: Ctx, actor: Actor, target: UserRow, appId: string, roleIds: string[], ip: string): Promise<void> {
  assertMayGrantInApp(actor, appId);
  await assertMayGrantRows(ctx, actor, 'roles', roleIds);
  const owner = await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst();
  if (!owner) throw notFound('App');
  const ids = [...new Set(roleIds)];
  const known = ids.length ? await ctx.db.selectFrom('roles').select('id').where('appId', '=', owner.id).where('id', 'in', ids).execute() : [];
  if (known.length !== ids.length) throw fieldError([{ field: 'roleIds', rule: 'rule.roleIds' }]);
  await ctx.audit.change(async () => {
    const change = await saveJoinList(
      ctx,
      {
        table: 'roleMembers',
        owner: { column: 'userId', id: target.id },
        item: 'roleId',
        among: ctx.db.selectFrom('roles').select('roles.id').where('roles.appId', '=', owner.id),
        lock: roleMembersLock(owner.id),
      },
      ids,
    );
    if (!changed(change)) return;
    await ctx.audit.record({
      action: 'user.update',
      actor,
      target: { type: 'user', id: target.id },
      tenantId: target.tenantId,
      ip,
      detail: { appId: owner.id, roles: await namedChange(ctx, 'role', change) },
    });
  });
}

/** Clears the failed sign-ins that lock a user of the actor's scope (also a bulk action). Never
 *  one's own: the personal center's re-checks count towards that lock (server/auth/recheck.ts), and
 *  a session unlocking itself could guess its password without end. A user with no failure counted
 *  (never locked, or unlocked by a parallel call first) is unlocked already: no event, no record. */
export async function unlockUser(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  if (id === actor.id) throw forbidden('You cannot unlock your own account');
  const user = await actionableUser(ctx, actor, id);
  await ctx.audit.change(async () => {
    if ((await clearFailures(ctx, keysOfUser(user))) === 0) return;
    await ctx.audit.record({ action: 'user.unlock', actor, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip });
  });
}
