// The user list as CSV (GET /user/export): the people of the caller's scope that the list's search
// and tenant filter select, in the list's order, read in keyset batches (constant memory however
// many there are: each batch is written out before the next is read). The columns are the
// import's (src/core/schemas/user-import.ts), so an export can be edited and imported again,
// then the tenant's name, the lock and the creation time for people reading it. Cells a
// spreadsheet would run as a formula are neutralised (server/http/csv.ts).
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { Actor, UserRow } from '../auth/actor';
import { Status } from '../../src/core/enums';
import { exportOnlyColumns, importColumns, statusInFile, type userExportQuery } from '../../src/core/schemas/user-import';
import { keysOfUser, lockedKeys } from '../auth/throttle';
import { csvLine } from '../http/csv';
import { listedUsers } from './users';

const BATCH = 1_000;

type ExportQuery = v.InferOutput<typeof userExportQuery>;

export async function* userExportLines(ctx: Ctx, actor: Actor, query: ExportQuery): AsyncGenerator<string> {
  // The byte order mark makes spreadsheet programs read UTF-8.
  yield `\uFEFF${csvLine([...importColumns, ...exportOnlyColumns])}`;
  const matching = await listedUsers(ctx, actor, query);
  const sort = `users.${query.sort}` as const;
  const after = query.order === 'asc' ? '>' : '<';
  const tenantNames = new Map<string, string>();
  let last: UserRow | undefined;
  for (;;) {
    let select = matching();
    if (last) {
      const { id } = last;
      const value = last[query.sort];
      select = select.where((eb) => eb.or([eb(sort, after, value), eb.and([eb(sort, '=', value), eb('users.id', '>', id)])]));
    }
    const rows = await select.orderBy(sort, query.order).orderBy('users.id').limit(BATCH).execute();
    if (!rows.length) return;
    const unknownTenants = [...new Set(rows.map((row) => row.tenantId).filter((id): id is string => !!id && !tenantNames.has(id)))];
    if (unknownTenants.length) {
      for (const tenant of await ctx.db.selectFrom('tenants').select(['id', 'name']).where('id', 'in', unknownTenants).execute())
        tenantNames.set(tenant.id, tenant.name);
    }
    const locked = await lockedKeys(ctx, rows.flatMap(keysOfUser));
    let text = '';
    for (const row of rows) {
      text += csvLine([
        row.username,
        row.realName,
        row.email,
        row.mobilePhone,
        row.description,
        row.tenantId,
        statusInFile[row.availabilityStatus === Status.Enable ? Status.Enable : Status.Disabled],
        row.tenantId ? tenantNames.get(row.tenantId) : '',
        keysOfUser(row).some((key) => locked.has(key)) ? 'yes' : 'no',
        new Date(Number(row.createdAt)).toISOString(),
      ]);
    }
    yield text;
    if (rows.length < BATCH) return;
    last = rows[rows.length - 1];
  }
}
