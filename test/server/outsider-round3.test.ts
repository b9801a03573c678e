// The outsider's third round, each finding held by a hostile test that failed on the code before
// its fix (docs/security.md names them):
//  1. acting on a person who holds a right the caller lacks (server/auth/grants.ts, assertMayActOn):
//     every user-changing call × a tenant administrator against an app administrator, a fellow
//     administrator of the same tenant and the platform administrator; bulk answers per user;
//  2. the last enabled platform administrators removed by two opposing requests at once
//     (server/services/last-platform-admin.ts);
//  3. private API answers cacheable (Cache-Control: no-store);
//  4. a token header name that browsers, proxies or the server use (src/core/validation/token-header.ts);
//  5. OIDC interaction ids in the request log (server/observability/logging.ts);
//  6. back-channel logout as SSRF (server/http/outbound-address.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { ADMIN, startServer, transform, type Client, type TestServer } from './harness';
import { snapshot } from './security-support';
import { RelyingParty } from './oidc-rp';
import { until } from './receivers';
import { Status, UserType } from '../../src/core/enums';
import { checkOutboundUrl, OutboundAddressError, outboundFetch } from '../../server/http/outbound-address';
import { deliverDueLogouts, queueBackchannelLogouts } from '../../server/oidc/backchannel';
import { oidcDb } from '../../server/oidc/tables';

const PASSWORD = 'Round3pass1';
/** A page embedding the elements in token mode. */
const PORTAL = 'http://portal.example.test';

let server: TestServer;
let admin: Client;
const logLines: string[] = [];

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data;
}

async function signIn(target: TestServer, username: string, password = PASSWORD): Promise<Client> {
  const client = target.client();
  const answer = await client.login(username, password);
  assert.equal(answer.body.data?.loginSuccess, true, `${username}: ${JSON.stringify(answer.body)}`);
  return client;
}

