// user calls. Administrators (Permission.Users) reach the users of their scope (platform: all; tenant
// administrator: tenant users of their subtree); every user reaches their own basic info.
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as v from 'valibot';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  basicInfo, basicInfoBody, contactConfirmBody, passwordBody, profileAnswer, selfPasswordBody, user as userSchema, userCreateBody, userSaveBody, userSaveDoc, userUpdateBody,
} from '../../src/core/schemas/users';
import { adminUserList, adminUserListQuery, roleIdsBody, userAppParams, userAppRolesList } from '../../src/core/schemas/admin';
import { Status, UserType } from '../../src/core/enums';
import type { User } from '../../src/core/types';
import { parseExtraProp, type Actor, type UserRow } from '../auth/actor';
import { manageableUser, scopeUsers, tenantPathOf } from '../auth/scope';
import { assertMayGrantInApp, assertMayGrantRows, assertMayPlace, assertMayTakeOver, grantableApps } from '../auth/grants';
import { keysOfUser, lockedKeys } from '../auth/throttle';
import { hashPassword, verifyPassword } from '../auth/kdf';
import { newId } from '../auth/secrets';
import { storeNewPassword } from '../auth/password-policy';
import { passwordResetBody } from '../../src/core/schemas/password-reset';
import { resetPasswordWithCode } from './password-reset';
import { clearSessionCookie } from '../auth/gate';
import { paginate } from '../http/paging';
import { searchPlan, userStartsWith, type SearchPlan } from '../db/search';
import { fieldError, forbidden, notFound, unauthorized } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { isUniqueViolation } from '../db/errors';
import { assertContactsFree, confirmContactChange, contactsToConfirm, requestContactChanges, writingContacts } from '../auth/contacts';
import { endEveryAccess, revokeAppGrants } from '../oidc/revoke';
import { Permission } from '../../src/core/permissions';

const tags = ['Users'];
type CreateBody = v.InferOutput<typeof userCreateBody>;
type UpdateBody = v.InferOutput<typeof userUpdateBody>;

const blankToNull = (value: string | undefined | null) => (value === undefined ? undefined : value === '' ? null : value);

export async function toApiUser(ctx: Ctx, row: UserRow, locked?: boolean): Promise<User & Record<string, unknown>> {
  const isLocked = locked ?? (await lockedKeys(ctx, keysOfUser(row))).size > 0;
  return {
    id: row.id,
    username: row.username,
    realName: row.realName,
    ...(row.email ? { email: row.email } : {}),
    ...(row.mobilePhone ? { mobilePhone: row.mobilePhone } : {}),
    ...(row.description ? { description: row.description } : {}),
    ...(row.avatar ? { avatar: row.avatar } : {}),
    availabilityStatus: row.availabilityStatus as User['availabilityStatus'],
    extraProp: parseExtraProp(row),
    ...(row.tenantId ? { tenantId: row.tenantId } : {}),
    isAdmin: row.isAdmin === 1,
    isMaster: row.isMaster === 1,
    locked: isLocked,
    version: row.version,
    createdAt: row.createdAt,
  };
}

const toBasicInfo = (row: UserRow) => ({
  id: row.id, username: row.username, realName: row.realName,
  ...(row.avatar ? { avatar: row.avatar } : {}),
  ...(row.mobilePhone ? { mobilePhone: row.mobilePhone } : {}),
  ...(row.email ? { email: row.email } : {}),
  ...(row.description ? { description: row.description } : {}),
  version: row.version,
});

async function rootTenantId(ctx: Ctx): Promise<string> {
  const root = await ctx.db.selectFrom('tenants').select('id').where('parentId', 'is', null).executeTakeFirstOrThrow();
  return root.id;
}

/** The tenant, user type and admin flags a change may set, within the actor's powers. */
async function placement(ctx: Ctx, actor: Actor, wanted: { tenantId?: string; userType?: number; isAdmin?: boolean; isMaster?: boolean }, current?: UserRow) {
  const tenantId = wanted.tenantId ?? current?.tenantId ?? (actor.tenantAdmin ? actor.user.tenantId : await rootTenantId(ctx));
  const tenantPath = await tenantPathOf(ctx, tenantId);
  if (!tenantPath) throw fieldError([{ field: 'tenantId', rule: 'rule.tenantId' }]);
  const userType = wanted.userType ?? current?.userType ?? UserType.Tenant;
  const isMaster = wanted.isMaster ?? (current ? current.isMaster === 1 : false);
  assertMayPlace(actor, { tenantPath, userType, isMaster });
  if (isMaster && userType === UserType.Tenant) throw fieldError([{ field: 'isMaster', rule: 'rule.isMaster' }]);
  return { tenantId, userType, isMaster: isMaster ? 1 : 0, isAdmin: (wanted.isAdmin ?? current?.isAdmin === 1) ? 1 : 0 };
}

