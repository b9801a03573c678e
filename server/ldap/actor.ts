// Who a directory connection acts as when it creates, changes or disables people (a synchronisation,
// a first sign-in): a provisioning actor (server/auth/provisioning-actor.ts), "ldap:<connection
// name>" in the audit log.
import type { Actor } from '../auth/actor';
import { provisioningActor } from '../auth/provisioning-actor';

export function directoryActor(connection: { id: string; name: string; tenantId: string; createdAt: number }, tenantPath: string): Actor {
  return provisioningActor({
    kind: 'ldap',
    id: connection.id,
    name: connection.name,
    tenantId: connection.tenantId,
    tenantPath,
    createdAt: connection.createdAt,
  });
}