before(async () => {
  const stream = new PassThrough();
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop()!;
    logLines.push(...parts);
  });
  server = await startServer({ logger: true, logStream: stream, corsOrigins: [PORTAL] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

describe('1. a caller acts only on people who hold no right it lacks', () => {
  /** Tenant T with its administrator (the caller, also administering app Y) and a fellow
   *  administrator; an administrator of app X and a member in T; sub-tenant S with its administrator. */
  const ids = { tenantT: '', tenantS: '', caller: '', fellow: '', appAdmin: '', member: '', subAdmin: '', platform: '', appX: '', appY: '', roleY: '' };
  let caller: Client;
  const version = async (id: string) => (await ok(admin.get<{ version: number }>(`/api/user/${id}`), 'version')).version;

  before(async () => {
    const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!;
    ids.tenantT = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Round3_T', type: 'company' }), 'T')).id;
    ids.tenantS = (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: ids.tenantT, name: 'Round3_S', type: 'company' }), 'S')).id;
    const user = async (username: string, fields: Record<string, unknown>) =>
      (await ok(admin.post<{ id: string }>('/api/user', { username, realName: 'Round_Three', password: transform(PASSWORD), ...fields }), username)).id;
    ids.caller = await user('r3-caller', { tenantId: ids.tenantT, isAdmin: true });
    ids.fellow = await user('r3-fellow', { tenantId: ids.tenantT, isAdmin: true });
    ids.appAdmin = await user('r3-app-admin', { tenantId: ids.tenantT });
    ids.member = await user('r3-member', { tenantId: ids.tenantT });
    ids.subAdmin = await user('r3-sub-admin', { tenantId: ids.tenantS, isAdmin: true });
    ids.platform = (await ok(admin.get<{ user: { id: string } }>('/api/cas/session'), 'session')).user.id;
    ids.appX = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Round3_X' }), 'X')).id;
    ids.appY = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Round3_Y' }), 'Y')).id;
    ids.roleY = (await ok(admin.post<{ id: string }>(`/api/apps/${ids.appY}/roles`, { name: 'Round3_Role' }), 'role')).id;
    await ok(admin.put(`/api/apps/${ids.appX}/admins`, { userIds: [ids.appAdmin] }), 'X admins');
    await ok(admin.put(`/api/apps/${ids.appY}/admins`, { userIds: [ids.caller] }), 'Y admins');
    caller = await signIn(server, 'r3-caller');
  });

  /** Every call that changes a person, aimed at `target` by the caller. */
  const attempts = (target: string) => [
    { what: 'PUT /user/:id', call: async () => caller.put(`/api/user/${target}`, { realName: 'Renamed_Three', version: await version(target) }) },
    {
      what: 'PUT /user/:id disable',
      call: async () => caller.put(`/api/user/${target}`, { availabilityStatus: Status.Disabled, version: await version(target) }),
    },
    { what: 'POST /user with id', call: async () => caller.post('/api/user', { id: target, realName: 'Renamed_Three', version: await version(target) }) },
    {
      what: 'PUT /user/:id/basic_info',
      call: async () => caller.put(`/api/user/${target}/basic_info`, { realName: 'Renamed_Three', version: await version(target) }),
    },
    {
      what: 'POST /user/:id/password',
      call: () => caller.post(`/api/user/${target}/password`, { id: target, password: transform('Taken0ver9'), opUserPassword: transform(PASSWORD) }),
    },
    { what: 'DELETE /authc/user/:id/login/unlock', call: () => caller.delete(`/api/authc/user/${target}/login/unlock`) },
    { what: 'DELETE /user/:id/sessions', call: () => caller.delete(`/api/user/${target}/sessions`) },
    { what: 'PUT /user/:id/roles/:appId', call: () => caller.put(`/api/user/${target}/roles/${ids.appY}`, { roleIds: [ids.roleY] }) },
    { what: 'PUT /apps/:appId/roles/:id/members', call: () => caller.put(`/api/apps/${ids.appY}/roles/${ids.roleY}/members`, { userIds: [target] }) },
    { what: 'PUT /apps/:id/admins', call: () => caller.put(`/api/apps/${ids.appY}/admins`, { userIds: [ids.caller, target] }) },
    { what: 'DELETE /user/:id', call: () => caller.delete(`/api/user/${target}`) },
  ];

  for (const [name, key] of [
    ['an app administrator', 'appAdmin'],
    ['a fellow administrator of the same tenant', 'fellow'],
    ['the platform administrator', 'platform'],
  ] as const) {
    test(`a tenant administrator changes nothing of ${name}, by any call`, async () => {
      const target = ids[key];
      const targetSession = key === 'platform' ? admin : await signIn(server, key === 'appAdmin' ? 'r3-app-admin' : 'r3-fellow');
      const before = await snapshot(server.app);
      const granted = [];
      for (const { what, call } of attempts(target)) {
        const answer = await call();
        if (![403, 404].includes(answer.status)) granted.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      // Making them (or withdrawing them as) a tenant administrator is acting on them too (the
      // platform administrator is no tenant user: not a candidate at all).
      if (key !== 'platform') {
        const admins = key === 'fellow' ? [ids.caller] : [ids.caller, ids.fellow, target];
        const tenantAdmins = await caller.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: admins });
        if (![403, 404].includes(tenantAdmins.status)) granted.push(`PUT /tenants/:id/admins: ${tenantAdmins.status}`);
      }
      for (const action of ['disable', 'unlock', 'delete'] as const) {
        const bulk = await ok(
          caller.post<{ results: { id: string; ok: boolean; status: number }[] }>('/api/user/bulk', { action, ids: [target] }),
          `bulk ${action}`,
        );
        if (bulk.results[0]!.ok) granted.push(`POST /user/bulk ${action}`);
      }
      assert.deepEqual(granted, []);
      assert.deepEqual(await snapshot(server.app), before, 'a refused call changed stored data');
      assert.equal((await targetSession.get('/api/cas/session')).status, 200, 'their session is still alive');
    });
  }

  test('a refusal names the right; bulk refuses per person and acts on the others', async () => {
    const refused = await caller.put(`/api/user/${ids.appAdmin}`, { realName: 'Renamed_Three', version: await version(ids.appAdmin) });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /administers apps you do not/);
    const fellow = await caller.delete(`/api/user/${ids.fellow}/sessions`);
    assert.match(fellow.body.message, /administers a tenant at or above your level/);
    const zh = await caller.delete(`/api/user/${ids.fellow}/sessions`, { 'accept-language': 'zh' });
    assert.match(zh.body.message, /租户/);

    const bulk = await ok(
      caller.post<{ results: { id: string; ok: boolean; status: number }[] }>('/api/user/bulk', {
        action: 'disable',
        ids: [ids.appAdmin, ids.member, ids.fellow],
      }),
      'bulk',
    );
    assert.deepEqual(
      bulk.results.map(({ id, ok: done, status }) => [id, done, status]),
      [
        [ids.appAdmin, false, 403],
        [ids.member, true, 200],
        [ids.fellow, false, 403],
      ],
    );
    await ok(caller.post('/api/user/bulk', { action: 'enable', ids: [ids.member] }), 'enable again');
  });

  test("people holding nothing beyond the caller stay the caller's to change: a member, an administrator of a sub-tenant", async () => {
    await ok(caller.put(`/api/user/${ids.member}`, { realName: 'Member_Three', version: await version(ids.member) }), 'member');
    await ok(caller.put(`/api/user/${ids.subAdmin}`, { realName: 'Sub_Three', version: await version(ids.subAdmin) }), 'sub-tenant admin');
    await ok(caller.delete(`/api/user/${ids.subAdmin}/sessions`), 'sub-tenant admin sessions');
    await ok(caller.put(`/api/tenants/${ids.tenantS}/admins`, { userIds: [] }), 'sub-tenant admins withdrawn');
    await ok(caller.put(`/api/apps/${ids.appY}/roles/${ids.roleY}/members`, { userIds: [ids.member] }), 'role member');
    await ok(caller.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: [ids.caller, ids.fellow, ids.member] }), 'a member made administrator');
    // The platform administrator acts on anyone.
    await ok(admin.put(`/api/user/${ids.appAdmin}`, { realName: 'Renamed_Three', version: await version(ids.appAdmin) }), 'platform');
    await ok(admin.put(`/api/tenants/${ids.tenantT}/admins`, { userIds: [ids.caller] }), 'platform withdraws tenant admins');
  });
});

