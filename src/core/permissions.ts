// The permission table of the session: entries `code` or `code|flag`, and the refusal of a
// signed-in user as a whole. Kept apart from the ACL's route and menu matching (acl.ts) so that
// the session (hence the sign-in entry) loads only this.
import type { OwnedApp, SessionUser } from './types';
import type { ValueOf, YesNo } from './enums';

/**
 * The permission codes a session carries (`SessionUser.permissions`): what each one opens, in one
 * place. The server grants them (server/auth/actor.ts `permissionsOf`), every API call names the
 * one it needs (`access:` in server/routes), and the console's routes and menu follow them
 * (`PERMISSION_PATTERNS` in acl.ts, `alsoNeeds` in routes.ts).
 */
export const Permission = {
  /** Every signed-in, enabled member: their own account only. Opens no guarded console route, but
   *  makes the permission table non-empty (an empty one is refused as a whole). */
  SelfService: '0',
  /** Apps (console routes /app/…): the platform administrator, and an app's administrators for their apps. */
  Apps: '1',
  /** Users (console route /user): the platform administrator, and a tenant administrator for their subtree. */
  Users: '2',
  /** Platform settings (console route /setting): the platform administrator only. */
  Settings: '3',
  /** Operations (every console route /operate/…): platform and tenant administrators. */
  Operations: '4',
} as const;
export type Permission = ValueOf<typeof Permission>;

/** The flag after the pipe of a permission code (`code|flag`, "ACL value"). */
export const AclValue = {
  False: 0,
  Disabled: 1,
  True: 2,
} as const;
export type AclValue = ValueOf<typeof AclValue>;

export interface PermissionEntry {
  code: string;
  flag: AclValue;
}

/** Parses `code` or `code|flag`; undefined for a blank entry or a flag that is not an AclValue. */
export function parsePermission(raw: string): PermissionEntry | undefined {
  const [code = '', flagText, ...rest] = raw.split('|').map((part) => part.trim());
  if (!code || rest.length) return undefined;
  if (flagText === undefined) return { code, flag: AclValue.True };
  const flag = Object.values(AclValue).find((value) => String(value) === flagText);
  return flag === undefined ? undefined : { code, flag };
}

/** The parsed permission table (unparseable entries dropped). */
export function permissionTable(permissions: readonly string[]): PermissionEntry[] {
  return permissions.flatMap((raw) => parsePermission(raw) ?? []);
}

/** The value of the ACL-check switch that turns the check off. */
const ACL_CHECK_OFF: YesNo = 'N';

export function isAclEnabled(aclSwitch: YesNo | undefined): boolean {
  return aclSwitch !== ACL_CHECK_OFF;
}

export type AccessDenial = 'noPermissions' | 'noAdministeredApps';

/**
 * Why a signed-in user is refused as a whole ('Access is denied'), or undefined when they are not:
 * - 'noPermissions': an empty permission table, with the ACL check on;
 * - 'noAdministeredApps': with `authCheck`, a user who is not the master and administers no app.
 */
export function accessDenial(
  user: Pick<SessionUser, 'isMaster' | 'permissions'>,
  administeredApps: readonly OwnedApp[] | undefined,
  options: { aclSwitch?: YesNo; authCheck?: boolean } = {},
): AccessDenial | undefined {
  if (isAclEnabled(options.aclSwitch) && permissionTable(user.permissions).length === 0) return 'noPermissions';
  if (options.authCheck && !user.isMaster && !administeredApps?.length) return 'noAdministeredApps';
  return undefined;
}
