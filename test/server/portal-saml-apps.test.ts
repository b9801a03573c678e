// The portal's app list (the multi-app menu list) says which apps are SAML service providers, so
// "Your apps" opens them by IdP-initiated sign-in rather than by their entrypoint; the flag follows
// the app's SAML settings as they are registered and removed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import {} from './saml-support';

let server: TestServer;
let admin: Client;
let member: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'portal-member', realName: 'Portal_Member', password: transform('Secret123') }));
  member = server.client();
  assert.equal((await member.login('portal-member', 'Secret123')).status, 200);
});
after(() => server.stop());

type Listed = { appId: string | null; saml: boolean }[];
const samlFlags = async () =>
  Object.fromEntries((await ok(member.get<Listed>('/api/menu/app/assignment/public/multi_app_menu/list'))).map((menu) => [menu.appId, menu.saml]));

test('a SAML app is listed with saml: true, an OpenID Connect app with false; removing the settings clears it', async () => {
  const saml = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Ledger_SAML', entrypoint: 'https://ledger.example.test/' }));
  const oidc = await ok(admin.post<{ id: string }>('/api/apps', { name: 'Wiki_OIDC', entrypoint: 'https://wiki.example.test/' }));
  for (const app of [saml, oidc]) await ok(admin.post('/api/menu-plans', { appId: app.id, name: 'Menu', items: [{ name: 'Start', path: '/start' }] }));
  await ok(
    admin.put(`/api/apps/${saml.id}/saml-provider`, {
      entityId: 'https://ledger.example.test/saml',
      acsUrls: [{ url: 'https://ledger.example.test/acs', binding: 'HTTP-POST' }],
    }),
  );
  let flags = await samlFlags();
  assert.equal(flags[saml.id], true);
  assert.equal(flags[oidc.id], false);
  await ok(admin.delete(`/api/apps/${saml.id}/saml-provider`));
  flags = await samlFlags();
  assert.equal(flags[saml.id], false);
});