describe('2. the last enabled platform administrator stays, under opposing requests at once', () => {
  let race: TestServer;
  before(async () => {
    race = await startServer();
  });
  after(async () => {
    await race.stop();
  });

  test('20 rounds of two platform administrators disabling, deleting or demoting each other at once leave one', async () => {
    const raceAdmin = await race.admin();
    const platformUser = (username: string) =>
      ok(
        raceAdmin.post<{ id: string }>('/api/user', {
          username,
          realName: 'Race_Admin',
          password: transform(PASSWORD),
          isAdmin: true,
          isMaster: true,
          extraProp: { intProperty1: UserType.Platform },
        }),
        username,
      );
    const p = (await platformUser('race-p')).id;
    const q = (await platformUser('race-q')).id;
    const db = race.app.ctx.db;
    const saved = await db.selectFrom('users').selectAll().where('id', 'in', [p, q]).execute();
    // Only P and Q are platform administrators from here on: the first one is disabled.
    await db.updateTable('users').set({ availabilityStatus: Status.Disabled }).where('username', '=', ADMIN.username).execute();
    const enabledAdmins = async () =>
      (
        await db
          .selectFrom('users')
          .select('id')
          .where('isAdmin', '=', 1)
          .where('isMaster', '=', 1)
          .where('userType', 'in', [UserType.Platform, UserType.System])
          .where('availabilityStatus', '=', Status.Enable)
          .execute()
      ).length;

    const moves = [
      (client: Client, other: string, version: number) => client.put(`/api/user/${other}`, { availabilityStatus: Status.Disabled, version }),
      (client: Client, other: string) => client.delete(`/api/user/${other}`),
      (client: Client, other: string, version: number) => client.put(`/api/user/${other}`, { isAdmin: false, version }),
      (client: Client, other: string) => client.post('/api/user/bulk', { action: 'disable', ids: [other] }),
    ];
    const failures: string[] = [];
    for (let round = 0; round < 20; round++) {
      // Both back as they were: enabled platform administrators, signed in.
      for (const row of saved) {
        const { id, ...fields } = row;
        const restored = await db.updateTable('users').set(fields).where('id', '=', id).executeTakeFirst();
        if (Number(restored.numUpdatedRows) === 0) await db.insertInto('users').values(row).execute();
      }
      const [clientP, clientQ] = await Promise.all([signIn(race, 'race-p'), signIn(race, 'race-q')]);
      const move = moves[round % moves.length]!;
      const answers = await Promise.all([
        move(clientP, q, saved.find((row) => row.id === q)!.version),
        move(clientQ, p, saved.find((row) => row.id === p)!.version),
      ]);
      const left = await enabledAdmins();
      if (left < 1) failures.push(`round ${round}: no enabled platform administrator left (${answers.map((answer) => answer.status).join(', ')})`);
    }
    assert.deepEqual(failures, []);
  });
});

