// What an app's AuthnRequest demands, answered as it asks (server/saml/sign-in.ts): ForceAuthn is
// answered after the person signs in again, with that sign-in's AuthnInstant; IsPassive is answered
// at once from a session whose consent stands, NoPassive when consent would have to be asked; an
// answer that cannot be built (an encryption certificate stored before non-RSA keys were refused)
// tells the app Responder and is audited, never a 500 that loses the pending sign-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const decoded = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString();
const statusOf = (samlResponse: string) => /StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:(\w+)"/.exec(decoded(samlResponse))?.[1];

async function person(username: string): Promise<Client> {
  await ok(admin.post('/api/user', { username, realName: username, email: `${username}@example.test`, password: transform('Secret123') }));
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).status, 200);
  return browser;
}

test('ForceAuthn: after signing in again the app gets Success with the new sign-in as AuthnInstant', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Fresh_Saml_App', { saml: { forceAuthn: true } });
  const browser = await person('fresh-saml');
  server.clock.advance(2_100);
  const location = (await provider.sendAuthnRequest(browser)).headers.get('location')!;
  const id = new URL(location, 'http://x').searchParams.get('request')!;
  assert.equal((await ok(browser.get<{ signInAgain: boolean }>(`/api/saml/requests/${id}`))).signInAgain, true);
  assert.equal((await browser.post(`/api/saml/requests/${id}`, { allow: true })).status, 401);
  // That session ended: the sign-in page comes next, then the same request.
  assert.equal((await browser.get(`/api/saml/requests/${id}`)).status, 401);
  server.clock.advance(1_000);
  const signedInAt = server.clock.now();
  assert.equal((await browser.login('fresh-saml', 'Secret123')).status, 200);
  const { form } = await consentAndAnswer(browser, location);
  const xml = decoded(form.fields.SAMLResponse!);
  assert.equal(statusOf(form.fields.SAMLResponse!), 'Success');
  const authnInstant = Date.parse(/AuthnInstant="([^"]+)"/.exec(xml)![1]!);
  assert.ok(authnInstant >= signedInAt - 1_000, `AuthnInstant ${authnInstant} is before the fresh sign-in at ${signedInAt}`);
});

test('IsPassive with a session: answered at once once consent stands, NoPassive while it would be asked', async () => {
  const browser = await person('passive-saml');
  const asking = await ServiceProvider.register(server, admin, 'Passive_Asking_App');
  const passive = ServiceProvider.library(server, asking.entityId, asking.acsUrl, [...(asking.sp.options.idpCert as string[])], asking.key, {
    saml: { passive: true },
  });
  const send = async () => {
    const url = new URL(await passive.getAuthorizeUrlAsync('relay-p', undefined, {}));
    const answer = await browser.raw('GET', url.pathname + url.search);
    assert.equal(answer.status, 200, `the browser was sent to ${answer.headers.get('location')}`);
    return postedForm(await answer.text()).fields;
  };
  const before = await send();
  assert.equal(/status:NoPassive/.test(decoded(before.SAMLResponse!)), true, 'consent would have to be asked: NoPassive');
  await consentAndAnswer(browser, (await asking.sendAuthnRequest(browser)).headers.get('location')!);
  const fields = await send();
  assert.equal(statusOf(fields.SAMLResponse!), 'Success');
  assert.equal(fields.RelayState, 'relay-p');
});

test('an answer that cannot be built tells the app Responder and is audited (no 500, nothing lost)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Broken_Encryption_App');
  x509.cryptoProvider.set(webcrypto as Crypto);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=EC app',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    signingAlgorithm: algorithm,
    keys,
  });
  // Stored before such certificates were refused (the settings call answers 400 now).
  await server.app.ctx.db
    .updateTable('samlServiceProviders')
    .set({ encryptionCert: certificate.toString('pem'), encryptAssertions: 1 })
    .where('appId', '=', provider.appId)
    .execute();
  const browser = await person('broken-enc');
  const { form } = await consentAndAnswer(browser, (await provider.sendAuthnRequest(browser)).headers.get('location')!);
  assert.equal(form.action, provider.acsUrl);
  assert.equal(statusOf(form.fields.SAMLResponse!), 'Responder');
  assert.doesNotMatch(decoded(form.fields.SAMLResponse!), /Assertion/);
  const failed = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['success', 'detail'])
    .where('action', '=', 'app.sign_in')
    .where('targetId', '=', provider.appId)
    .execute();
  assert.deepEqual(
    failed.map((row) => Number(row.success)),
    [0],
  );
});
