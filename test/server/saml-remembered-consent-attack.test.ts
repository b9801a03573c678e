// A person's remembered consent to a SAML app, attacked from outside: it is the consent to the
// service provider it was given to. When the app's SAML settings are removed and another service
// provider (another entity ID, another assertion consumer service) is registered under the same
// app, the person is asked again; it is never reused by another app; the app being given roles
// about the person (a new attribute) asks again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { consentAndAnswer, ok, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;
let personId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  personId = (
    await ok(
      admin.post<{ id: string }>('/api/user', {
        username: 'consent-kim',
        realName: 'Kim',
        email: 'consent-kim@example.test',
        password: transform('Secret123'),
      }),
    )
  ).id;
  browser = server.client();
  assert.equal((await browser.login('consent-kim', 'Secret123')).status, 200);
});
after(() => server.stop());

/** Whether the SAML page would skip asking the person for `provider`'s AuthnRequest. */
async function remembered(provider: ServiceProvider): Promise<boolean> {
  const first = await provider.sendAuthnRequest(browser);
  const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
  return (await ok(browser.get<{ remembered: boolean }>(`/api/saml/requests/${id}`))).remembered;
}

const consent = async (provider: ServiceProvider) => consentAndAnswer(browser, (await provider.sendAuthnRequest(browser)).headers.get('location')!);

test('a consent is not handed to another service provider registered under the same app after the first was removed', async () => {
  const original = await ServiceProvider.register(server, admin, 'Consent_Original');
  await consent(original);
  assert.equal(await remembered(original), true);
  await ok(admin.delete(`/api/apps/${original.appId}/saml-provider`));
  // The app administrator registers a different service provider (entity ID, ACS, key) on the app.
  const other = await ServiceProvider.register(server, admin, 'Consent_Replacement');
  const replacement = await ok(
    admin.put<{ provider: { entityId: string } }>(`/api/apps/${original.appId}/saml-provider`, {
      entityId: 'https://elsewhere.example.test/sp',
      acsUrls: [{ url: 'http://127.0.0.1:9/elsewhere/acs', binding: 'HTTP-POST' }],
      signingCert: other.key.certificate,
      nameIdFormat: 'email',
    }),
  );
  assert.equal(replacement.provider.entityId, 'https://elsewhere.example.test/sp');
  const elsewhere = ServiceProvider.library(
    server,
    'https://elsewhere.example.test/sp',
    'http://127.0.0.1:9/elsewhere/acs',
    [...(original.sp.options.idpCert as string[])],
    other.key,
  );
  const url = new URL(await elsewhere.getAuthorizeUrlAsync('r', undefined, {}));
  const first = await browser.raw('GET', url.pathname + url.search);
  const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
  const details = await ok(browser.get<{ remembered: boolean }>(`/api/saml/requests/${id}`));
  assert.equal(details.remembered, false, 'the consent given to the removed service provider was reused for another one');
});

test('holds: a consent is never reused by another app; a new attribute (roles in the app) asks again', async () => {
  const first = await ServiceProvider.register(server, admin, 'Consent_First');
  const second = await ServiceProvider.register(server, admin, 'Consent_Second');
  await consent(first);
  assert.equal(await remembered(first), true);
  assert.equal(await remembered(second), false);
  const role = await ok(admin.post<{ id: string }>(`/api/apps/${first.appId}/roles`, { name: 'Reader' }));
  await ok(admin.put(`/api/apps/${first.appId}/roles/${role.id}/members`, { userIds: [personId] }));
  assert.equal(await remembered(first), false, 'the app now learns the roles: the person is asked again');
});
