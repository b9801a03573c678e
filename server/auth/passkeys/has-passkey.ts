// Whether a person can sign in with a passkey (the table of migration 0022_passkeys). Other rules
// ask it through this one function (the second step's choice, account-security policies).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables';

export async function hasPasskey(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('passkeys').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}