async function assertUsernameFree(ctx: Ctx, username: string): Promise<void> {
  const taken = await ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (taken) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
}

/** Refuses a change that would leave no enabled platform administrator. */
async function keepOnePlatformAdmin(ctx: Ctx, userId: string): Promise<void> {
  const others = await ctx.db.selectFrom('users').select('id')
    .where('id', '!=', userId).where('isAdmin', '=', 1).where('isMaster', '=', 1)
    .where('userType', 'in', [UserType.Platform, UserType.System]).where('availabilityStatus', '=', Status.Enable)
    .limit(1).executeTakeFirst();
  if (!others) throw forbidden('The last platform administrator cannot be removed or demoted');
}

async function createUser(ctx: Ctx, actor: Actor, body: CreateBody, ip: string) {
  await assertUsernameFree(ctx, body.username);
  await assertContactsFree(ctx, { email: body.email, mobilePhone: body.mobilePhone });
  const place = await placement(ctx, actor, { tenantId: body.tenantId, userType: body.extraProp?.intProperty1, isAdmin: body.isAdmin, isMaster: body.isMaster });
  const { intProperty1: _type, ...extra } = body.extraProp ?? {};
  const now = ctx.now();
  const row: UserRow = {
    id: newId(), username: body.username, realName: body.realName,
    email: blankToNull(body.email) ?? null, mobilePhone: blankToNull(body.mobilePhone) ?? null,
    description: blankToNull(body.description) ?? null, avatar: blankToNull(body.avatar) ?? null,
    availabilityStatus: body.availabilityStatus ?? Status.Enable, extraProp: JSON.stringify(extra),
    ...place, passwordHash: await hashPassword(body.password), passwordChangedAt: now,
    version: 1, createdAt: now, updatedAt: now,
  };
  try {
    await writingContacts(() => ctx.db.insertInto('users').values(row).execute());
  } catch (error) {
    // A parallel create took the username (writingContacts answered a lost race for an address).
    if (isUniqueViolation(error)) throw fieldError([{ field: 'username', rule: 'rule.usernameTaken' }]);
    throw error;
  }
  await ctx.audit.record({ action: 'user.create', actor, target: { type: 'user', id: row.id }, tenantId: row.tenantId, ip, detail: { username: row.username } });
  return toApiUser(ctx, row, false);
}

async function updateUser(ctx: Ctx, actor: Actor, id: string, body: UpdateBody, ip: string) {
  const current = await manageableUser(ctx, actor, id);
  await assertMayTakeOver(ctx, actor, current, body);
  const place = await placement(ctx, actor, { tenantId: body.tenantId, userType: body.extraProp?.intProperty1, isAdmin: body.isAdmin, isMaster: body.isMaster }, current);
  const demoted = place.isAdmin === 0 || place.isMaster === 0 || place.userType === UserType.Tenant || body.availabilityStatus === Status.Disabled;
  if (current.isAdmin === 1 && current.isMaster === 1 && current.userType !== UserType.Tenant && demoted) await keepOnePlatformAdmin(ctx, id);
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
  await assertContactsFree(ctx, changes, id);
  const saved = await saveVersioned(ctx, id, body.version, changes);
  if (saved.availabilityStatus !== Status.Enable) await endEveryAccess(ctx, id);
  await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id }, tenantId: saved.tenantId, ip, detail: { fields: Object.keys(changes) } });
  return toApiUser(ctx, saved);
}

/** Writes `changes` when `version` is current (409 otherwise) and answers the new row; an address
 *  another account took meanwhile answers 400 on its field. */
