// Apps: the queries and audit records behind the app calls (server/routes/apps.ts). Platform
// administrators manage all apps and choose their administrators; an app administrator reaches
// only the apps they administer. Privilege trees: privileges.ts; roles: roles.ts.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { AppTable } from '../db/tables';
import type { appCreateBody, appListQuery, appUpdateBody } from '../../src/core/schemas/resources';
import { MEMBER_LOOKUP_LIMIT } from '../../src/core/schemas/admin';
import { Status } from '../../src/core/enums';
import type { Actor } from '../auth/actor';
import { canManageApp, canManageUser, requirePlatform } from '../auth/scope';
import { assertMayAppointAppAdmins } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { isUniqueViolation } from '../db/errors';
import { removedOnce } from '../db/removal';
import { MEMBER_COLUMNS } from './user-answer';
import { changed, namedChange, recordEachPerson, saveJoinList } from './list-save';

export type AppRow = Selectable<AppTable>;

/** An app row as the API answers it. */
export const toApp = (row: AppRow) => ({ ...row, isMaster: row.isMaster === 1 });

/** '' clears an optional text column. */
const blank = (value: string | null | undefined) => (value === undefined ? undefined : value || null);

/** Runs `write`; a unique-constraint violation becomes a field error on `field` (`rule`: what is taken). */
export async function unique<T>(field: string, write: () => Promise<T>, rule = 'rule.duplicate'): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError([{ field, rule }]);
    throw error;
  }
}

/** The app, when the actor may manage it (404 otherwise: others' apps are not revealed). */
export async function manageableApp(ctx: Ctx, actor: Actor, id: string): Promise<AppRow> {
  const row = await ctx.db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || !canManageApp(actor, row.id)) throw notFound('App');
  return row;
}

/** The users of an app's administrators or a role's members, by username. */
export async function members(ctx: Ctx, table: 'appAdmins' | 'roleMembers', column: 'appId' | 'roleId', id: string) {
  return ctx.db
    .selectFrom(table)
    .innerJoin('users', 'users.id', `${table}.userId`)
    .select(MEMBER_COLUMNS)
    .where(`${table}.${column}` as 'appAdmins.appId', '=', id)
    .orderBy('users.username')
    .execute();
}

export async function listApps(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof appListQuery>) {
  let select = ctx.db.selectFrom('apps').selectAll();
  if (!actor.platformAdmin) select = select.where('id', 'in', actor.ownedApps.length ? actor.ownedApps.map((owned) => owned.id) : ['-']);
  if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
  return paginate(select.orderBy('name').orderBy('id'), query, toApp);
}

export async function createApp(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof appCreateBody>, ip: string) {
  requirePlatform(actor);
  const now = ctx.now();
  const row: AppRow = {
    id: newId(),
    name: body.name,
    detail: blank(body.detail) ?? null,
    entrypoint: blank(body.entrypoint) ?? null,
    callbackUrl: blank(body.callbackUrl) ?? null,
    isMaster: body.isMaster ? 1 : 0,
    status: body.status ?? Status.Enable,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.audit.change(async () => {
    await unique('name', () => ctx.db.insertInto('apps').values(row).execute());
    await ctx.audit.record({ action: 'app.create', actor, target: { type: 'app', id: row.id }, ip, detail: { name: row.name } });
  });
  return toApp(row);
}

export async function updateApp(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof appUpdateBody>, ip: string) {
  const current = await manageableApp(ctx, actor, id);
  if (body.isMaster !== undefined && !actor.platformAdmin) requirePlatform(actor);
  const changes = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.detail !== undefined ? { detail: blank(body.detail) } : {}),
    ...(body.entrypoint !== undefined ? { entrypoint: blank(body.entrypoint) } : {}),
    ...(body.callbackUrl !== undefined ? { callbackUrl: blank(body.callbackUrl) } : {}),
    ...(body.isMaster !== undefined ? { isMaster: body.isMaster ? 1 : 0 } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  await ctx.audit.change(async () => {
    await unique('name', () => updateVersioned(ctx.db, 'apps', current.id, body.version, changes, ctx.now()));
    await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: current.id }, ip, detail: changeDetail(changedFields(current, changes)) });
  });
  return toApp(await manageableApp(ctx, actor, current.id));
}

export async function deleteApp(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  requirePlatform(actor);
  const current = await manageableApp(ctx, actor, id);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('apps').where('id', '=', current.id).executeTakeFirst(), 'App');
    await ctx.audit.record({ action: 'app.delete', actor, target: { type: 'app', id: current.id }, ip, detail: { name: current.name } });
  });
}

export const appAdmins = async (ctx: Ctx, actor: Actor, id: string) => members(ctx, 'appAdmins', 'appId', (await manageableApp(ctx, actor, id)).id);

/** Every user id must exist and lie in the actor's user scope (anywhere for the platform administrator). */
async function checkUsers(ctx: Ctx, actor: Actor, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  const rows = await ctx.db.selectFrom('users').selectAll().where('id', 'in', userIds).execute();
  const reachable = await Promise.all(rows.map(async (row) => actor.platformAdmin || canManageUser(ctx, actor, row)));
  if (rows.length !== new Set(userIds).size || reachable.some((ok) => !ok)) throw fieldError([{ field: 'userIds', rule: 'rule.userIds' }]);
}

export async function setAppAdmins(ctx: Ctx, actor: Actor, id: string, userIds: string[], ip: string) {
  assertMayAppointAppAdmins(actor);
  const current = await manageableApp(ctx, actor, id);
  await checkUsers(ctx, actor, userIds);
  await ctx.audit.change(async () => {
    const list = { table: 'appAdmins', owner: { column: 'appId', id: current.id }, item: 'userId', lock: `app ${current.id} administrators` } as const;
    const change = await saveJoinList(ctx, list, [...new Set(userIds)]);
    if (!changed(change)) return;
    const detail = { admins: await namedChange(ctx, 'user', change) };
    const recorded = await ctx.audit.record({ action: 'app.update', actor, target: { type: 'app', id: current.id }, ip, detail });
    await recordEachPerson(ctx, recorded, change, { actor, ip }, (added) => ({
      appId: current.id,
      ...changeDetail({ appAdmin: { from: !added, to: added } }),
    }));
  });
  return members(ctx, 'appAdmins', 'appId', current.id);
}

/** A few enabled users whose username or real name contains `text` (member pickers of an app I manage). */
export async function lookupMembers(ctx: Ctx, actor: Actor, appId: string, text: string) {
  await manageableApp(ctx, actor, appId);
  // No ORDER BY: the scan stops at the first few matches (sorting all matches through the
  // username index took ~0.5 s over 100 000 users); the few found are sorted here.
  const found = await ctx.db
    .selectFrom('users')
    .select(MEMBER_COLUMNS)
    .where('availabilityStatus', '=', Status.Enable)
    .where((eb) => eb.or([contains(ctx.engine, 'users.username', text), contains(ctx.engine, 'users.realName', text)]))
    .limit(MEMBER_LOOKUP_LIMIT)
    .execute();
  return found.sort((a, b) => a.username.localeCompare(b.username));
}
