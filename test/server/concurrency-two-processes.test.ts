// Production server processes on one database (SQLite file or PostgreSQL): they start together on
// a fresh database (one migration, one root tenant, one administrator); concurrent edits
// of one record with the same version give one success and 409s, never a lost update; and what
// shared-state.test.ts (two apps in one process) does not show: a captcha issued by one process is
// answered on the other, a file uploaded to one is served by the other, a lockout reached by
// parallel guesses spread over both holds on both, a session made on one works on the other.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Db } from '../../server/db/connect';
import { ADMIN, Client, createTestDatabase, transform } from './harness';
import { spawnServer, startProcessPair, type ChildServer, type ProcessPair } from './crash-process';

const PARALLEL_EDITS = 8;

let servers: ChildServer[] = [];
let db: Db;
let admins: Client[] = [];
let pair: ProcessPair | undefined;

before(async () => {
  pair = await startProcessPair();
  ({ servers, db, admins } = pair);
});
after(async () => {
  await pair?.stop();
});

const clientOn = (index: number) => new Client(servers[index]!.base, servers[index]!.base);

interface Versioned {
  id: string;
  version: number;
}

/** Sends PARALLEL_EDITS updates of one record at once, alternating between the processes. */
async function raceEdits(path: string, version: number, body: (n: number) => Record<string, unknown>) {
  const answers = await Promise.all(Array.from({ length: PARALLEL_EDITS }, (_, n) => admins[n % 2]!.put<Versioned>(path, { ...body(n), version })));
  const winners = answers.flatMap((answer, n) => (answer.status === 200 ? [n] : []));
  assert.equal(winners.length, 1, `exactly one success: ${answers.map((answer) => answer.status).join(',')}`);
  assert.ok(
    answers.every((answer) => answer.status === 200 || answer.status === 409),
    answers.map((answer) => answer.status).join(','),
  );
  return { winner: winners[0]!, answer: answers[winners[0]!]! };
}

test('processes starting together on a fresh database all start, with one root tenant and one administrator', async () => {
  const fresh = await createTestDatabase({ empty: true });
  const started = await Promise.allSettled([spawnServer(fresh), spawnServer(fresh), spawnServer(fresh)]);
  try {
    const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason).slice(0, 400)] : []));
    assert.deepEqual(failures, [], 'every process started');
    const first = (started[0] as PromiseFulfilledResult<ChildServer>).value;
    const client = new Client(first.base, first.base);
    await client.login(ADMIN.username, ADMIN.password);
    const roots = await client.get<unknown[]>('/api/tenants/tree');
    assert.equal(roots.body.data.length, 1, 'one root tenant');
    const admins = await client.get<{ pager: { total: number } }>(`/api/user?searchProp=username&searchValue=${ADMIN.username}`);
    assert.equal(admins.body.data.pager.total, 1, `one first administrator: ${JSON.stringify(admins.body)}`);
  } finally {
    await Promise.all(started.flatMap((result) => (result.status === 'fulfilled' ? [result.value.stop()] : [])));
    await fresh.drop();
  }
});

describe('concurrent edits of one record', () => {
  test('a user: one success, the others 409, and the stored value is the winner’s', async () => {
    const created = await admins[0]!.post<Versioned>('/api/user', { username: 'race-user', realName: 'Race_Start', password: transform('Secret123') });
    const user = (await admins[0]!.get<Versioned>(`/api/user/${created.body.data.id}`)).body.data;
    const { winner, answer } = await raceEdits(`/api/user/${user.id}`, user.version, (n) => ({ realName: `Racer_${n}` }));
    const stored = await admins[1]!.get<Versioned & { realName: string }>(`/api/user/${user.id}`);
    assert.equal(stored.body.data.realName, `Racer_${winner}`, 'no lost update');
    assert.equal(stored.body.data.version, user.version + 1);
    assert.equal(answer.body.data.version, user.version + 1);
  });

  test('an app: one success, the others 409, and the stored value is the winner’s', async () => {
    const app = (await admins[0]!.post<Versioned>('/api/apps', { name: 'Race_App' })).body.data;
    const { winner } = await raceEdits(`/api/apps/${app.id}`, app.version, (n) => ({ detail: `Detail from racer ${n}` }));
    const stored = await admins[1]!.get<Versioned & { detail: string }>(`/api/apps/${app.id}`);
    assert.equal(stored.body.data.detail, `Detail from racer ${winner}`);
    assert.equal(stored.body.data.version, app.version + 1);
  });

  test('a tenant: one success, the others 409, and the stored value is the winner’s', async () => {
    const tree = await admins[0]!.get<{ id: string }[]>('/api/tenants/tree');
    const rootId = tree.body.data[0]!.id;
    const tenant = (await admins[0]!.post<Versioned>('/api/tenants', { parentId: rootId, name: 'Race_Tenant', type: 'company' })).body.data;
    assert.ok(tenant.id, 'tenant created');
    const { winner } = await raceEdits(`/api/tenants/${tenant.id}`, tenant.version, (n) => ({ name: `Race_Tenant_${n}`, type: 'company' }));
    const stored = await admins[1]!.get<Versioned & { name: string }>(`/api/tenants/${tenant.id}`);
    assert.equal(stored.body.data.name, `Race_Tenant_${winner}`);
  });
});

