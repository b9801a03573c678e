// Resource scope on top of the permission codes: platform administrators reach everything, tenant
// administrators their tenant's subtree, app administrators their apps, everyone else themselves.
import type { SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import { UserType } from '../../src/core/enums';
import { forbidden, notFound } from '../http/errors';
import type { Actor, UserRow } from './actor';
import { Permission } from '../../src/core/permission-codes';

export async function tenantPathOf(ctx: Ctx, tenantId: string | null): Promise<string | null> {
  if (!tenantId) return null;
  const row = await ctx.db.selectFrom('tenants').select('path').where('id', '=', tenantId).executeTakeFirst();
  return row?.path ?? null;
}

const inSubtree = (actor: Actor, path: string | null) => actor.tenantPath !== null && path !== null && path.startsWith(actor.tenantPath);

/** May the actor administer this tenant (tenant path)? */
export function canManageTenantPath(actor: Actor, path: string | null): boolean {
  return actor.platformAdmin || (actor.tenantAdmin && inSubtree(actor, path));
}

/** May the actor administer this user? A tenant administrator only reaches tenant users of their subtree. */
export async function canManageUser(ctx: Ctx, actor: Actor, user: UserRow): Promise<boolean> {
  if (actor.platformAdmin) return true;
  if (!actor.tenantAdmin || user.userType !== UserType.Tenant) return false;
  return inSubtree(actor, await tenantPathOf(ctx, user.tenantId));
}

/** Loads a user the actor may administer: 404 when it does not exist or lies outside their scope
 *  (a tenant administrator cannot even learn that users of other tenants exist). */
export async function manageableUser(ctx: Ctx, actor: Actor, id: string): Promise<UserRow> {
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user || !(await canManageUser(ctx, actor, user))) {
    if (user && actor.permissions.includes(Permission.Users)) throw notFound('User');
    if (user) throw forbidden();
    throw notFound('User');
  }
  return user;
}

/** Restricts a users query to the actor's scope. */
export function scopeUsers<O>(actor: Actor, query: SelectQueryBuilder<Database, 'users', O>): SelectQueryBuilder<Database, 'users', O> {
  if (actor.platformAdmin) return query;
  if (actor.tenantAdmin && actor.tenantPath) {
    const subtree = actor.tenantPath;
    return query
      .where('users.userType', '=', UserType.Tenant)
      .where((eb) => eb('users.tenantId', 'in', eb.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${subtree}%`)));
  }
  return query.where('users.id', '=', actor.id);
}

export function canManageApp(actor: Actor, appId: string): boolean {
  return actor.platformAdmin || actor.ownedApps.some((app) => app.id === appId);
}

export function requirePlatform(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden();
}
