// The table of migration 0005 (third-party sign-in in progress), joined to the shared database type.
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';

export interface IdpFlowTable {
  /** SHA-256 of the `state` sent to the provider. */
  stateHash: string;
  /** SHA-256 of the flow cookie: the callback must come back to the browser that started. */
  browserHash: string;
  idpCode: string;
  codeVerifier: string;
  nonce: string;
  /** Where the person goes after signing in (a console path), if they asked. */
  redirect: string | null;
  expiresAt: number;
}

export type IdpFlowDatabase = Database & { idpFlows: IdpFlowTable };

export const idpFlowDb = (db: Kysely<Database>): Kysely<IdpFlowDatabase> => db.withTables<{ idpFlows: IdpFlowTable }>();
