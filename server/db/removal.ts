// A removal sent several times at once (a double click, a client's retry, two administrators) removes
// its row once. Each caller reads the row before its change, and on PostgreSQL they all find it; a
// DELETE that does not look at what it deleted let every one of them answer 200 and write its own
// audit record (and webhook event). The second DELETE of a row waits for the first's transaction and
// then deletes nothing (SQLite runs the changes one after the other: the same). `removedOnce` makes
// that the 404 of a row gone, which rolls the caller's change back with anything it wrote before.
import type { DeleteResult } from 'kysely';
import { notFound } from '../http/errors';

/** Awaits `remove` (a DELETE of one row); 404 `what` when this call deleted nothing. */
export async function removedOnce(remove: Promise<DeleteResult>, what: string): Promise<void> {
  const { numDeletedRows } = await remove;
  if (numDeletedRows === 0n) throw notFound(what);
}