/** The captcha answer, found from its stored SHA-256 (NUMBER captchas of 4 digits). */
async function solveLatestCaptcha(): Promise<string> {
  const row = await db.kysely.selectFrom('captchas').select('answerHash').orderBy('expiresAt', 'desc').executeTakeFirstOrThrow();
  const digits = '23456789';
  for (const a of digits)
    for (const b of digits)
      for (const c of digits)
        for (const d of digits) {
          if (
            createHash('sha256')
              .update(a + b + c + d)
              .digest('hex') === row.answerHash
          )
            return a + b + c + d;
        }
  throw new Error('captcha not solved');
}

async function setLoginPolicy(changes: Record<string, unknown>) {
  const current = await admins[0]!.get<{ version: number }>('/api/settings/login');
  const saved = await admins[0]!.put('/api/settings/login', { version: current.body.data.version, ...changes });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

describe('state shared by two processes', () => {
  test('a session made on one process works on the other', async () => {
    const client = clientOn(0);
    await client.login(ADMIN.username, ADMIN.password);
    const other = clientOn(1);
    other.cookies = client.cookies;
    const session = await other.get<{ user: { username: string } }>('/api/cas/session');
    assert.equal(session.body.data.user.username, ADMIN.username);
  });

  test('a captcha issued by one process is answered on the other, once', async () => {
    await setLoginPolicy({ captchaEnabled: true, captchaKind: 'NUMBER', captchaLength: 4 });
    try {
      const key = 'shared-captcha-key-0001';
      const image = await fetch(`${servers[0]!.base}/api/captcha/image/display?key=${key}`);
      assert.equal(image.status, 200);
      const answer = await solveLatestCaptcha();
      const signIn = await clientOn(1).login(ADMIN.username, ADMIN.password, { captcha: answer, captchaKey: key });
      assert.equal(signIn.body.data?.loginSuccess, true, JSON.stringify(signIn.body));
      const replay = await clientOn(0).login(ADMIN.username, ADMIN.password, { captcha: answer, captchaKey: key });
      assert.notEqual(replay.body.data?.loginSuccess, true, 'used up on the other process');
    } finally {
      await setLoginPolicy({ captchaEnabled: false });
    }
  });

  test('a file uploaded to one process is served by the other', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="blue"/></svg>';
    const form = new FormData();
    form.append('file', new Blob([svg]), 'shared.svg');
    const uploaded = await admins[0]!.request<{ url: string }>('POST', '/api/file/upload?purpose=image', form);
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const served = await fetch(`${servers[1]!.base}/api/file/get/${uploaded.body.data.url}`);
    assert.equal(served.status, 200);
    assert.match(await served.text(), /fill="blue"/);
  });

  test('parallel wrong passwords over both processes lock the account on both', async () => {
    await setLoginPolicy({ captchaAfterFailures: 0, maxFailures: 5, lockMinutes: 15 });
    try {
      await admins[0]!.post('/api/user', { username: 'shared-lock', realName: 'Shared_Lock', password: transform('Secret123') });
      const guesses = await Promise.all(Array.from({ length: 12 }, (_, n) => clientOn(n % 2).login('shared-lock', `Wrong${1000 + n}`)));
      assert.ok(
        guesses.every((answer) => answer.status === 401 || answer.status === 429),
        guesses.map((answer) => answer.status).join(','),
      );
      assert.ok(
        guesses.some((answer) => answer.status === 429),
        'the lock is reached',
      );
      for (const index of [0, 1]) {
        const right = await clientOn(index).login('shared-lock', 'Secret123');
        assert.equal(right.status, 429, `locked on process ${index} even with the right password`);
      }
    } finally {
      await setLoginPolicy({ captchaAfterFailures: 3, maxFailures: 5 });
    }
  });
});
