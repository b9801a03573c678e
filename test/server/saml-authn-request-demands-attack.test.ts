// What an app's AuthnRequest demands of the sign-in (SAML core §3.4.1), attacked from outside:
// ForceAuthn="true" (the app wants the person to prove they are at the keyboard, before a payment
// say) is not answered from the console session that merely exists, as OpenID Connect's
// prompt=login is not (test/server/sso-fresh-sign-in.test.ts); IsPassive="true" never takes the
// browser to a sign-in page: without a session the app is answered NoPassive.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { ok, postedForm, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server.stop());

const statusOf = (samlResponse: string) =>
  /StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:(\w+)"/.exec(Buffer.from(samlResponse, 'base64').toString())?.[1];

test('ForceAuthn="true": the console session that merely exists does not answer with a Success assertion', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Force_Authn_App', { saml: { forceAuthn: true } });
  await ok(admin.post('/api/user', { username: 'force-authn', realName: 'Force', email: 'force-authn@example.test', password: transform('Secret123') }));
  const browser = server.client();
  assert.equal((await browser.login('force-authn', 'Secret123')).status, 200);
  server.clock.advance(2_100);
  const first = await provider.sendAuthnRequest(browser);
  const location = first.headers.get('location') ?? '';
  assert.match(location, /^\/saml\/authorize\?request=/, `${first.status} ${location}`);
  const id = new URL(location, 'http://x').searchParams.get('request')!;
  const allowed = await browser.post<{ redirectURL: string }>(`/api/saml/requests/${id}`, { allow: true });
  if (allowed.status !== 200) {
    // Refused until the person signs in again (as for prompt=login).
    assert.equal(allowed.status, 401, JSON.stringify(allowed.body));
    return;
  }
  const page = await browser.raw('GET', allowed.body.data.redirectURL);
  assert.equal(page.status, 200);
  assert.notEqual(
    statusOf(postedForm(await page.text()).fields.SAMLResponse!),
    'Success',
    'ForceAuthn was ignored: the app got a Success assertion without any fresh sign-in',
  );
});

test('IsPassive="true" without a session: the app is answered NoPassive, the browser is not taken to a sign-in page', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Passive_App', { saml: { passive: true } });
  const first = await provider.sendAuthnRequest(server.client());
  assert.equal(first.status, 200, `the browser was sent to ${first.headers.get('location')}`);
  const { action, fields } = postedForm(await first.text());
  assert.equal(action, provider.acsUrl);
  assert.equal(/status:NoPassive/.test(Buffer.from(fields.SAMLResponse!, 'base64').toString()), true);
});
