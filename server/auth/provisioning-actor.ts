// Who a provisioning source acts as: a tenant's SCIM token (server/scim/caller.ts) or directory
// connection (server/ldap/). The shared services (server/services/users.ts, tenants.ts) see it as a
// tenant administrator of that tenant: server/auth/scope.ts then keeps every change inside the
// tenant's subtree and to tenant users (never a platform user), and server/auth/grants.ts refuses
// platform rights. It is no person: its id and name are the source's ("scim:<token name>",
// "ldap:<connection name>" in the audit log), it has no password to re-check and holds no app.
import { Status, UserType } from '../../src/core/enums';
import { Permission } from '../../src/core/permission-codes';
import type { Actor, UserRow } from './actor';

export interface ProvisioningSource {
  kind: 'scim' | 'ldap';
  id: string;
  name: string;
  tenantId: string;
  /** The tenant's materialised path: the subtree every change stays in. */
  tenantPath: string;
  createdAt: number;
}

export function provisioningActor(source: ProvisioningSource): Actor {
  const username = `${source.kind}:${source.name}`;
  const user: UserRow = {
    id: source.id,
    username,
    realName: source.name,
    email: null,
    mobilePhone: null,
    description: null,
    availabilityStatus: Status.Enable,
    avatar: null,
    extraProp: '{}',
    userType: UserType.Tenant,
    tenantId: source.tenantId,
    isAdmin: 1,
    isMaster: 0,
    passwordHash: '',
    passwordChangedAt: source.createdAt,
    version: 1,
    createdAt: source.createdAt,
    updatedAt: source.createdAt,
  };
  return {
    id: source.id,
    username,
    user,
    sessionId: '',
    via: 'token',
    permissions: [Permission.Users],
    platformAdmin: false,
    tenantAdmin: true,
    tenantPath: source.tenantPath,
    ownedApps: [],
    provisioning: true,
  };
}
