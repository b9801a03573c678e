// Menu plans and the multi-app menu list, settings and config, channels, messages, the audit log,
// the current user's sessions, the OpenAPI document, and the console page with history fallback.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, transform, type Client, type TestServer } from './harness';
import type { PagedList } from '../../src/core/types';

const staticDir = mkdtempSync(join(tmpdir(), 'iam-static-'));
let server: TestServer;
let admin: Client;
let user: Client;
let userId: string;

before(async () => {
  mkdirSync(join(staticDir, 'dist'));
  mkdirSync(join(staticDir, 'demo'));
  writeFileSync(join(staticDir, 'dist', 'elements.js'), 'export {};\n');
  writeFileSync(join(staticDir, 'demo', 'index.html'), '<!doctype html><title>demo</title>');
  server = await startServer({ staticRoots: { dist: join(staticDir, 'dist'), demo: join(staticDir, 'demo') } });
  admin = await server.admin();
  userId = (await admin.post<{ id: string }>('/api/user', { username: 'ops-user', realName: 'Ops_User', password: transform('Secret123') })).body.data.id;
  user = server.client();
  await user.login('ops-user', 'Secret123');
});
after(async () => {
  await server.stop();
  rmSync(staticDir, { recursive: true, force: true });
});

test('menu plans: platform writes, signed-in users read the multi-app list', async () => {
  const app = (await admin.post<{ id: string }>('/api/apps', { name: 'Menu_App' })).body.data;
  const items = [{ name: 'Users', path: '/operate/user', children: [{ name: 'Detail', path: '/user/detail' }] }];
  const plan = await admin.post<{ id: string; version: number }>('/api/menu-plans', { appId: app.id, name: 'Main menu', items });
  assert.equal(plan.status, 200, JSON.stringify(plan.body));
  await admin.post('/api/menu-plans', { name: 'Global menu', items: [{ name: 'Home', path: '/home/index' }] });
  const bad = await admin.post<{ fields: { field: string; rule: string }[] }>('/api/menu-plans', {
    name: 'Bad menu',
    items: [{ name: 'X', path: 'has space' }],
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.data.fields[0]?.field, 'items.0.path');
  const list = await user.get<{ appName: string; menus: unknown[] }[]>('/api/menu/app/assignment/public/multi_app_menu/list');
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.data.map((entry) => entry.appName).sort(), ['Global menu', 'Menu_App']);
  const filtered = await user.get<{ menus: unknown[] }[]>(`/api/menu/app/assignment/public/multi_app_menu/list?appId=${app.id}`);
  assert.deepEqual(filtered.body.data[0]?.menus, items);
  assert.equal((await user.get('/api/menu-plans')).status, 403);
  assert.equal((await user.post('/api/menu-plans', { name: 'Mine', items: [] })).status, 403);
  const update = await admin.put(`/api/menu-plans/${plan.body.data.id}`, { name: 'Renamed menu', version: plan.body.data.version });
  assert.equal(update.status, 200);
  assert.equal((await admin.put(`/api/menu-plans/${plan.body.data.id}`, { name: 'Stale menu', version: plan.body.data.version })).status, 409);
  const paged = await admin.get<PagedList<{ name: string }>>('/api/menu-plans?searchProp=name&searchValue=renamed');
  assert.deepEqual(
    paged.body.data.list.map((row) => row.name),
    ['Renamed menu'],
  );
  assert.equal((await admin.delete(`/api/menu-plans/${plan.body.data.id}`)).status, 200);
});

