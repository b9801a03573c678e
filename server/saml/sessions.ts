// The sessions apps were given by SAML assertions (their SessionIndex), ended with the person's
// other app access (server/oidc/revoke.ts: signing out, disabling, a password reset).
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';

export async function endSamlSessions(db: Kysely<Database>, personId: string): Promise<void> {
  await db.deleteFrom('samlSessions').where('userId', '=', personId).execute();
}
