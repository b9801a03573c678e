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
// Acting on a person (changing, disabling, deleting, unlocking them, ending their sessions, resetting
// their password, changing their roles or admin flags, alone or in bulk) is allowed only when that
// person holds no right the caller lacks (assertMayActOn). Otherwise a tenant administrator could
// take over an app administrator (set the password, or the e-mail or phone that receive the sign-in
// and reset codes), or lock out those above or beside them. The rights a person holds beyond a
// member's:
//  - platform rights (a platform or system user type, the master flag): only the platform
//    administrator holds them;
//  - administering an app: held by whoever administers that app (and the platform administrator);
//  - administering a tenant: a tenant administrator holds power over their tenant and so over its
//    other administrators, the caller among them. Only an administrator of a tenant strictly above
//    (or the platform administrator) holds that; fellow administrators of one tenant are equals and
//    do not act on each other (neither locks the other out).
// One's own account is not judged by this rule (the calls themselves say what one may do to oneself).
// Appointing app administrators needs no such check: only the platform administrator does it, and
// they hold every right.
//
// Reads follow the rule: a person's roles are listed only for the apps the caller administers.
import type { Ctx } from '../context';
import { UserType } from '../../src/core/enums';
import { forbidden } from '../http/errors';
import { isTenantAdmin, type Actor, type UserRow } from './actor';
import { canManageApp, canManageTenantPath, manageableUser } from './scope';

/** The apps whose roles and privileges the actor may grant: every app (null) or these ids. */
export const grantableApps = (actor: Actor): string[] | null => (actor.platformAdmin ? null : actor.ownedApps.map((app) => app.id));

export function assertMayGrantInApp(actor: Actor, appId: string): void {
  if (!canManageApp(actor, appId)) throw forbidden('You can only grant the roles and privileges of apps you administer');
}

/** Every app the given rows (roles or privileges, by id) belong to must be one the actor administers;
 *  unknown ids are left to the caller's input check. */
export async function assertMayGrantRows(ctx: Ctx, actor: Actor, table: 'roles' | 'privileges', ids: readonly string[]): Promise<void> {
  if (actor.platformAdmin || !ids.length) return;
  const rows = await ctx.db
    .selectFrom(table)
    .select('appId')
    .where('id', 'in', [...new Set(ids)])
    .execute();
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

/** A directory asked at first sign-ins receives the passwords of people nobody here knows yet, of
 *  any tenant (server/ldap/lookup.ts): only the platform administrator decides which directories. */
export function assertMayAllowFirstSignIns(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden('Only the platform administrator decides which directories are asked at first sign-ins');
}

export function assertMayBindMenus(actor: Actor): void {
  if (!actor.platformAdmin) throw forbidden('Only the platform administrator changes menu plans');
}

/** May the actor hold power over administrators of the tenant at `path`? Only from strictly above. */
const isAboveTenant = (actor: Actor, path: string | null) =>
  actor.tenantAdmin && actor.tenantPath !== null && path !== null && path !== actor.tenantPath && path.startsWith(actor.tenantPath);

/** Refuses (403) when any of `targets` other than the actor holds a right the actor lacks (see the top
 *  of this file). One query for the tenants and one for the app administrations of all of them. */
export async function assertMayActOn(ctx: Ctx, actor: Actor, targets: UserRow | readonly UserRow[]): Promise<void> {
  const others = (Array.isArray(targets) ? targets : [targets as UserRow]).filter((target) => target.id !== actor.id);
  if (actor.platformAdmin || !others.length) return;
  if (others.some((target) => target.userType !== UserType.Tenant || target.isMaster === 1)) {
    throw forbidden('This person holds platform rights: only the platform administrator changes them');
  }
  const adminTenants = [...new Set(others.filter(isTenantAdmin).map((target) => target.tenantId!))];
  // A SCIM token grants no administrator right (docs/scim.md): it writes no administrator at any
  // level, not even below its tenant, since their phone or e-mail is where their password reset goes.
  if (actor.provisioning && adminTenants.length) {
    throw forbidden('This person is an administrator: a SCIM token never changes an administrator; change them in the console');
  }
  if (adminTenants.length) {
    const paths = await ctx.db.selectFrom('tenants').select('path').where('id', 'in', adminTenants).execute();
    if (paths.length !== adminTenants.length || paths.some(({ path }) => !isAboveTenant(actor, path))) {
      throw forbidden('This person administers a tenant at or above your level: only an administrator above them changes them');
    }
  }
  const administered = await ctx.db
    .selectFrom('appAdmins')
    .select('appId')
    .where(
      'userId',
      'in',
      others.map((target) => target.id),
    )
    .execute();
  if (administered.some((row) => !canManageApp(actor, row.appId))) {
    throw forbidden('This person administers apps you do not: only the platform administrator changes them');
  }
}

/** A user of the actor's scope (scope.ts, 404 otherwise) whom the actor may act on (403 otherwise). */
export async function actionableUser(ctx: Ctx, actor: Actor, id: string): Promise<UserRow> {
  const user = await manageableUser(ctx, actor, id);
  await assertMayActOn(ctx, actor, user);
  return user;
}

/** A membership (a role's members, a tenant's administrators) goes from `before` to `after`: refuses
 *  (403) unless the actor may act on everyone who joins or leaves (unknown ids are left to the
 *  caller's input check). */
export async function assertMayChangeMembers(ctx: Ctx, actor: Actor, before: readonly string[], after: readonly string[]): Promise<void> {
  const changed = [...before.filter((id) => !after.includes(id)), ...after.filter((id) => !before.includes(id))];
  if (actor.platformAdmin || !changed.length) return;
  await assertMayActOn(ctx, actor, await ctx.db.selectFrom('users').selectAll().where('id', 'in', changed).execute());
}