test('login settings and console config: validated, versioned, public config read', async () => {
  const current = await admin.get<{ value: { maxFailures: number }; version: number }>('/api/settings/login');
  assert.equal(current.body.data.value.maxFailures, 5);
  const bad = await admin.put<{ fields: { field: string; rule: string }[] }>('/api/settings/login', { maxFailures: 0, version: current.body.data.version });
  assert.deepEqual(bad.body.data.fields, [{ field: 'maxFailures', rule: 'rule.range?min=1&max=100' }]);
  const saved = await admin.put<{ value: { maxFailures: number }; version: number }>('/api/settings/login', {
    maxFailures: 7,
    version: current.body.data.version,
  });
  assert.equal(saved.body.data.value.maxFailures, 7);
  assert.equal((await admin.put('/api/settings/login', { maxFailures: 8, version: current.body.data.version })).status, 409);
  assert.equal((await user.get('/api/settings/login')).status, 403);

  const config = await server
    .client()
    .get<{ value: { system: { appName: string }; settings: { authConfig: { tokenName: string } } }; version: number }>('/api/config');
  assert.equal(config.body.data.value.system.appName, 'IAM Console');
  assert.equal(config.body.data.value.settings.authConfig.tokenName, 'token');
  const renamed = await admin.put<{ value: { system: { appName: string; projectScene: string } } }>('/api/config', {
    system: { appName: 'ACME IAM' },
    settings: { authConfig: { authType: 'token', tokenName: 'X-Acme-Token' } },
    version: config.body.data.version,
  });
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.equal(renamed.body.data.value.system.appName, 'ACME IAM');
  assert.equal(renamed.body.data.value.system.projectScene, 'td-iam', 'other fields keep their values');
  const badHeader = await admin.put('/api/config', {
    settings: { authConfig: { authType: 'token', tokenName: 'bad header!' } },
    version: config.body.data.version + 1,
  });
  assert.equal(badHeader.status, 400);
  assert.equal((await user.put('/api/config', { system: { appName: 'Mine' }, version: 2 })).status, 403);
  await admin.put('/api/config', { settings: { authConfig: { authType: 'default', tokenName: 'token' } }, version: config.body.data.version + 1 });
});

