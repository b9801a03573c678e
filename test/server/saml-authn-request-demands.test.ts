// What an app's AuthnRequest demands, answered as it asks (server/saml/sign-in.ts): ForceAuthn is
// answered after the person signs in again, with that sign-in's AuthnInstant; IsPassive is answered
// at once from a session whose consent stands, NoPassive when consent would have to be asked; an
// answer that cannot be built (an encryption certificate stored before non-RSA keys were refused)
// tells the app Responder and is audited, never a 500 that loses the pending sign-in. The
// NameIDPolicy's Format is given when this server can give it (transient, persistent, emailAddress;
// unspecified or none: the app's setting), else answered InvalidNameIDPolicy with a StatusMessage.
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

async function person(username: string, email: string | null = `${username}@example.test`): Promise<Client> {
  await ok(admin.post('/api/user', { username, realName: username, ...(email ? { email } : {}), password: transform('Secret123') }));
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

const FORMAT = {
  email: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
};

/** node-saml asking the app's IdP for NameIDPolicy Format `format` (null: no Format) through
 *  `browser`: answers the NameID and format it read from the signed Response, or the refusal's
 *  status, StatusMessage and whether the refusal is signed. */
async function signInAsking(provider: ServiceProvider, browser: Client, format: string | null) {
  const sp = ServiceProvider.library(server, provider.entityId, provider.acsUrl, [...(provider.sp.options.idpCert as string[])], provider.key, {
    saml: { identifierFormat: format },
  });
  const url = new URL(await sp.getAuthorizeUrlAsync('relay-n', undefined, {}));
  const first = await browser.raw('GET', url.pathname + url.search);
  const form = first.status === 303 ? (await consentAndAnswer(browser, first.headers.get('location')!)).form : postedForm(await first.text());
  const xml = decoded(form.fields.SAMLResponse!);
  if (statusOf(form.fields.SAMLResponse!) !== 'Success')
    return {
      status: [...xml.matchAll(/StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:(\w+)"/g)].map((m) => m[1]).join('/'),
      message: /<samlp:StatusMessage>([^<]*)</.exec(xml)?.[1],
      signed: xml.includes('<ds:SignatureValue>'),
    };
  const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  return { status: 'Success', nameID: profile!.nameID, nameIDFormat: profile!.nameIDFormat };
}

test("NameIDPolicy: transient, persistent and emailAddress are given as asked; unspecified or no Format gets the app's setting", async () => {
  const browser = await person('policy-saml');
  const emailApp = await ServiceProvider.register(server, admin, 'Policy_Email_App');
  const transient = [await signInAsking(emailApp, browser, FORMAT.transient), await signInAsking(emailApp, browser, FORMAT.transient)];
  for (const answer of transient) {
    assert.equal(answer.nameIDFormat, FORMAT.transient);
    assert.doesNotMatch(answer.nameID, /policy-saml/, 'a transient NameID tells nothing about the person');
  }
  assert.notEqual(transient[0]!.nameID, transient[1]!.nameID, 'a new transient NameID for each assertion');
  const persistent = [await signInAsking(emailApp, browser, FORMAT.persistent), await signInAsking(emailApp, browser, FORMAT.persistent)];
  assert.equal(persistent[0]!.nameIDFormat, FORMAT.persistent);
  assert.equal(persistent[0]!.nameID, persistent[1]!.nameID, 'the persistent NameID stays the same');
  assert.deepEqual(await signInAsking(emailApp, browser, FORMAT.unspecified), {
    status: 'Success',
    nameID: 'policy-saml@example.test',
    nameIDFormat: FORMAT.email,
  });
  assert.deepEqual(await signInAsking(emailApp, browser, null), { status: 'Success', nameID: 'policy-saml@example.test', nameIDFormat: FORMAT.email });

  const persistentApp = await ServiceProvider.register(server, admin, 'Policy_Persistent_App', { nameIdFormat: 'persistent' });
  assert.deepEqual(await signInAsking(persistentApp, browser, FORMAT.email), {
    status: 'Success',
    nameID: 'policy-saml@example.test',
    nameIDFormat: FORMAT.email,
  });
  assert.equal((await signInAsking(persistentApp, browser, null)).nameIDFormat, FORMAT.persistent);
});

test('NameIDPolicy: a format this server cannot give is answered Requester/InvalidNameIDPolicy, signed, saying why', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Policy_Refused_App', { nameIdFormat: 'persistent' });
  const browser = await person('policy-no-mail', null);
  // Known at once: answered without a page.
  const kerberos = await signInAsking(provider, browser, 'urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos');
  assert.equal(kerberos.status, 'Requester/InvalidNameIDPolicy');
  assert.equal(kerberos.signed, true);
  assert.match(kerberos.message!, /nameid-format:kerberos is not one this identity provider gives/);
  // Known once the person signed in: they have no e-mail address.
  const email = await signInAsking(provider, browser, FORMAT.email);
  assert.deepEqual(email, {
    status: 'Requester/InvalidNameIDPolicy',
    message: 'The person has no e-mail address to give as an emailAddress NameID',
    signed: true,
  });
  // What the app's setting gives is still given to them.
  assert.equal((await signInAsking(provider, browser, null)).nameIDFormat, FORMAT.persistent);
});
