// Whether a person can sign in with a passkey (the passkeys table of migration 0025). Other rules
// ask it through this one function (the second step's choice, server/auth/strong-factor.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables';

export async function hasPasskey(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('passkeys').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}
