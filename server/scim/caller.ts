// Who calls /scim/v2: a tenant's SCIM token, as a provisioning actor
// (server/auth/provisioning-actor.ts): "scim:<token name>" in the audit log, every call kept inside
// the token's tenant subtree.
import type { Actor } from '../auth/actor';
import { provisioningActor } from '../auth/provisioning-actor';
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
  const actor = provisioningActor({
    kind: 'scim',
    id: token.id,
    name: token.name,
    tenantId: token.tenantId,
    tenantPath: token.tenantPath,
    createdAt: token.createdAt,
  });
  return { actor, tenantId: token.tenantId, tenantPath: token.tenantPath, tokenId: token.id, ip };
}
