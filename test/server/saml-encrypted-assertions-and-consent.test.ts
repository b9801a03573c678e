// An app whose administrator turned encryption on gets its assertion encrypted for its certificate
// (node-saml decrypts it with its key: AES-256-GCM, or AES-256-CBC when chosen), and only then: a
// key in its metadata is no request for it (apps registered before keep what they got: migration
// 0051); a person's consent is remembered until what the app
// is told changes or the person signs out; the portal's IdP-initiated sign-in opens only the apps
// the portal shows the person.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { migrate } from '../../server/db/migrations';
import { consentAndAnswer, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'saml-enc', realName: 'Saml_Enc', email: 'saml-enc@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-enc', 'Secret123')).status, 200);
});
after(() => server.stop());

for (const assertionEncryption of ['aes256-gcm', 'aes256-cbc'] as const) {
  test(`an app with encryption on gets an encrypted assertion (${assertionEncryption}) that only its key opens`, async () => {
    const provider = await ServiceProvider.register(server, admin, `Encrypted_${assertionEncryption}`);
    await ok(
      admin.put(`/api/apps/${provider.appId}/saml-provider`, { encryptionCert: provider.key.certificate, assertionEncryption, encryptAssertions: true }),
    );
    const first = await provider.sendAuthnRequest(browser);
    const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
    const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
    assert.match(xml, /<saml:EncryptedAssertion/);
    assert.doesNotMatch(xml, /saml-enc@example\.test|Saml_Enc/, 'the person is readable in the response');
    assert.match(xml, new RegExp(assertionEncryption === 'aes256-gcm' ? 'xmlenc11#aes256-gcm' : 'xmlenc#aes256-cbc'));
    const reader = ServiceProvider.library(server, provider.entityId, provider.acsUrl, [...(provider.sp.options.idpCert as string[])], provider.key, {
      saml: { decryptionPvk: provider.key.privateKey, validateInResponseTo: 'never' as never },
    });
    const { profile } = await reader.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
    assert.equal(profile?.nameID, 'saml-enc@example.test');
    await assert.rejects(provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! }));
  });
}

/** The app's next assertion, as posted to it: whether it came encrypted, and the person it names
 *  (read by node-saml, with the app's key to decrypt). */
async function nextAssertion(provider: ServiceProvider) {
  const first = await provider.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const xml = Buffer.from(form.fields.SAMLResponse!, 'base64').toString();
  const reader = ServiceProvider.library(server, provider.entityId, provider.acsUrl, [...(provider.sp.options.idpCert as string[])], provider.key, {
    saml: { decryptionPvk: provider.key.privateKey, validateInResponseTo: 'never' as never },
  });
  const { profile } = await reader.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  return { encrypted: /<saml:EncryptedAssertion/.test(xml), nameId: profile?.nameID };
}

const encryptionOf = async (appId: string) =>
  (await ok(admin.get<{ provider: { encryptAssertions: boolean; encryptionCert: string | null } }>(`/api/apps/${appId}/saml-provider`))).provider;

test('an app whose metadata names an encryption key gets plain assertions until its administrator turns encryption on, and again once turned off', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Metadata_Key_App', { encryptionKeyInMetadata: true });
  const registered = await encryptionOf(provider.appId);
  assert.ok(registered.encryptionCert, 'the encryption certificate is read from the metadata');
  assert.equal(registered.encryptAssertions, false);
  assert.deepEqual(await nextAssertion(provider), { encrypted: false, nameId: 'saml-enc@example.test' });
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { encryptAssertions: true }));
  assert.deepEqual(await nextAssertion(provider), { encrypted: true, nameId: 'saml-enc@example.test' });
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { nameIdFormat: 'email' }));
  assert.equal((await encryptionOf(provider.appId)).encryptAssertions, true, 'a save that does not name it keeps it');
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { encryptAssertions: false }));
  assert.deepEqual(await nextAssertion(provider), { encrypted: false, nameId: 'saml-enc@example.test' });
});

test('turning encryption on for an app without an encryption certificate is refused (400 on encryptionCert)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'No_Key_App');
  const refused = await admin.put<{ fields?: { field: string; rule: string }[] }>(`/api/apps/${provider.appId}/saml-provider`, { encryptAssertions: true });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.deepEqual(refused.body.data?.fields, [{ field: 'encryptionCert', rule: 'rule.required' }]);
  assert.equal((await encryptionOf(provider.appId)).encryptAssertions, false);
});

test('migration 0051: an app registered with an encryption certificate before keeps its encrypted assertions; one without stays plain', async () => {
  const withKey = await ServiceProvider.register(server, admin, 'Old_Encrypted_App', { encryptionKeyInMetadata: true });
  const withoutKey = await ServiceProvider.register(server, admin, 'Old_Plain_App');
  const db = server.app.ctx.db;
  // The table as it was before the setting: encrypted whenever a certificate was stored.
  await sql`alter table saml_service_providers drop column encrypt_assertions`.execute(db);
  await sql`delete from kysely_migration where name = '0051_saml_encrypt_assertions'`.execute(db);
  await migrate(db as never, server.app.ctx.engine);
  assert.equal((await encryptionOf(withKey.appId)).encryptAssertions, true);
  assert.equal((await encryptionOf(withoutKey.appId)).encryptAssertions, false);
  assert.deepEqual(await nextAssertion(withKey), { encrypted: true, nameId: 'saml-enc@example.test' });
  assert.deepEqual(await nextAssertion(withoutKey), { encrypted: false, nameId: 'saml-enc@example.test' });
});

test('consent is remembered until what the app is told changes, and ends with the sign-out', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Consent_App');
  const ask = async () => {
    const first = await provider.sendAuthnRequest(browser);
    const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
    return ok(browser.get<{ trusted: boolean; remembered: boolean }>(`/api/saml/requests/${id}`));
  };
  assert.equal((await ask()).remembered, false);
  await consentAndAnswer(browser, (await provider.sendAuthnRequest(browser)).headers.get('location')!);
  const again = await ask();
  assert.equal(again.remembered, true);
  assert.equal(again.trusted, true, 'the page asks again');
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { nameIdFormat: 'persistent' }));
  assert.equal((await ask()).remembered, false, 'the app is told something else: the person is asked again');
  await consentAndAnswer(browser, (await provider.sendAuthnRequest(browser)).headers.get('location')!);
  assert.equal((await ask()).remembered, true);
  await ok(browser.get('/api/cas/logout'));
  assert.equal((await browser.login('saml-enc', 'Secret123')).status, 200);
  assert.equal((await ask()).remembered, false, 'the consent outlived the sign-out');
});

test('a signed-in person cannot open from the portal an app the portal does not show them (404)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Hidden_Portal_App');
  const launched = await browser.post(`/api/saml/apps/${provider.appId}/launch`, {});
  assert.equal(launched.status, 404);
  // Control: the platform administrator (who administers every app) may open it.
  assert.equal((await admin.post(`/api/saml/apps/${provider.appId}/launch`, {})).status, 200);
});
