// Optimistic concurrency for every editable table (id + version + updatedAt): an update carrying
// a stale version changes nothing and answers 409.
import type { Kysely } from 'kysely';
import type { Database } from './tables';
import { conflict, notFound } from '../http/errors';

type VersionedTable = 'tenants' | 'users' | 'apps' | 'roles' | 'menuPlans' | 'channels' | 'webhooks' | 'ldapConnections';

export async function updateVersioned<T extends VersionedTable>(
  db: Kysely<Database>,
  table: T,
  id: string,
  version: number | undefined,
  changes: Partial<Database[T]>,
  now: number,
): Promise<void> {
  // Kysely cannot check a set() over a union of tables; the callers' `changes` are typed per table.
  const loose = db as unknown as Kysely<Record<string, { id: string; version: number; updatedAt: number }>>;
  const current = await loose
    .selectFrom(table as string)
    .select('version')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current) throw notFound();
  const expected = version ?? current.version;
  const result = await loose
    .updateTable(table as string)
    .set({ ...(changes as object), version: expected + 1, updatedAt: now })
    .where('id', '=', id)
    .where('version', '=', expected)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw conflict();
}
