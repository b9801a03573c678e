// The caller of a request: the signed-in user, their session handle and what they may do.
import type { Selectable } from 'kysely';
import type { UserTable } from '../db/tables';
import type { OwnedApp, SessionUser } from '../../src/core/types';
import { Status, UserType } from '../../src/core/enums';
import { Permission } from '../../src/core/permission-codes';
import type { ResolvedSession } from './sessions';
import { sessionUserAnswer } from '../services/user-answer';

export type UserRow = Selectable<UserTable>;

export interface Actor {
  id: string;
  username: string;
  user: UserRow;
  /** Public handle of the session (SessionUser.sessionId), never its secret. */
  sessionId: string;
  via: 'cookie' | 'token';
  permissions: Permission[];
  /** Platform administrator: everything, everywhere. */
  platformAdmin: boolean;
  /** Tenant administrator: users and operations inside `tenantPath`'s subtree. */
  tenantAdmin: boolean;
  tenantPath: string | null;
  ownedApps: OwnedApp[];
  /** A provisioning client (a SCIM token, server/scim/caller.ts), not a person's session: it has
   *  no password for the re-checks a person's session is asked (server/auth/contact-change.ts). */
  provisioning?: true;
}

export const isPlatformAdmin = (user: UserRow) =>
  (user.userType === UserType.Platform || user.userType === UserType.System) && user.isAdmin === 1 && user.isMaster === 1;

export const isTenantAdmin = (user: UserRow) => user.userType === UserType.Tenant && user.isAdmin === 1 && user.tenantId !== null;

/** The permission codes of a user (what each opens: the `Permission` map of src/core/permission-codes.ts). */
function permissionsOf(user: UserRow, ownedApps: OwnedApp[]): Permission[] {
  if (user.availabilityStatus !== Status.Enable) return [];
  const codes = new Set<Permission>([Permission.SelfService]);
  if (isPlatformAdmin(user)) [Permission.Apps, Permission.Users, Permission.Settings, Permission.Operations].forEach((code) => codes.add(code));
  if (isTenantAdmin(user)) [Permission.Users, Permission.Operations].forEach((code) => codes.add(code));
  if (ownedApps.length) codes.add(Permission.Apps);
  return [...codes].sort();
}

/** The actor of a live session; the session lookup (sessions.ts) read all of it in one query. */
export function actorOf(session: ResolvedSession, via: Actor['via']): Actor {
  const { user, sessionId, tenantPath, ownedApps } = session;
  const tenantAdmin = isTenantAdmin(user) && tenantPath !== null;
  return {
    id: user.id,
    username: user.username,
    user,
    sessionId,
    via,
    permissions: permissionsOf(user, ownedApps),
    platformAdmin: isPlatformAdmin(user),
    tenantAdmin,
    tenantPath: tenantAdmin ? tenantPath : null,
    ownedApps,
  };
}

/** session user info, as GET /cas/session answers it. */
export function toSessionUser(actor: Actor, featureBlacklist: string[]): SessionUser {
  return sessionUserAnswer(actor.user, { ownedApps: actor.ownedApps, permissions: actor.permissions, featureBlacklist, sessionId: actor.sessionId });
}
