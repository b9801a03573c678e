// Whether a person has registered at least one passkey (the passkeys table of migration 0022).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables';
export async function hasPasskey(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('passkeys').select('id').where('userId', '=', userId).executeTakeFirst();
  return row !== undefined;
}