describe('3. private API answers are not cached', () => {
  test('authenticated reads answer Cache-Control: no-store; content-addressed files keep their public caching', async () => {
    const me = (await ok(admin.get<{ user: { id: string } }>('/api/cas/session'), 'session')).user.id;
    for (const path of [
      '/api/cas/session',
      `/api/user/${me}`,
      '/api/user',
      '/api/cas/sessions',
      `/api/user/${me}/sessions`,
      '/api/audit',
      '/api/settings/login',
      '/api/config',
      '/api/tenants/tree',
      '/api/oidc/.well-known/openid-configuration',
    ]) {
      const answer = await admin.raw('GET', path);
      await answer.body?.cancel();
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('cache-control'), 'no-store', path);
    }
    const refused = await server.client().raw('GET', '/api/user');
    await refused.body?.cancel();
    assert.equal(refused.headers.get('cache-control'), 'no-store', 'a 401 too');
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], {
        type: 'image/png',
      }),
      'dot.png',
    );
    const uploaded = await ok(admin.post<{ url: string }>('/api/file/upload', form), 'upload');
    const file = await admin.raw('GET', `/api/file/get/${uploaded.url}`);
    await file.body?.cancel();
    assert.equal(file.status, 200);
    assert.match(file.headers.get('cache-control') ?? '', /public/);
  });
});