async function saveVersioned(ctx: Ctx, id: string, version: number | undefined, changes: Partial<UserRow>): Promise<UserRow> {
  await writingContacts(() => updateVersioned(ctx.db, 'users', id, version, changes, ctx.now()));
  return ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Self, or an administrator whose scope holds the user. */
async function selfOrManageable(ctx: Ctx, actor: Actor, id: string): Promise<UserRow> {
  if (id === actor.id) return actor.user;
  if (!actor.permissions.includes(Permission.Users)) throw forbidden();
  return manageableUser(ctx, actor, id);
}

/** Basic info of a person. Administrators set another person's addresses directly; a new address
 *  of one's own is only sent a code (server/auth/contacts.ts) and named in the answer as pending. */
async function updateBasicInfo(ctx: Ctx, actor: Actor, target: UserRow, body: v.InferOutput<typeof basicInfoBody>, ip: string) {
  const contacts = {
    ...(body.mobilePhone !== undefined ? { mobilePhone: blankToNull(body.mobilePhone) } : {}),
    ...(body.email !== undefined ? { email: blankToNull(body.email) } : {}),
  };
  const pending = target.id === actor.id ? contactsToConfirm(target, contacts) : {};
  // What is pending is not written now (the old address stays in force until the code is confirmed).
  if (pending.email) delete contacts.email;
  if (pending.mobilePhone) delete contacts.mobilePhone;
  await assertContactsFree(ctx, contacts, target.id);
  await requestContactChanges(ctx, target, pending);
  const saved = await saveVersioned(ctx, target.id, body.version, {
    realName: body.realName,
    ...(body.avatar !== undefined ? { avatar: blankToNull(body.avatar) } : {}),
    ...contacts,
    ...(body.description !== undefined ? { description: blankToNull(body.description) } : {}),
  });
  await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id: target.id }, tenantId: target.tenantId, ip, detail: { basicInfo: true, pending: Object.keys(pending) } });
  return { ...toBasicInfo(saved), ...(pending.email ? { pendingEmail: pending.email } : {}), ...(pending.mobilePhone ? { pendingMobilePhone: pending.mobilePhone } : {}) };
}

/** Sets a new password (the policy's history applies) and signs the user out everywhere (their
 *  old sessions die with it). */
async function setPassword(ctx: Ctx, actor: Actor, target: UserRow, password: string, ip: string, reply: FastifyReply, self: boolean) {
  await storeNewPassword(ctx, target, password);
  await endEveryAccess(ctx, target.id);
  if (self) clearSessionCookie(reply.request, reply);
  await ctx.audit.record({ action: self ? 'password.change' : 'password.reset', actor, target: { type: 'user', id: target.id }, tenantId: target.tenantId, ip });
}

async function assertOwnPassword(actor: Actor, transformed: string): Promise<void> {
  if (!(await verifyPassword(actor.user.passwordHash, transformed))) throw fieldError([{ field: 'opUserPassword', rule: 'rule.wrongPassword' }]);
}

/** Every app whose roles the actor may grant, with its roles, each marked when the user holds it
 *  (apps and their roles are few; capped). */
async function appRolesOf(ctx: Ctx, actor: Actor, userId: string) {
  const grantable = grantableApps(actor);
  if (grantable?.length === 0) return [];
  let select = ctx.db.selectFrom('apps').select(['id', 'name']);
  if (grantable) select = select.where('id', 'in', grantable);
  const apps = await select.orderBy('name').limit(200).execute();
  const roles = apps.length
    ? await ctx.db.selectFrom('roles').select(['id', 'name', 'appId']).where('appId', 'in', apps.map((row) => row.id)).orderBy('name').limit(5000).execute()
    : [];
  const held = new Set((await ctx.db.selectFrom('roleMembers').select('roleId').where('userId', '=', userId).execute()).map((row) => row.roleId));
  return apps.map((row) => ({
    appId: row.id,
    appName: row.name,
    roles: roles.filter((role) => role.appId === row.id).map((role) => ({ id: role.id, name: role.name, assigned: held.has(role.id) })),
  }));
}

