// The grants of one app, found by their stored payloads.
import type { Kysely } from 'kysely';
import type { OidcDatabase } from './tables';

/** The ids of the grants that app `clientId` holds (only those of the person `accountId`, when
 *  named), the newest first. */
export async function clientGrantIds(db: Kysely<OidcDatabase>, clientId: string, accountId?: string): Promise<string[]> {
  // A grant's client is inside its JSON payload: the LIKE narrows the rows, the parse decides.
  let candidates = db
    .selectFrom('oidcPayloads')
    .select(['id', 'payload'])
    .where('model', '=', 'Grant')
    .where('payload', 'like', `%${JSON.stringify(clientId)}%`);
  if (accountId !== undefined) candidates = candidates.where('accountId', '=', accountId);
  const rows = await candidates.orderBy('expiresAt', 'desc').execute();
  return rows.filter((row) => (JSON.parse(row.payload) as { clientId?: string }).clientId === clientId).map((row) => row.id);
}
