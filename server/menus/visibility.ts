// Who sees which menu item: an item bound to a privilege shows only to people holding it through
// a role, to the administrators of the privilege's app, and to platform administrators. Holding a
// privilege also shows the items bound to its ancestors: an entry bound to "Salary" leads to the
// pages of its child "View payslips", so a role holding only the child still shows the way there
// (and the app on the person's home). The ancestors' rights themselves are not granted by this.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { PlanMenuItem } from '../../src/core/schemas/menu-plans';

export type HeldPrivileges = Set<string> | 'all';

/** Who is looking: a console actor, or the person an app's access token speaks for. */
export type Viewer = Pick<Actor, 'id' | 'platformAdmin'> & {
  ownedApps: readonly { id: string }[];
  /** The console permission codes (an actor's; an app's token holder reads no console menu). */
  permissions?: readonly string[];
};

/** The privileges whose items the viewer sees: held through a role (with their ancestors), or of
 *  an app they administer; every one for a platform administrator. */
export async function heldPrivileges(ctx: Ctx, actor: Viewer): Promise<HeldPrivileges> {
  if (actor.platformAdmin) return 'all';
  const viaRoles = await ctx.db
    .selectFrom('roleMembers')
    .innerJoin('rolePrivileges', 'rolePrivileges.roleId', 'roleMembers.roleId')
    .select('rolePrivileges.privilegeId')
    .where('roleMembers.userId', '=', actor.id)
    .execute();
  const owned = actor.ownedApps.length
    ? await ctx.db
        .selectFrom('privileges')
        .select('id')
        .where(
          'appId',
          'in',
          actor.ownedApps.map((app) => app.id),
        )
        .execute()
    : [];
  const held = await withAncestors(ctx, new Set(viaRoles.map((row) => row.privilegeId)));
  for (const row of owned) held.add(row.id);
  return held;
}

/** `held` and every ancestor of its privileges (read with the trees of their apps). */
async function withAncestors(ctx: Ctx, held: Set<string>): Promise<Set<string>> {
  if (!held.size) return held;
  const tree = await ctx.db
    .selectFrom('privileges')
    .select(['id', 'parentId'])
    .where(
      'appId',
      'in',
      ctx.db
        .selectFrom('privileges as heldPrivilege')
        .select('heldPrivilege.appId')
        .where('heldPrivilege.id', 'in', [...held]),
    )
    .execute();
  const parentOf = new Map(tree.map((row) => [row.id, row.parentId]));
  const all = new Set(held);
  for (const id of held) {
    for (let parent = parentOf.get(id); parent && !all.has(parent); parent = parentOf.get(parent)) all.add(parent);
  }
  return all;
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
