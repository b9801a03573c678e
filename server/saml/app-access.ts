// Who may open a SAML app from the portal (IdP-initiated sign-in): the person the portal shows it
// to (src/react/app/portalApps.ts): a visible item in the app's menu plan, or they administer the
// app; or the app gives them a role. Anyone else is answered 404, as for an app that does not exist:
// a signed-in person cannot have an assertion for any app they learn the id of.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { canManageApp } from '../auth/scope';
import { visibleMenus } from '../services/menu-plans';

export async function mayOpenFromPortal(ctx: Ctx, actor: Actor, appId: string): Promise<boolean> {
  if (canManageApp(actor, appId)) return true;
  const role = await ctx.db
    .selectFrom('roleMembers')
    .innerJoin('roles', 'roles.id', 'roleMembers.roleId')
    .select('roles.id')
    .where('roleMembers.userId', '=', actor.id)
    .where('roles.appId', '=', appId)
    .executeTakeFirst();
  if (role) return true;
  return (await visibleMenus(ctx, actor, appId)).some((menu) => menu.appId === appId && menu.menus.length > 0);
}
