// The user import's upload spool (server/services/user-import-upload.ts) and its rule of one
// running import per person, attacked from outside: a burst of parallel uploads by one
// administrator, an upload cut mid-stream, and the spool's clean-up of "orphans" meeting the live
// file of another server that shares the temporary directory and, in its own PID namespace (a
// second container of one pod), has the same pid.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { existsSync, writeFileSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type Client, type TestServer } from './harness';
import { until } from './receivers';
import type { ImportJob } from '../../src/core/schemas/user-import';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server.stop());

const csv = (prefix: string, rows: number) =>
  ['username,realName', ...Array.from({ length: rows }, (_, index) => `${prefix}-${index},Spool_Person`)].join('\n') + '\n';

const upload = (text: string, mode: 'check' | 'apply') => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'users.csv');
  return admin.request<ImportJob>('POST', `/api/user/import?mode=${mode}`, form);
};

const settled = (id: string) =>
  until(
    async () => {
      const job = (await admin.get<ImportJob>(`/api/user/import/${id}`)).body.data;
      return job.status === 'running' ? undefined : job;
    },
    `job ${id}`,
    60_000,
  );

test('a burst of parallel imports by one administrator: one job runs, the others answer 409 (one import of yours at a time)', async () => {
  const answers = await Promise.all(Array.from({ length: 4 }, (_, index) => upload(csv(`burst${index}`, 300), 'apply')));
  const started = answers.filter((answer) => answer.status === 200);
  for (const answer of started) await settled(answer.body.data.id);
  for (const answer of answers) assert.ok([200, 409].includes(answer.status), `${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(
    started.length,
    1,
    `${started.length} imports of one person ran at once (answers ${answers.map((answer) => answer.status).join(', ')}): the check for a running job and the new job's row are not one step`,
  );
});

test('an upload cut mid-stream leaves no spooled file behind', async () => {
  const spooled = async () => (await readdir(tmpdir())).filter((name) => name.startsWith(`iam-user-import.${process.pid}.`));
  const before = new Set(await spooled());
  const { port } = new URL(server.base);
  const cookie = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const boundary = 'cutboundary1234';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/user/import?mode=check HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${server.base}\r\nCookie: ${cookie}\r\n` +
      `${Object.entries(admin.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n${head}username,realName\n`,
  );
  const chunk = 'cut-person,Cut_Person\n'.repeat(20_000);
  for (let index = 0; index < 5; index++) await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
  await until(async () => (await spooled()).some((name) => !before.has(name)), 'the upload is being spooled');
  socket.destroy();
  await until(async () => (await spooled()).every((name) => before.has(name)), 'no spooled file left by the cut upload', 10_000);
});

test('the orphan clean-up leaves alone a spooled file of another live server with this pid (another PID namespace sharing the temp dir)', async () => {
  // What that server's spoolUpload names its file: its pid (the same number, in its own namespace), its own random id.
  const theirs = join(tmpdir(), `iam-user-import.${process.pid}.${randomUUID()}.${randomUUID()}.csv`);
  writeFileSync(theirs, csv('theirs', 3), { mode: 0o600 });
  try {
    const answer = await upload(csv('ours', 3), 'check');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    await settled(answer.body.data.id);
    assert.ok(
      existsSync(theirs),
      "our upload removed another server's live import file as an orphan: its name carries neither host nor PID namespace, so a same-numbered pid under another id is taken for this process's predecessor",
    );
  } finally {
    rmSync(theirs, { force: true });
  }
});