describe('4. the token header name is one of our own', () => {
  const save = async (tokenName: string, headers?: Record<string, string>) => {
    const { version } = await ok(admin.get<{ version: number }>('/api/config'), 'config');
    return admin.put('/api/config', { settings: { authConfig: { authType: 'token', tokenName } }, version }, headers);
  };

  test('standard, hop-by-hop, forwarding, tracing and request-id headers are refused with a field error', async () => {
    const bad = [
      'x-request-id',
      'User-Agent',
      'cookie',
      'host',
      'x-forwarded-for',
      'X-Forwarded-Host',
      'forwarded',
      'traceparent',
      'content-type',
      'origin',
      'referer',
      'accept',
      'accept-language',
      'connection',
      'content-length',
      'sec-fetch-site',
      'proxy-authorization',
      'transfer-encoding',
      'x-real-ip',
    ];
    for (const name of bad) {
      const answer = await save(name);
      assert.equal(answer.status, 400, name);
      assert.deepEqual(
        (answer.body.data as { fields: { field: string; rule: string }[] }).fields.map((field) => field.rule),
        ['rule.tokenNameReserved'],
        name,
      );
    }
    for (const name of ['x token', 'x:token', '', 'x-tök']) assert.equal((await save(name)).status, 400, JSON.stringify(name));
  });

  test('custom names and authorization are allowed', async () => {
    for (const name of ['x-iam-token', 'X-Shop-Token', 'authorization', 'token']) {
      assert.equal((await save(name)).status, 200, name);
    }
    await ok(save('token'), 'back to the default');
    const { version } = await ok(admin.get<{ version: number }>('/api/config'), 'config');
    await ok(admin.put('/api/config', { settings: { authConfig: { authType: 'default', tokenName: 'token' } }, version }), 'cookie mode again');
  });

  test('a reserved name stored before the check is not used: the default header is', async () => {
    await server.app.ctx.settings.update('config', (await server.app.ctx.settings.get('config')).version, (value) => ({
      ...value,
      settings: { ...value.settings, authConfig: { authType: 'token', tokenName: 'User-Agent' } },
    }));
    try {
      const signedIn = await server.client({ origin: PORTAL }).login(ADMIN.username, ADMIN.password, {}, { 'x-iam-auth-mode': 'token' });
      const { token, tokenName } = signedIn.body.data as { token: string; tokenName: string };
      assert.equal(tokenName, 'token');
      assert.equal(
        (await server.client({ origin: PORTAL }).get('/api/cas/session', { 'user-agent': token })).status,
        401,
        'the token in User-Agent is no session',
      );
      assert.equal((await server.client({ origin: PORTAL }).get('/api/cas/session', { token })).status, 200);
    } finally {
      await server.app.ctx.settings.update('config', (await server.app.ctx.settings.get('config')).version, (value) => ({
        ...value,
        settings: { ...value.settings, authConfig: { authType: 'default', tokenName: 'token' } },
      }));
    }
  });
});

describe('5. OIDC interaction ids stay out of the log', () => {
  test('a sign-in through the provider logs no interaction id', async () => {
    const rp = await RelyingParty.register(server, admin, 'Round3_Log', 'http://127.0.0.1:9/round3-callback');
    const browser = await server.admin();
    const request = await rp.authorization();
    const { url } = await rp.follow(browser, request.url);
    const uid = url.searchParams.get('uid');
    assert.ok(uid && uid.length >= 10, url.href);
    const allowed = await ok(browser.post<{ redirectURL: string }>(`/api/sso/interactions/${uid}`, { allow: true }), 'consent');
    assert.match(allowed.redirectURL, new RegExp(`/auth/${uid}`));
    const resumed = await rp.follow(browser, allowed.redirectURL);
    assert.ok(resumed.response.headers.get('location')?.includes('code='), 'the provider resumed the sign-in');
    await until(() => logLines.some((line) => line.includes('/api/oidc/auth/[redacted]')), 'the resume request logged');
    assert.deepEqual(
      logLines.filter((line) => line.includes(uid)),
      [],
    );
  });
});