/** Replaces the roles a user holds in one app. */
async function setAppRoles(ctx: Ctx, actor: Actor, target: UserRow, appId: string, roleIds: string[], ip: string) {
  assertMayGrantInApp(actor, appId);
  await assertMayGrantRows(ctx, actor, 'roles', roleIds);
  const owner = await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst();
  if (!owner) throw notFound('App');
  const ids = [...new Set(roleIds)];
  const known = ids.length ? await ctx.db.selectFrom('roles').select('id').where('appId', '=', owner.id).where('id', 'in', ids).execute() : [];
  if (known.length !== ids.length) throw fieldError([{ field: 'roleIds', rule: 'rule.roleIds' }]);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('roleMembers').where('userId', '=', target.id)
      .where((eb) => eb('roleId', 'in', eb.selectFrom('roles').select('roles.id').where('roles.appId', '=', owner.id))).execute();
    if (ids.length) await trx.insertInto('roleMembers').values(ids.map((roleId) => ({ roleId, userId: target.id }))).execute();
  });
  await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id: target.id }, tenantId: target.tenantId, ip, detail: { appId: owner.id, roles: ids.length } });
}

export function userRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/user', tags, access: Permission.Users, summary: 'Users of my scope, paged; searchValue matches the start of searchProp (username, realName, email or mobilePhone), ASCII letters in either case',
    query: adminUserListQuery, response: adminUserList,
    handler: async ({ actor, query }) => {
      const subtree = query.tenantId && query.tenantMatch !== 'exact' ? await tenantPathOf(ctx, query.tenantId) : null;
      const { searchProp, searchValue } = query;
      /** The listed users, a search's matches read by `plan` (server/db/search.ts). */
      const listed = (plan?: SearchPlan) => {
        let select = scopeUsers(actor, ctx.db.selectFrom('users').selectAll('users'));
        if (searchProp && searchValue) select = select.where(userStartsWith(ctx.engine, searchProp, searchValue, plan));
        if (query.tenantId && query.tenantMatch === 'exact') select = select.where('users.tenantId', '=', query.tenantId);
        else if (query.tenantId) {
          select = select.where((eb) => eb('users.tenantId', 'in', eb.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${subtree ?? '-'}%`)));
        }
        return select.orderBy(`users.${query.sort}`, query.order).orderBy('users.id');
      };
      const population = async () => Number((await ctx.db.selectFrom('users').select((eb) => eb.fn.countAll().as('rows')).executeTakeFirstOrThrow()).rows);
      const page = await paginate<UserRow, User>(listed(), query, (row) => toApiUser(ctx, row, false), {
        key: 'users.id',
        ...(searchProp && searchValue ? { pageQuery: async (total: number) => listed(await searchPlan(ctx.engine, total, query.page * query.size, population)) } : {}),
      });
      const locked = await lockedKeys(ctx, page.list.flatMap((item) => keysOfUser({ username: item.username, email: item.email ?? null, mobilePhone: item.mobilePhone ?? null })));
      page.list.forEach((item) => { item.locked = keysOfUser({ username: item.username, email: item.email ?? null, mobilePhone: item.mobilePhone ?? null }).some((key) => locked.has(key)); });
      return page;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/user/:id', tags, access: Permission.SelfService, summary: 'One user (myself, or one of my scope)',
    params: idParams, response: userSchema,
    handler: async ({ actor, params }) => toApiUser(ctx, await selfOrManageable(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/user/:id/basic_info', tags, access: Permission.SelfService, summary: 'Basic info of a user (myself, or one of my scope)',
    params: idParams, response: basicInfo,
    handler: async ({ actor, params }) => toBasicInfo(await selfOrManageable(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/:id/basic_info', tags, access: Permission.SelfService,
    summary: 'Change the basic info of a user (myself, or one of my scope); a new email or phone of my own is pending until confirmed (see /user/profile)',
    params: idParams, body: basicInfoBody, response: profileAnswer,
    handler: async ({ actor, params, body, raw }) => {
      const target = await selfOrManageable(ctx, actor, params.id);
      await assertMayTakeOver(ctx, actor, target, body);
      return updateBasicInfo(ctx, actor, target, body, raw.ip);
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/profile', tags, access: Permission.SelfService,
    summary: 'Change my own profile. A new email address or mobile phone is not applied yet: a code is sent to it (answered as pendingEmail / pendingMobilePhone) and POST /user/profile/contact/confirm applies it',
    body: basicInfoBody, response: profileAnswer,
    handler: async ({ actor, body, raw }) => updateBasicInfo(ctx, actor, actor.user, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user/profile/contact/confirm', tags, access: Permission.SelfService,
    summary: 'Apply my pending email address or mobile phone with the code sent to it (a few wrong codes at most; checked again against other accounts)',
    body: contactConfirmBody, response: basicInfo, rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }) => {
      const saved = await confirmContactChange(ctx, actor.user, body.channel, body.code);
      await ctx.audit.record({ action: 'user.update', actor, target: { type: 'user', id: actor.id }, tenantId: actor.user.tenantId, ip: raw.ip, detail: { confirmed: body.channel } });
      return toBasicInfo(saved);
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user', tags, access: Permission.Users, summary: 'Create a user (or update one when the body carries its id)',
    body: userSaveBody, bodyDoc: userSaveDoc, response: userSchema,
    handler: async ({ actor, body, raw }) => 'password' in body
      ? createUser(ctx, actor, body, raw.ip)
      // the state rules: saving a user creates it when there is no id, otherwise updates it.
      : updateUser(ctx, actor, body.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/:id', tags, access: Permission.Users, summary: 'Update a user of my scope (409 when version is stale)',
    params: idParams, body: userUpdateBody, response: userSchema,
    handler: async ({ actor, params, body, raw }) => updateUser(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE', url: '/user/:id', tags, access: Permission.Users, summary: 'Delete a user of my scope',
    params: idParams, response: okAnswer,
    handler: async ({ actor, params, raw }) => {
      if (params.id === actor.id) throw forbidden('You cannot delete yourself');
      const target = await manageableUser(ctx, actor, params.id);
      if (target.isAdmin === 1 && target.isMaster === 1 && target.userType !== UserType.Tenant) await keepOnePlatformAdmin(ctx, target.id);
      await ctx.db.deleteFrom('users').where('id', '=', target.id).execute();
      await revokeAppGrants(ctx.db, target.id);
      await ctx.audit.record({ action: 'user.delete', actor, target: { type: 'user', id: target.id }, tenantId: target.tenantId, ip: raw.ip, detail: { username: target.username } });
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'POST', url: '/user/:id/password', tags, access: Permission.SelfService,
    summary: "Reset a password: an administrator's reset needs their own password, a self reset the old one; either signs the user out everywhere",
    params: idParams, body: passwordBody, response: okAnswer,
    handler: async ({ actor, params, body, raw }, reply) => {
      await assertOwnPassword(actor, body.opUserPassword);
      if ('loginUserId' in body || params.id === actor.id) {
        if (params.id !== actor.id || ('loginUserId' in body && body.loginUserId !== actor.id)) throw forbidden();
        await setPassword(ctx, actor, actor.user, body.password, raw.ip, reply, true);
        return null;
      }
      if (!actor.permissions.includes(Permission.Users)) throw forbidden();
      const target = await manageableUser(ctx, actor, params.id);
      if (body.id !== target.id) throw fieldError([{ field: 'id', rule: 'rule.id' }]);
      await assertMayTakeOver(ctx, actor, target);
      await setPassword(ctx, actor, target, body.password, raw.ip, reply, false);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/password', tags, access: 'public',
    summary: "Reset password: signed in, my own change (old password required); or, signed out, with a 'forgot password' code (identifier, code). Either signs the person out everywhere",
    body: v.union([selfPasswordBody, passwordResetBody], 'rule.required'), response: okAnswer, rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }, reply) => {
      if ('code' in body) return resetPasswordWithCode(ctx, body, raw.ip);
      if (!actor) throw unauthorized();
      if (body.loginUserId && body.loginUserId !== actor.id) throw forbidden();
      await assertOwnPassword(actor, body.opUserPassword);
      await setPassword(ctx, actor, actor.user, body.password, raw.ip, reply, true);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/user/:id/roles', tags, access: Permission.Users, summary: 'The roles of a user of my scope, per app (every app whose roles I may grant, each role marked when held)',
    params: idParams, response: userAppRolesList,
    handler: async ({ actor, params }) => appRolesOf(ctx, actor, (await manageableUser(ctx, actor, params.id)).id),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/:id/roles/:appId', tags, access: Permission.Users, summary: 'Set the roles a user of my scope holds in one app I administer',
    params: userAppParams, body: roleIdsBody, response: userAppRolesList,
    handler: async ({ actor, params, body, raw }) => {
      const target = await manageableUser(ctx, actor, params.id);
      await setAppRoles(ctx, actor, target, params.appId, body.roleIds, raw.ip);
      return appRolesOf(ctx, actor, target.id);
    },
  });
}
