// Who a directory connection acts as when it creates, changes or disables people (a synchronisation,
// a first sign-in): like a SCIM token (server/scim/caller.ts), an administrator of the connection's
// tenant and no person: "ldap:<connection name>" in the audit log, no password to re-check, no app.
import { Status, UserType } from '../../src/core/enums';
import { Permission } from '../../src/core/permission-codes';
import type { Actor, UserRow } from '../auth/actor';

export function directoryActor(connection: { id: string; name: string; tenantId: string; createdAt: number }, tenantPath: string): Actor {
  const username = `ldap:${connection.name}`;
  const user: UserRow = {
    id: connection.id,
    username,
    realName: connection.name,
    email: null,
    mobilePhone: null,
    description: null,
    availabilityStatus: Status.Enable,
    avatar: null,
    extraProp: '{}',
    userType: UserType.Tenant,
    tenantId: connection.tenantId,
    isAdmin: 1,
    isMaster: 0,
    passwordHash: '',
    passwordChangedAt: connection.createdAt,
    version: 1,
    createdAt: connection.createdAt,
    updatedAt: connection.createdAt,
  };
  return {
    id: connection.id,
    username,
    user,
    sessionId: '',
    via: 'token',
    permissions: [Permission.Users],
    platformAdmin: false,
    tenantAdmin: true,
    tenantPath,
    ownedApps: [],
    provisioning: true,
  };
}
