// The grant rule: a caller can never grant a right it does not hold. Every call that hands out or
// withdraws power (app roles, role privileges, app administrators, tenant administrators and the
// admin/platform flags of a user, menu plans and their privilege bindings) asks this module, which
// refuses with a 403 naming the right.
//
// What each caller holds, and so may grant or withdraw:
//  - the platform administrator: everything;
//  - an app administrator: the roles and privileges of the apps they administer (who holds a role,
//    which privileges a role carries). Not the administration of an app: only the platform
//    administrator appoints app administrators;
//  - a tenant administrator: the administration of their tenant's subtree. They may make tenant
//    users of a tenant in that subtree its administrators (or create them so), never anyone outside
//    it, never platform rights (a platform user type, the master flag), and never themselves more
//    than they are (moving themselves out of their subtree is placing a user outside it). Their
//    user rights carry no app's roles: an app's roles come only with administering that app;
//  - a member: nothing.
// Menu plans bind privileges of every app to menu items shown to every signed-in user: only the
// platform administrator changes them. Likewise only they mark an app trusted (its sign-ins skip
// the consent page), even for an app administrator's own app.
//
// Who may receive: a person in the caller's reach for the call — through the user screens (Permission.Users)
// a user of the caller's user scope (scope.ts, checked by the route), through an app's role screen
// any existing person (apps are platform-wide, see docs/security.md, known limits), and a tenant's
// administrators are tenant users of that very tenant.
//
// Taking over an account obtains everything it holds: setting its password, or the e-mail or phone
// that receive its sign-in and reset codes. An administrator may do that only to a person who
// administers no app the caller does not (a tenant administrator cannot become an app
// administrator by resetting one's password).
//
// Reads follow the rule: a person's roles are listed only for the apps the caller administers.
import type { Ctx } from '../context';
import { UserType } from '../../src/core/enums';
import { forbidden } from '../http/errors';
import type { Actor, UserRow } from './actor';
import { canManageApp, canManageTenantPath } from './scope';

/** The apps whose roles and privileges the actor may grant: every app (null) or these ids. */
export const grantableApps = (actor: Actor): string[] | null => (actor.platformAdmin ? null : actor.ownedApps.map((app) => app.id));

export function assertMayGrantInApp(actor: Actor, appId: string): void {
  if (!canManageApp(actor, appId)) throw forbidden('You can only grant the roles and privileges of apps you administer');
}

/** Every app the given rows (roles or privileges, by id) belong to must be one the actor administers;
 *  unknown ids are left to the caller's input check. */
export async function assertMayGrantRows(ctx: Ctx, actor: Actor, table: 'roles' | 'privileges', ids: readonly string[]): Promise<void> {
  if (actor.platformAdmin || !ids.length) return;
  const rows = await ctx.db.selectFrom(table).select('appId').where('id', 'in', [...new Set(ids)]).execute();
  for (const row of rows) assertMayGrantInApp(actor, row.appId);
}

export function assertMayAppointAppAdmins(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden('Only the platform administrator appoints app administrators');
}

export function assertMayAppointTenantAdmins(actor: Actor, tenantPath: string): void {
  if (!canManageTenantPath(actor, tenantPath)) throw forbidden('You can only appoint administrators of tenants you administer');
}

/** A user placed (created or changed) in a tenant, with a user type and the master flag. */
export function assertMayPlace(actor: Actor, place: { tenantPath: string; userType: number; isMaster: boolean }): void {
  if (actor.platformAdmin) return;
  if (!canManageTenantPath(actor, place.tenantPath)) throw forbidden('The tenant is outside your scope');
  if (place.userType !== UserType.Tenant || place.isMaster) throw forbidden('Only a platform administrator grants platform rights');
}

/** A trusted app gets the person's consent without asking: only the platform administrator decides that. */
export function assertMayTrustApps(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden('Only the platform administrator marks apps trusted');
}

export function assertMayBindMenus(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden('Only the platform administrator changes menu plans');
}

const differs = (wanted: string | null | undefined, stored: string | null) => wanted !== undefined && (wanted || null) !== stored;

/** Refuses to let the actor take over `target` (a password reset, or — when `contact` is given — a
 *  change of the e-mail or phone) when the target administers an app the actor does not. */
export async function assertMayTakeOver(ctx: Ctx, actor: Actor, target: UserRow, contact?: { email?: string | null; mobilePhone?: string | null }): Promise<void> {
  if (actor.platformAdmin || target.id === actor.id) return;
  if (contact && !differs(contact.email, target.email) && !differs(contact.mobilePhone, target.mobilePhone)) return;
  const administered = await ctx.db.selectFrom('appAdmins').select('appId').where('userId', '=', target.id).execute();
  if (administered.some((row) => !canManageApp(actor, row.appId))) {
    throw forbidden('This person administers apps you do not: only the platform administrator changes their password, e-mail or phone');
  }
}
