// Claims about the person in the app that asks, and only that app: with the `roles` scope, the
// roles they hold in it (`roles`, names) and the keys of the privileges those roles give
// (`privileges`); with the `tenant` scope, their tenant (`tenant`: id and name, null for none) and
// `user_type` ('tenant', 'platform' or 'system'). Lists are sorted and bounded, so a token stays small.
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import { UserType } from '../../src/core/enums';

export const APP_SCOPES = { roles: ['roles', 'privileges'], tenant: ['tenant', 'user_type'] } as const;

/** At most this many roles and privilege keys in a token. */
export const MAX_ROLES = 50;
export const MAX_PRIVILEGES = 200;

const userTypeNames: Record<number, string> = { [UserType.Tenant]: 'tenant', [UserType.Platform]: 'platform', [UserType.System]: 'system' };

export async function rolesClaims(db: Kysely<Database>, userId: string, appId: string) {
  const roles = await db
    .selectFrom('roleMembers')
    .innerJoin('roles', 'roles.id', 'roleMembers.roleId')
    .select('roles.name')
    .where('roleMembers.userId', '=', userId)
    .where('roles.appId', '=', appId)
    .orderBy('roles.name')
    .limit(MAX_ROLES)
    .execute();
  const privileges = await db
    .selectFrom('roleMembers')
    .innerJoin('rolePrivileges', 'rolePrivileges.roleId', 'roleMembers.roleId')
    .innerJoin('privileges', 'privileges.id', 'rolePrivileges.privilegeId')
    .select('privileges.key')
    .distinct()
    .where('roleMembers.userId', '=', userId)
    .where('privileges.appId', '=', appId)
    .orderBy('privileges.key')
    .limit(MAX_PRIVILEGES)
    .execute();
  return { roles: roles.map((row) => row.name), privileges: privileges.map((row) => row.key) };
}

export async function tenantClaims(db: Kysely<Database>, user: { tenantId: string | null; userType: number }) {
  const tenant = user.tenantId ? await db.selectFrom('tenants').select(['id', 'name']).where('id', '=', user.tenantId).executeTakeFirst() : undefined;
  return { tenant: tenant ?? null, user_type: userTypeNames[user.userType] ?? null };
}
