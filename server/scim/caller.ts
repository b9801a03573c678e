// Who calls /scim/v2: a tenant's SCIM token. The shared services (server/services/users.ts,
// tenants.ts) see it as a tenant administrator of that tenant: server/auth/scope.ts then keeps
// every call inside the tenant's subtree and to tenant users (never a platform user), and
// server/auth/grants.ts refuses platform rights. It is no person: the actor's id and name are the
// token's ("scim:<token name>" in the audit log), and it holds no app.
import { Status, UserType } from '../../src/core/enums';
import { Permission } from '../../src/core/permission-codes';
import type { Actor, UserRow } from '../auth/actor';
import type { ScimTokenRow } from '../services/scim-tokens';

export interface ScimCaller {
  actor: Actor;
  /** The token's tenant: users are created here, groups are the tenants below it. */
  tenantId: string;
  /** Its materialised path: the subtree every call stays in. */
  tenantPath: string;
  tokenId: string;
  ip: string;
}

export function scimCaller(token: ScimTokenRow & { tenantPath: string }, ip: string): ScimCaller {
  const username = `scim:${token.name}`;
  const user: UserRow = {
    id: token.id,
    username,
    realName: token.name,
    email: null,
    mobilePhone: null,
    description: null,
    availabilityStatus: Status.Enable,
    avatar: null,
    extraProp: '{}',
    userType: UserType.Tenant,
    tenantId: token.tenantId,
    isAdmin: 1,
    isMaster: 0,
    passwordHash: '',
    passwordChangedAt: token.createdAt,
    version: 1,
    createdAt: token.createdAt,
    updatedAt: token.createdAt,
  };
  const actor: Actor = {
    id: token.id,
    username,
    user,
    sessionId: '',
    via: 'token',
    permissions: [Permission.Users],
    platformAdmin: false,
    tenantAdmin: true,
    tenantPath: token.tenantPath,
    ownedApps: [],
    provisioning: true,
  };
  return { actor, tenantId: token.tenantId, tenantPath: token.tenantPath, tokenId: token.id, ip };
}
