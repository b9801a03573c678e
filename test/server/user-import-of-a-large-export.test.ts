// An export of more than 10 000 people imports back in one file: 12 000 rows written as the user
// export writes them (its columns, byte order mark, CRLF, formula cells neutralised) are read
// streamed and applied in chunks, each person with its audit record beneath the import's own event;
// the export of the result imports again changing nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { until } from './receivers';
import { csvLine } from '../../server/http/csv';
import { Status } from '../../src/core/enums';
import { exportOnlyColumns, importColumns, IMPORT_MAX_BYTES, statusInFile, type ImportJob } from '../../src/core/schemas/user-import';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const PEOPLE = 12_000;
let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server.stop());

/** Uploads `bytes` and waits for the job's end; answers it and the progress figures seen meanwhile. */
async function importFile(bytes: BlobPart, mode: 'check' | 'apply') {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'text/csv' }), 'users.csv');
  const started = await admin.request<ImportJob>('POST', `/api/user/import?mode=${mode}`, form);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const seen = new Set<number>();
  const job = await until(
    async () => {
      const current = (await admin.get<ImportJob>(`/api/user/import/${started.body.data.id}`)).body.data;
      seen.add(current.processed);
      return current.status === 'running' ? undefined : current;
    },
    `the ${mode} of ${mode === 'apply' ? PEOPLE : 'the export'}`,
    120_000,
  );
  return { job, seen };
}

test(`an export of ${PEOPLE} people imports back in one file, every row applied and audited`, async () => {
  const columns = [...importColumns, ...exportOnlyColumns];
  const lines = [`\uFEFF${csvLine(columns)}`];
  for (let index = 0; index < PEOPLE; index += 1) {
    const person: Record<(typeof columns)[number], string> = {
      username: `big-${index}`,
      realName: 'Big_Export',
      email: `big${index}@example.com`,
      mobilePhone: `139${String(index).padStart(8, '0')}`,
      description: `=1+${index}`,
      tenantId: '',
      availabilityStatus: statusInFile[index % 2 ? Status.Disabled : Status.Enable],
      tenantName: 'Root',
      locked: 'no',
      createdAt: new Date(0).toISOString(),
    };
    lines.push(csvLine(columns.map((column) => person[column])));
  }
  const { job, seen } = await importFile(lines.join(''), 'apply');
  assert.deepEqual([job.status, job.total, job.processed, job.created, job.failed], ['done', PEOPLE, PEOPLE, PEOPLE, 0], JSON.stringify(job.problems));
  assert.ok(
    [...seen].some((processed) => processed > 0 && processed < PEOPLE),
    `progress between: ${[...seen].join(', ')}`,
  );

  const { db } = server.app.ctx;
  const parent = await db.selectFrom('auditLog').selectAll().where('action', '=', 'user.import').where('targetId', '=', job.id).executeTakeFirstOrThrow();
  const audited = await db
    .selectFrom('auditLog')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('action', '=', 'user.create')
    .where('parentId', '=', parent.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(audited.count), PEOPLE, 'one user.create beneath the import event per person');
  const last = await db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', `big-${PEOPLE - 1}`)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    [last.description, last.mobilePhone, last.availabilityStatus],
    [`=1+${PEOPLE - 1}`, `139${String(PEOPLE - 1).padStart(8, '0')}`, Status.Disabled],
  );

  // The server's own export of them, imported again: the same people, nothing changed.
  const exported = await admin.raw('GET', '/api/user/export');
  assert.equal(exported.status, 200);
  const again = await importFile(await exported.arrayBuffer(), 'check');
  assert.deepEqual([again.job.status, again.job.created, again.job.updated, again.job.failed], ['done', 0, 0, 0], JSON.stringify(again.job.problems));
  assert.ok(again.job.unchanged >= PEOPLE, `unchanged: ${again.job.unchanged}`);
});

test('a file over the ceiling is refused with its rule, naming the ceiling', async () => {
  // Only this process's spooled files (their names carry its pid) that were not there before count:
  // test files running beside this one in other processes, or in this one, import too, and their
  // files go when their jobs end; a refused upload's file would never go.
  const spooled = async () => (await readdir(tmpdir())).filter((name) => name.startsWith(`iam-user-import.${process.pid}.`));
  const before = new Set(await spooled());
  const mebibyte = new Uint8Array(1024 * 1024).fill(0x61);
  const form = new FormData();
  const parts: BlobPart[] = ['username,realName,description\n', ...Array.from({ length: IMPORT_MAX_BYTES / mebibyte.length }, () => mebibyte)];
  form.append('file', new Blob(parts, { type: 'text/csv' }), 'users.csv');
  const answer = await admin.request<{ fields: unknown }>('POST', '/api/user/import?mode=check', form);
  assert.equal(answer.status, 400);
  assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule: `rule.csvSize?max=${IMPORT_MAX_BYTES / 1024 / 1024}` }]);
  await until(async () => (await spooled()).every((name) => before.has(name)), 'no spooled file left by the refused upload', 60_000);
});
