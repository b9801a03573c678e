// The permission codes, named. Their own module: the sign-in entry (which loads permissions.ts
// through the session) never needs them.
import type { ValueOf } from './enums';

/**
 * The permission codes a session carries (`SessionUser.permissions`): what each one opens, in one
 * place. The server grants them (server/auth/actor.ts `permissionsOf`), every API call names the
 * one it needs (`access:` in server/routes), and the console's routes and menu follow them
 * (`permissionPatterns` in acl.ts, `alsoNeeds` in routes.ts).
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
