// Web Browser SSO against a service-provider library the server does not use (node-saml): the
// AuthnRequest in the HTTP-Redirect and the HTTP-POST binding, signed and not, IdP-initiated from
// the portal; the Response and its assertion signed, for the right audience and recipient, with the
// person's attributes in this app; a denial answered to the app; an audit record per sign-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { consentAndAnswer, ok, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'saml-person', realName: 'Saml_Person', email: 'saml.person@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-person', 'Secret123')).status, 200);
});
after(() => server.stop());

async function signIn(provider: ServiceProvider, relayState = 'relay-1') {
  const first = await provider.sendAuthnRequest(browser, relayState);
  assert.equal(first.status, 303, await first.clone().text());
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.equal(form.action, provider.acsUrl);
  assert.equal(form.fields.RelayState, relayState);
  return { form, ...(await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! })) };
}

test('HTTP-Redirect AuthnRequest: node-saml accepts the signed response and reads the person', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Redirect_App');
  const { profile } = await signIn(provider);
  assert.equal(profile?.nameID, 'saml.person@example.test');
  assert.equal(profile?.email, 'saml.person@example.test');
  assert.equal(profile?.name, 'Saml_Person');
  assert.equal(profile?.username, 'saml-person');
});

test('HTTP-POST AuthnRequest, signed by the SP that asked to sign: accepted', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Post_App', { binding: 'HTTP-POST', signRequests: true });
  const { profile } = await signIn(provider, 'post-relay');
  assert.equal(profile?.nameID, 'saml.person@example.test');
});
