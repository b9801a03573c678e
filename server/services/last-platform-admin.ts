// At least one enabled platform administrator always stays. Disabling, deleting or demoting one is
// checked and written in one transaction that holds the platform administrators' rows: two requests
// removing the last two at once (or two administrators demoting each other) are run one after the
// other, and the second sees the first's result and is refused. A check before the write, outside
// it, let both pass on PostgreSQL (test/server/last-platform-admin-bulk-race.test.ts).
import { sql, type Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/tables';
import type { UserRow } from '../auth/actor';
import { Status, UserType } from '../../src/core/enums';
import { forbidden } from '../http/errors';

const isPlatformAdminRow = (row: UserRow) => row.isAdmin === 1 && row.isMaster === 1 && row.userType !== UserType.Tenant;

/** The enabled platform administrators, their rows locked until the transaction ends. PostgreSQL:
 *  FOR UPDATE, in id order (two lockers never wait on each other crosswise). SQLite: a first write
 *  (of nothing) takes the database's write lock, as BEGIN IMMEDIATE would, so a second process waits
 *  too (one process already runs one transaction at a time on its single connection). */
async function lockedPlatformAdmins(ctx: Ctx, trx: Kysely<Database>, targetId: string): Promise<string[]> {
  let admins = trx
    .selectFrom('users')
    .select('id')
    .where('isAdmin', '=', 1)
    .where('isMaster', '=', 1)
    .where('userType', 'in', [UserType.Platform, UserType.System])
    .where('availabilityStatus', '=', Status.Enable)
    .orderBy('id');
  if (ctx.engine === 'postgres') admins = admins.forUpdate();
  else await sql`update users set version = version where id = ${targetId}`.execute(trx);
  return (await admins.execute()).map((row) => row.id);
}

/**
 * Runs `write` (which disables, deletes or demotes `target` when `removes`) keeping another enabled
 * platform administrator; 403 when none would stay. Any other write runs as it is.
 */
export async function keepingOnePlatformAdmin<T>(ctx: Ctx, target: UserRow, removes: boolean, write: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (!removes || !isPlatformAdminRow(target)) return write(ctx.db);
  return ctx.db.transaction().execute(async (trx) => {
    const admins = await lockedPlatformAdmins(ctx, trx, target.id);
    if (!admins.some((id) => id !== target.id)) throw forbidden('The last platform administrator cannot be removed or demoted');
    return write(trx);
  });
}
