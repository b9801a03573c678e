// Who sees which menu item: an item bound to a privilege shows only to people holding it through
// a role, to the administrators of the privilege's app, and to platform administrators.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { PlanMenuItem } from '../../src/core/schemas/menu-plans';

export type HeldPrivileges = Set<string> | 'all';

/** Who is looking: a console actor, or the person an app's access token speaks for. */
export type Viewer = Pick<Actor, 'id' | 'platformAdmin'> & { ownedApps: readonly { id: string }[] };

export async function heldPrivileges(ctx: Ctx, actor: Viewer): Promise<HeldPrivileges> {
  if (actor.platformAdmin) return 'all';
  const viaRoles = await ctx.db.selectFrom('roleMembers').innerJoin('rolePrivileges', 'rolePrivileges.roleId', 'roleMembers.roleId')
    .select('rolePrivileges.privilegeId').where('roleMembers.userId', '=', actor.id).execute();
  const owned = actor.ownedApps.length
    ? await ctx.db.selectFrom('privileges').select('id').where('appId', 'in', actor.ownedApps.map((app) => app.id)).execute()
    : [];
  return new Set([...viaRoles.map((row) => row.privilegeId), ...owned.map((row) => row.id)]);
}

/** The items (and, recursively, children) the holder may see, in their order. */
export function visibleItems(items: readonly PlanMenuItem[], held: HeldPrivileges): PlanMenuItem[] {
  return items.flatMap((item) => {
    if (item.privilegeId && held !== 'all' && !held.has(item.privilegeId)) return [];
    return [item.children ? { ...item, children: visibleItems(item.children, held) } : item];
  });
}

/** Every privilege id the items are bound to. */
export function boundPrivileges(items: readonly PlanMenuItem[]): string[] {
  return [...new Set(items.flatMap((item) => [...(item.privilegeId ? [item.privilegeId] : []), ...boundPrivileges(item.children ?? [])]))];
}