test('channels: secrets are never answered, and the mask keeps them', async () => {
  const created = await admin.post<{ id: string; version: number; config: Record<string, string> }>('/api/channels', {
    name: 'Mail',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: 'smtp.example.com', port: '587', password: 's3cret' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.deepEqual(created.body.data.config, { host: 'smtp.example.com', port: '587', password: '********' });
  const updated = await admin.put<{ config: Record<string, string> }>(`/api/channels/${created.body.data.id}`, {
    config: { host: 'mail.example.com', port: '587', password: '********' },
    version: created.body.data.version,
  });
  assert.equal(updated.body.data.config.host, 'mail.example.com');
  const row = await server.app.ctx.db.selectFrom('channels').select('config').where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
  assert.equal(JSON.parse(row.config).password, 's3cret', 'the stored secret is kept');
  assert.equal((await admin.post('/api/channels', { name: 'Bad', serviceType: 'PIGEON', vendor: 'x', config: {} })).status, 400);
  assert.equal((await user.get('/api/channels')).status, 403);
  assert.equal((await admin.delete(`/api/channels/${created.body.data.id}`)).status, 200);
});

test('in-site messages: sent by an administrator, read by their recipient only', async () => {
  const sent = await admin.post<{ count: number }>('/api/messages', { title: 'Hello', content: 'Welcome aboard', userIds: [userId] });
  assert.equal(sent.body.data.count, 1);
  const unread = await user.get<PagedList<{ id: string; title: string }>>('/api/messages');
  assert.deepEqual(
    unread.body.data.list.map((item) => item.title),
    ['Hello'],
  );
  assert.equal((await admin.get<PagedList<unknown>>('/api/messages')).body.data.pager.total, 0, 'not the sender’s');
  assert.equal((await admin.put(`/api/messages/${unread.body.data.list[0]!.id}/read`)).status, 404);
  assert.equal((await user.put(`/api/messages/${unread.body.data.list[0]!.id}/read`)).status, 200);
  assert.equal((await user.get<PagedList<unknown>>('/api/messages')).body.data.pager.total, 0);
  assert.equal((await user.get<PagedList<unknown>>('/api/messages?status=read')).body.data.pager.total, 1);
  assert.equal((await user.post('/api/messages', { title: 'Spam', content: 'x', userIds: [userId] })).status, 403);
});

test('my sessions: listed with public handles, others signed out on demand', async () => {
  const second = server.client();
  await second.login('ops-user', 'Secret123');
  const list = await user.get<{ id: string; current: boolean }[]>('/api/cas/sessions');
  assert.equal(list.body.data.length, 2);
  assert.equal(list.body.data.filter((row) => row.current).length, 1);
  const secret = user.cookies.get('iam_session')!;
  assert.ok(list.body.data.every((row) => row.id !== secret && !JSON.stringify(row).includes(secret)));
  const other = list.body.data.find((row) => !row.current)!;
  assert.equal((await admin.delete(`/api/cas/sessions/${other.id}`)).status, 404, 'not someone else’s session');
  assert.equal((await user.delete(`/api/cas/sessions/${other.id}`)).status, 200);
  assert.equal((await second.get('/api/cas/session')).status, 401);
  const third = server.client();
  await third.login('ops-user', 'Secret123');
  const all = await user.delete<{ revoked: number }>('/api/cas/sessions');
  assert.equal(all.body.data.revoked, 1);
  assert.equal((await third.get('/api/cas/session')).status, 401);
  assert.equal((await user.get('/api/cas/session')).status, 200, 'the current one stays');
});

test('the audit log records security events with actor, target, time and IP', async () => {
  await server.client().login('ops-user', 'Wrong1234');
  const page =
    await admin.get<PagedList<{ action: string; actorName: string | null; ip: string; at: number; success: boolean; targetId: string | null }>>(
      '/api/audit?size=100',
    );
  const actions = new Set(page.body.data.list.map((row) => row.action));
  for (const action of [
    'login.success',
    'login.failure',
    'user.create',
    'app.create',
    'menu.create',
    'settings.update',
    'config.update',
    'channel.create',
    'message.send',
    'session.revoke',
  ]) {
    assert.ok(actions.has(action), `missing ${action}`);
  }
  const failure = page.body.data.list.find((row) => row.action === 'login.failure')!;
  assert.equal(failure.success, false);
  assert.equal(failure.ip, '127.0.0.1');
  const created = page.body.data.list.find((row) => row.action === 'user.create')!;
  assert.equal(created.actorName, 'admin');
  assert.equal(created.targetId, userId);
  const searched = await admin.get<PagedList<{ action: string }>>('/api/audit?searchProp=action&searchValue=login.failure');
  assert.ok(searched.body.data.list.every((row) => row.action === 'login.failure'));
  assert.equal((await user.get('/api/audit')).status, 403);
});

test('OpenAPI 3 lists every API call with its request and answer', async () => {
  const response = await fetch(`${server.base}/api/openapi.json`);
  const doc = (await response.json()) as {
    openapi: string;
    paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown>; parameters?: { in: string; name: string }[] }>>;
  };
  assert.match(doc.openapi, /^3\./);
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)),
  );
  const registered = server.app.printRoutes({ commonPrefix: false });
  assert.ok(registered.length > 0);
  const expected = [
    'POST /api/authc/login',
    'GET /api/cas/session',
    'GET /api/cas/login',
    'GET /api/cas/logout',
    'GET /api/captcha/image/display',
    'DELETE /api/authc/user/{id}/login/unlock',
    'GET /api/user',
    'GET /api/user/{id}',
    'GET /api/user/{id}/basic_info',
    'PUT /api/user/{id}/basic_info',
    'PUT /api/user/profile',
    'POST /api/user',
    'DELETE /api/user/{id}',
    'POST /api/user/{id}/password',
    'PUT /api/user/password',
    'GET /api/license/status',
    'GET /api/license/auth',
    'POST /api/license/auth',
    'POST /api/file/upload',
    'GET /api/file/get/{name}',
    'GET /api/menu/app/assignment/public/multi_app_menu/list',
    'GET /api/tenants',
    'POST /api/apps',
    'PUT /api/apps/{appId}/roles/{id}/members',
    'GET /api/audit',
    'GET /api/cas/sessions',
    'PUT /api/config',
    'GET /api/messages',
  ];
  for (const operation of expected) assert.ok(documented.has(operation), `${operation} is documented`);
  const login = doc.paths['/api/authc/login']!.post!;
  assert.ok(login.requestBody, 'the sign-in body is described');
  assert.ok(login.responses['200'] && login.responses['400']);
  const list = doc.paths['/api/user']!.get!;
  assert.deepEqual(
    list.parameters
      ?.filter((p) => p.in === 'query')
      .map((p) => p.name)
      .sort(),
    ['order', 'page', 'searchProp', 'searchValue', 'size', 'sort', 'tenantId', 'tenantMatch'],
  );
});

test('the console page, the bundle, the demo pages and the history fallback', async () => {
  const home = await fetch(`${server.base}/`);
  assert.equal(home.status, 200);
  const html = await home.text();
  assert.match(html, /<iam-console><\/iam-console>/);
  assert.match(html, /src="\/dist\/elements\.js"/);
  assert.match(home.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const deep = await fetch(`${server.base}/operate/user`);
  assert.equal(deep.status, 200);
  assert.equal(await deep.text(), html, 'reloading a console route serves the page');
  const bundle = await fetch(`${server.base}/dist/elements.js`);
  assert.equal(bundle.status, 200);
  assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
  assert.equal((await fetch(`${server.base}/demo/index.html`)).status, 200);
  assert.equal((await fetch(`${server.base}/missing.js`)).status, 404, 'files are not answered with the page');
  const api = await fetch(`${server.base}/api/nothing-here`);
  assert.equal(api.status, 404);
  assert.deepEqual(await api.json(), { code: 404, message: 'Not Found', data: null });
});
