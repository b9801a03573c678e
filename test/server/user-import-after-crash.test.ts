// A CSV import whose server is killed (kill -9) in the middle: after the restart the job is failed
// at once (no two-minute wait for its progress to go stale), says how many rows were processed,
// the rows it did apply are there, and a new import is accepted straight away; running the same
// file again completes it. The killed process's temporary copy of the upload is removed by the next
// upload on the host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { ADMIN, Client, createTestDatabase, type TestDatabase } from './harness';
import { spawnServer, type ChildServer } from './crash-process';
import type { ImportJob } from '../../src/core/schemas/user-import';

const ROWS = 10_000;

let database: TestDatabase;
let running: ChildServer | undefined;
before(async () => {
  database = await createTestDatabase();
});
after(async () => {
  await running?.stop();
  await database.drop();
});

async function signedIn(base: string): Promise<Client> {
  const client = new Client(base, base);
  const answer = await client.login(ADMIN.username, ADMIN.password);
  assert.equal(answer.body.data?.loginSuccess, true, JSON.stringify(answer.body));
  return client;
}

const file = `username,realName\n${Array.from({ length: ROWS }, (_, n) => `crashimp${n},Name${n}`).join('\n')}\n`;
const upload = (client: Client) => {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'users.csv');
  return client.request<ImportJob>('POST', '/api/user/import?mode=apply', form);
};

const jobOf = async (client: Client, id: string) => {
  const answer = await client.get<ImportJob>(`/api/user/import/${id}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
};

const importedCount = async (client: Client) => {
  const answer = await client.get<{ pager: { total: number } }>('/api/user?page=1&size=1&searchProp=username&searchValue=crashimp');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.pager.total;
};

test('kill -9 during an import: after the restart the job is failed at once with its progress, and a new import runs', async () => {
  running = await spawnServer(database);
  let admin = await signedIn(running.base);
  const started = await upload(admin);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.id;

  // Kill once a first chunk is stored and before the last (polled, bounded).
  const deadline = Date.now() + 60_000;
  let seen = await jobOf(admin, id);
  while (seen.processed === 0 && seen.status === 'running' && Date.now() < deadline) seen = await jobOf(admin, id);
  assert.equal(seen.status, 'running', `the import ended before the kill: ${JSON.stringify({ ...seen, problems: seen.problems.length })}`);
  // The upload the killed process kept on disk while its job ran (server/services/user-import-upload.ts).
  const spooledBy = async (pid: number | undefined) => (await readdir(tmpdir())).filter((name) => name.startsWith(`iam-user-import.${pid}.`));
  const orphans = await spooledBy(running.child.pid);
  assert.equal(orphans.length, 1, 'the running import reads its upload from one temporary file');
  await running.kill9();

  running = await spawnServer(database);
  admin = await signedIn(running.base);
  const settled = await jobOf(admin, id);
  assert.equal(settled.status, 'failed', 'the crashed job is failed at once, not after two minutes');
  assert.equal(settled.error, 'restarted');
  assert.ok(settled.processed > 0 && settled.processed < ROWS, `processed ${settled.processed}`);
  assert.equal(settled.created, settled.processed, 'the counts say what was applied');
  const stored = await importedCount(admin);
  assert.ok(stored >= settled.created && stored < ROWS, `${stored} people stored, ${settled.created} counted`);

  // A new import is accepted (not 409), and running the same file again completes it.
  const again = await upload(admin);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.deepEqual(
    (await readdir(tmpdir())).filter((name) => orphans.includes(name)),
    [],
    'the dead process’s temporary file is removed by the next upload',
  );
  let finished = await jobOf(admin, again.body.data.id);
  while (finished.status === 'running' && Date.now() < deadline + 120_000) finished = await jobOf(admin, again.body.data.id);
  assert.equal(finished.status, 'done');
  assert.equal(finished.created + finished.unchanged, ROWS);
  assert.equal(await importedCount(admin), ROWS);
});
