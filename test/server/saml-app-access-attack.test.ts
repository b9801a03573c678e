// Hostile checks of who gets a SAML assertion for which app: a disabled app (which OpenID Connect
// already refuses), the signing keys' management route per caller kind, another person's pending
// sign-in, and Single Logout across apps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, ServiceProvider } from './saml-support';
import { Status } from '../../src/core/enums';

let server: TestServer;
let admin: Client;
let browser: Client;
let other: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  for (const name of ['saml-alice', 'saml-bob'])
    await ok(admin.post('/api/user', { username: name, realName: name.replace('-', '_'), email: `${name}@example.test`, password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-alice', 'Secret123')).status, 200);
  other = server.client();
  assert.equal((await other.login('saml-bob', 'Secret123')).status, 200);
});
after(() => server.stop());

async function disable(appId: string) {
  const app = await ok(admin.get<{ version: number }>(`/api/apps/${appId}`));
  await ok(admin.put(`/api/apps/${appId}`, { status: Status.Disabled, version: app.version }));
}

test('a disabled app gets no SAML sign-in (SP-initiated)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Disabled_Sp_App');
  await disable(provider.appId);
  const first = await provider.sendAuthnRequest(browser);
  if (first.status === 303 && /\/saml\/authorize/.test(first.headers.get('location') ?? '')) {
    const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
    const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
    assert.ok(!xml.includes('<saml:Assertion'), 'a disabled app received an assertion');
  }
  // The app is told: a RequestDenied Response posted to its registered service, no assertion.
  assert.equal(first.status, 200);
  const { fields } = postedForm(await first.text());
  const refusal = Buffer.from(fields.SAMLResponse!, 'base64').toString();
  assert.match(refusal, /status:RequestDenied/);
  assert.doesNotMatch(refusal, /Assertion/);
});

test('a disabled app cannot be opened from the portal (IdP-initiated)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Disabled_Portal_App');
  await disable(provider.appId);
  const launched = await browser.post<{ redirectURL: string }>(`/api/saml/apps/${provider.appId}/launch`, {});
  if (launched.status === 200) {
    const { form } = await consentAndAnswer(browser, launched.body.data.redirectURL);
    const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
    assert.ok(!xml.includes('<saml:Assertion'), 'a disabled app received an assertion');
  } else assert.equal(launched.status, 404);
  assert.equal(launched.status, 404);
});

test("another person cannot collect or re-answer someone's pending sign-in", async () => {
  const provider = await ServiceProvider.register(server, admin, 'Pending_App');
  const first = await provider.sendAuthnRequest(browser);
  const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
  await ok(browser.post(`/api/saml/requests/${id}`, { allow: true }));
  assert.equal((await other.post(`/api/saml/requests/${id}`, { allow: true })).status, 404);
  const stolen = await other.raw('GET', `/api/saml/requests/${id}/answer`);
  assert.equal(stolen.status, 409);
  assert.doesNotMatch(await stolen.text(), /SAMLResponse/);
  const anonymous = await server.client().raw('GET', `/api/saml/requests/${id}/answer`);
  assert.equal(anonymous.status, 401);
  // The person's own answer still works once, and only once.
  const page = await browser.raw('GET', `/api/saml/requests/${id}/answer`);
  assert.equal(page.status, 200);
  assert.equal((await browser.raw('GET', `/api/saml/requests/${id}/answer`)).status, 404);
});

test('signing keys: only the platform reads or rotates them; no private key is ever answered', async () => {
  assert.equal((await browser.get('/api/saml/keys')).status, 403);
  assert.equal((await browser.post('/api/saml/keys/rotate', {})).status, 403);
  assert.equal((await server.client().get('/api/saml/keys')).status, 401);
  const keys = await admin.raw('GET', '/api/saml/keys');
  assert.equal(keys.status, 200);
  assert.doesNotMatch(await keys.text(), /PRIVATE KEY|privateKey/);
  const metadata = await (await fetch(`${server.base}/api/saml/metadata`)).text();
  assert.doesNotMatch(metadata, /PRIVATE KEY/);
});

test("Single Logout: one app's LogoutRequest cannot end a session another app was given", async () => {
  const victimApp = await ServiceProvider.register(server, admin, 'Slo_Victim_App', { signRequests: true });
  const attackerApp = await ServiceProvider.register(server, admin, 'Slo_Attacker_App');
  const first = await victimApp.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
  const sessionIndex = /SessionIndex="([^"]+)"/.exec(xml)![1]!;
  const nameId = /<saml:NameID[^>]*>([^<]+)</.exec(xml)![1]!;
  const logout = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_slo${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${attackerApp.entityId}</saml:Issuer><saml:NameID>${nameId}</saml:NameID><samlp:SessionIndex>${sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`;
  await server.client().raw('GET', `/api/saml/slo?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(logout)).toString('base64'))}`);
  assert.equal((await browser.get('/api/saml/keys')).status, 403, 'the victim is still signed in (403, not 401)');
  // Control: the same request signed by the app that holds the session does end it (an unsigned
  // one ends nothing: test/server/saml-single-logout.test.ts).
  const own = new URL(
    await victimApp.sp.getLogoutUrlAsync(
      { nameID: nameId, nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', sessionIndex, issuer: victimApp.entityId },
      'r',
      {},
    ),
  );
  await server.client().raw('GET', own.pathname + own.search);
  assert.equal((await browser.get('/api/saml/keys')).status, 401);
});

test("an app administrator manages only their own app's SAML settings, never the keys, never another app's entity ID, never a loopback metadata URL", async () => {
  const mine = await ServiceProvider.register(server, admin, 'Admin_Mine_App');
  const theirs = await ServiceProvider.register(server, admin, 'Admin_Theirs_App');
  const userId = (
    await ok(admin.post<{ id: string }>('/api/user', { username: 'saml-app-admin', realName: 'Saml_App_Admin', password: transform('Secret123') }))
  ).id;
  await ok(admin.put(`/api/apps/${mine.appId}/admins`, { userIds: [userId] }));
  const appAdmin = server.client();
  assert.equal((await appAdmin.login('saml-app-admin', 'Secret123')).status, 200);
  assert.equal((await appAdmin.get(`/api/apps/${mine.appId}/saml-provider`)).status, 200);
  assert.equal((await appAdmin.get(`/api/apps/${theirs.appId}/saml-provider`)).status, 404);
  assert.equal(
    (await appAdmin.put(`/api/apps/${theirs.appId}/saml-provider`, { acsUrls: [{ url: 'https://evil.example/acs', binding: 'HTTP-POST' }] })).status,
    404,
  );
  assert.equal((await appAdmin.delete(`/api/apps/${theirs.appId}/saml-provider`)).status, 404);
  assert.equal((await appAdmin.get('/api/saml/keys')).status, 403);
  assert.equal((await appAdmin.post('/api/saml/keys/rotate', {})).status, 403);
  const steal = await appAdmin.put(`/api/apps/${mine.appId}/saml-provider`, { entityId: theirs.entityId });
  assert.equal(steal.status, 400, 'an app took the entity ID (and with it the sign-ins) of another app');
  const ssrf = await appAdmin.put(`/api/apps/${mine.appId}/saml-provider`, { metadataUrl: `${server.base}/api/saml/metadata` });
  assert.equal(ssrf.status, 400, 'a loopback metadata URL was fetched');
  const scheme = await appAdmin.put(`/api/apps/${mine.appId}/saml-provider`, { acsUrls: [{ url: 'javascript:alert(1)', binding: 'HTTP-POST' }] });
  assert.equal(scheme.status, 400);
});