describe("6. back-channel logout is no way into the server's network", () => {
  let rp: RelyingParty;
  let receiver: Server;
  let receiverUrl = '';
  const received: string[] = [];

  before(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        if (req.url === '/redirect') res.writeHead(302, { location: `${receiverUrl}/after-redirect` }).end();
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    rp = await RelyingParty.register(server, admin, 'Round3_Backchannel');
  });
  after(async () => {
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('saving a loopback, link-local, private or IPv4-mapped URI (or a name resolving to one) is refused with a field error', async () => {
    const port = new URL(receiverUrl).port;
    for (const uri of [
      `${receiverUrl}/logout`,
      `http://localhost:${port}/logout`,
      'http://169.254.169.254/latest/meta-data',
      `http://[::1]:${port}/logout`,
      `http://[::ffff:127.0.0.1]:${port}/logout`,
      'http://10.0.0.8/logout',
      'http://100.64.1.1/logout',
      'http://0.0.0.0/logout',
      'http://0x7f.0.0.1/logout',
    ]) {
      const answer = await admin.put(`/api/apps/${rp.appId}/oidc-client`, { backchannelLogoutUri: uri });
      assert.equal(answer.status, 400, `${uri}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body.data, { fields: [{ field: 'backchannelLogoutUri', rule: 'rule.outboundUrl' }] }, uri);
    }
    assert.equal(received.length, 0, received.join('\n'));
  });

  test("a loopback URI stored before the check gets nothing at sending time; with the operator's allow setting it gets the logout token", async () => {
    const db = oidcDb(server.app.ctx.db);
    await db
      .updateTable('oidcClients')
      .set({ backchannelLogoutUri: `${receiverUrl}/logout` })
      .where('appId', '=', rp.appId)
      .execute();
    const subject = `round3-${Date.now()}`;
    const delivery = () => db.selectFrom('oidcLogoutDeliveries').selectAll().where('subject', '=', subject).executeTakeFirst();
    await queueBackchannelLogouts(db, subject, [{ clientId: rp.appId }]);
    await deliverDueLogouts(server.app.ctx, 10, () => false);
    const failed = await until(async () => (await delivery())?.error, 'the refused attempt recorded');
    assert.match(failed, /not a public address/);
    assert.equal(received.length, 0, received.join('\n'));
    await db.deleteFrom('oidcLogoutDeliveries').where('subject', '=', subject).execute();

    // The operator's IAM_OUTBOUND_ALLOW_PRIVATE=1, as the server would have read it at start.
    server.app.ctx.config.outboundAllowPrivate = true;
    try {
      await ok(admin.put(`/api/apps/${rp.appId}/oidc-client`, { backchannelLogoutUri: `${receiverUrl}/logout` }), 'loopback allowed');
      await queueBackchannelLogouts(db, subject, [{ clientId: rp.appId }]);
      await deliverDueLogouts(server.app.ctx, 10, () => false);
      await until(() => received.find((line) => line.startsWith('POST /logout logout_token=')), 'the logout token received');
    } finally {
      server.app.ctx.config.outboundAllowPrivate = false;
    }
  });

  test('outboundFetch follows no redirect, connects only to the address it checked, and refuses IPv4-mapped and named loopback targets', async () => {
    received.length = 0;
    const redirected = await outboundFetch(`${receiverUrl}/redirect`, { method: 'POST', body: 'x', allowPrivate: true });
    assert.equal(redirected.status, 302);
    assert.deepEqual(
      received.map((line) => line.split(' ')[1]),
      ['/redirect'],
      'the redirect target was not requested',
    );

    // A name resolving to a public address is connected to at that address: here a test resolver
    // answers the receiver's loopback address for a made-up name (allowed), and the request reaches
    // it with the name as Host, without asking the system resolver (which does not know the name).
    const pinned = await outboundFetch(`http://pinned.invalid:${new URL(receiverUrl).port}/pinned`, {
      allowPrivate: true,
      lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    assert.equal(pinned.status, 200);
    assert.equal(await pinned.text(), 'ok');

    for (const url of [
      'http://localhost/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[::127.0.0.1]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://224.0.0.1/',
    ]) {
      await assert.rejects(checkOutboundUrl(url), (error) => error instanceof OutboundAddressError && error.reason === 'address', url);
      await assert.rejects(outboundFetch(url), OutboundAddressError, url);
    }
    // A name that resolves to a private address among public ones is refused too.
    await assert.rejects(
      checkOutboundUrl('http://mixed.invalid/', {
        lookup: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '10.1.2.3', family: 4 },
        ],
      }),
      OutboundAddressError,
    );
    for (const url of ['ftp://example.com/', 'http://user:secret@example.com/', 'not a url']) {
      await assert.rejects(checkOutboundUrl(url), (error) => error instanceof OutboundAddressError && error.reason === 'url', url);
    }
    const publicTarget = await checkOutboundUrl('https://[2606:4700::1111]/');
    assert.deepEqual(publicTarget.addresses, [{ address: '2606:4700::1111', family: 6 }]);
  });
});
