// The permission table of the session: entries `code` or `code|flag`, and the refusal of a
// signed-in user as a whole. Kept apart from the ACL's route and menu matching (acl.ts) so that
// the session (hence the sign-in entry) loads only this.
import type { OwnedApp, SessionUser } from './types';
import type { ValueOf, YesNo } from './enums';
// The codes themselves and what each opens: the `Permission` map of permission-codes.ts.

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
