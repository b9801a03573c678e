// Menu plans: the queries and audit records behind the menu-plan calls (server/routes/menu-plans.ts)
// and the menus the apps read (server/routes/app-menus.ts). One plan per app, one global plan (appId
// null); its items are kept as JSON and bound to privileges of that app.
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { MenuPlanTable } from '../db/tables';
import type { Actor } from '../auth/actor';
import type { PlanMenuItem, planBody, planListQuery, planUpdateBody } from '../../src/core/schemas/menu-plans';
import { boundPrivileges, heldPrivileges, visibleItems, type Viewer } from '../menus/visibility';
import { assertMayBindMenus } from '../auth/grants';
import { newId } from '../auth/secrets';
import { contains, paginate } from '../http/paging';
import { fieldError, notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { removedOnce } from '../db/removal';
import { lockByName } from '../db/named-lock';
import { withAdministration } from '../../src/core/administration-menu';

type MenuRow = Selectable<MenuPlanTable>;

const itemsOf = (row: Pick<MenuRow, 'items'>) => JSON.parse(row.items) as PlanMenuItem[];

/** A menu plan row as the API answers it (its items parsed). */
export const toMenuPlan = (row: MenuRow) => ({ ...row, items: itemsOf(row) });

/** The plan (404 when there is none). */
export async function planOf(ctx: Ctx, id: string): Promise<MenuRow> {
  const row = await ctx.db.selectFrom('menuPlans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Menu plan');
  return row;
}

/** The plan of an app (or of the global menu, appId null), if there is one. */
function planFor(ctx: Ctx, appId: string | null): Promise<MenuRow | undefined> {
  const select = ctx.db.selectFrom('menuPlans').selectAll();
  return (appId === null ? select.where('appId', 'is', null) : select.where('appId', '=', appId)).executeTakeFirst();
}

/** The plan of an app (or of the global menu, appId null) as the API answers it, or null. */
export async function planOfApp(ctx: Ctx, appId: string | null) {
  const row = await planFor(ctx, appId);
  return row ? toMenuPlan(row) : null;
}

async function assertAppExists(ctx: Ctx, appId: string | null): Promise<void> {
  if (appId && !(await ctx.db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst()))
    throw fieldError([{ field: 'appId', rule: 'rule.appId' }]);
}

/** Bound privileges must exist; an app's plan binds only that app's privileges. */
async function assertPrivilegesExist(ctx: Ctx, appId: string | null, items: PlanMenuItem[]): Promise<void> {
  const ids = boundPrivileges(items);
  if (!ids.length) return;
  let select = ctx.db.selectFrom('privileges').select('id').where('id', 'in', ids);
  if (appId) select = select.where('appId', '=', appId);
  if ((await select.execute()).length !== ids.length) throw fieldError([{ field: 'items', rule: 'rule.privilegeIds' }]);
}

export function listPlans(ctx: Ctx, query: v.InferOutput<typeof planListQuery>) {
  let select = ctx.db.selectFrom('menuPlans').selectAll();
  if (query.appId) select = select.where('appId', '=', query.appId);
  if (query.searchProp && query.searchValue) select = select.where(contains(ctx.engine, query.searchProp, query.searchValue));
  return paginate(select.orderBy('name').orderBy('id'), query, toMenuPlan);
}

export async function createPlan(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof planBody>, ip: string) {
  assertMayBindMenus(actor);
  const appId = body.appId ?? null;
  await assertAppExists(ctx, appId);
  await assertPrivilegesExist(ctx, appId, body.items);
  const now = ctx.now();
  const row: MenuRow = {
    id: newId(),
    appId,
    name: body.name,
    description: body.description || null,
    items: JSON.stringify(body.items),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.audit.change(async () => {
    // One plan per app, also under a burst of creates: checked under a lock.
    await lockByName(ctx, 'menu plans');
    if (await planFor(ctx, appId)) throw fieldError([{ field: 'appId', rule: 'rule.duplicate' }]);
    await ctx.db.insertInto('menuPlans').values(row).execute();
    await ctx.audit.record({ action: 'menu.create', actor, target: { type: 'menu', id: row.id }, ip, detail: { name: row.name } });
  });
  return toMenuPlan(row);
}

export async function updatePlan(ctx: Ctx, actor: Actor, id: string, body: v.InferOutput<typeof planUpdateBody>, ip: string) {
  assertMayBindMenus(actor);
  const current = await planOf(ctx, id);
  const { version, items, description, ...fields } = body;
  if (items) await assertPrivilegesExist(ctx, current.appId, items);
  const changes = { ...fields, ...(items ? { items: JSON.stringify(items) } : {}), ...(description !== undefined ? { description: description || null } : {}) };
  await ctx.audit.change(async () => {
    await updateVersioned(ctx.db, 'menuPlans', current.id, version, changes, ctx.now());
    await ctx.audit.record({
      action: 'menu.update',
      actor,
      target: { type: 'menu', id: current.id },
      ip,
      detail: changeDetail(changedFields(current, changes)),
    });
  });
  return toMenuPlan(await planOf(ctx, current.id));
}

export async function deletePlan(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  assertMayBindMenus(actor);
  const current = await planOf(ctx, id);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('menuPlans').where('id', '=', current.id).executeTakeFirst(), 'Menu plan');
    await ctx.audit.record({ action: 'menu.delete', actor, target: { type: 'menu', id: current.id }, ip, detail: { name: current.name } });
  });
}

/** The privileges a plan's items are bound to (names, keys, parents), for every reader of the plan:
 *  a tenant administrator cannot read apps' privilege trees, but sees a plan's bindings by name. */
export async function planPrivileges(ctx: Ctx, id: string) {
  const plan = await ctx.db.selectFrom('menuPlans').select('items').where('id', '=', id).executeTakeFirst();
  if (!plan) throw notFound('Menu plan');
  const ids = boundPrivileges(itemsOf(plan));
  if (!ids.length) return [];
  return ctx.db
    .selectFrom('privileges')
    .select(['id', 'appId', 'parentId', 'name', 'key', 'sort', 'path'])
    .where('id', 'in', ids)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Every plan's menu (or one app's), with only the items the viewer may see. */
export async function visibleMenus(ctx: Ctx, viewer: Viewer, appId: string | undefined) {
  let select = ctx.db
    .selectFrom('menuPlans')
    .leftJoin('apps', 'apps.id', 'menuPlans.appId')
    // A SAML app is opened from the portal by IdP-initiated sign-in rather than by its entrypoint.
    .leftJoin('samlServiceProviders', 'samlServiceProviders.appId', 'menuPlans.appId')
    .select([
      'menuPlans.id',
      'menuPlans.appId',
      'menuPlans.items',
      'menuPlans.name',
      'apps.name as appName',
      'apps.entrypoint',
      'samlServiceProviders.appId as samlAppId',
    ]);
  if (appId) select = select.where('menuPlans.appId', '=', appId);
  const rows = await select.orderBy('apps.name').orderBy('menuPlans.name').orderBy('menuPlans.id').limit(500).execute();
  const held = await heldPrivileges(ctx, viewer);
  return rows.map((row) => ({
    appId: row.appId,
    appName: row.appName ?? row.name,
    planId: row.id,
    planName: row.name,
    entrypoint: row.entrypoint ?? null,
    saml: row.samlAppId !== null,
    // The global plan never takes an administration screen away: the console's ACL decides who sees it.
    menus: visibleItems(row.appId === null ? withAdministration(itemsOf(row), viewer.permissions ?? []) : itemsOf(row), held),
  }));
}
