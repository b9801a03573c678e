// Hostile input at the SAML endpoints: what cannot be trusted is refused in the envelope and never
// redirected (an unknown ACS, XXE, entity expansion, an oversized message, a comment inside a value,
// a wrapped signature); what a known app can be told is answered to its registered ACS with the
// error StatusCode (a replayed or stale request, an unsigned request from an app that signs). The
// assertions carry audience, recipient and validity that the SP library holds them to.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, idpCertificates, postedForm, ServiceProvider, signedRedirectQuery } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;
let plain: ServiceProvider;
let signing: ServiceProvider;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'saml-target', realName: 'Saml_Target', email: 'saml.target@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-target', 'Secret123')).status, 200);
  plain = await ServiceProvider.register(server, admin, 'Hostile_Plain');
  signing = await ServiceProvider.register(server, admin, 'Hostile_Signing', { binding: 'HTTP-POST', signRequests: true });
});
after(() => server.stop());

const authnRequest = (
  issuer: string,
  fields: { id?: string; acs?: string; instant?: string; issuerXml?: string; prolog?: string; destination?: string } = {},
) =>
  `${fields.prolog ?? ''}<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${fields.id ?? `_r${Math.random().toString(16).slice(2)}`}" Version="2.0" IssueInstant="${fields.instant ?? new Date().toISOString()}"${fields.acs ? ` AssertionConsumerServiceURL="${fields.acs}"` : ''}${fields.destination ? ` Destination="${fields.destination}"` : ''}><saml:Issuer>${fields.issuerXml ?? issuer}</saml:Issuer></samlp:AuthnRequest>`;

const viaRedirect = (xml: string) => browser.raw('GET', `/api/saml/sso?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`);
const viaPost = (xml: string) =>
  browser.raw('POST', '/api/saml/sso', new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }), { origin: 'http://127.0.0.1:9' });

/** Refused in the envelope with 400: no redirect, no page to the app. */
async function refused(answer: Response, message: RegExp) {
  assert.equal(answer.status, 400);
  assert.equal(answer.headers.get('location'), null);
  assert.match(((await answer.json()) as { message: string }).message, message);
}

/** Answered to the app's ACS with an error status: node-saml reads the status and refuses. */
async function answeredWithError(answer: Response, provider: ServiceProvider, status: RegExp) {
  assert.equal(answer.status, 200);
  const { action, fields } = postedForm(await answer.text());
  assert.equal(action, provider.acsUrl);
  const xml = Buffer.from(fields.SAMLResponse!, 'base64').toString();
  assert.match(xml, status);
  assert.doesNotMatch(xml, /<saml:Assertion/);
}

test('an ACS URL the app did not register is refused, never redirected or posted to', async () => {
  await refused(await viaRedirect(authnRequest(plain.entityId, { acs: 'https://attacker.example/acs' })), /assertion consumer service is not registered/);
});

test('XXE and entity expansion in an AuthnRequest are refused before parsing', async () => {
  const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>`;
  await refused(await viaRedirect(authnRequest(plain.entityId, { prolog: xxe, issuerXml: '&x;' })), /document type declaration/);
  const laughs = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>`;
  await refused(await viaPost(authnRequest(plain.entityId, { prolog: laughs, issuerXml: '&c;' })), /document type declaration/);
});

test('an oversized request is refused', async () => {
  const huge = authnRequest(plain.entityId).replace(
    '</samlp:AuthnRequest>',
    `<samlp:Extensions>${'x'.repeat(200 * 1024)}</samlp:Extensions></samlp:AuthnRequest>`,
  );
  const answer = await viaPost(huge);
  assert.ok(answer.status === 413 || answer.status === 400, String(answer.status));
  assert.equal(answer.headers.get('location'), null);
  await refused(await viaRedirect(huge), /too large/);
});

test('a comment inside the Issuer is refused (no value read around it)', async () => {
  const [head, tail] = [plain.entityId.slice(0, 10), plain.entityId.slice(10)];
  await refused(await viaRedirect(authnRequest(plain.entityId, { issuerXml: `${head}<!-- cut -->${tail}` })), /text only/);
});

test('a replayed AuthnRequest ID is answered RequestDenied', async () => {
  const xml = authnRequest(plain.entityId, { id: '_replayed-request-1' });
  assert.equal((await viaRedirect(xml)).status, 303);
  await answeredWithError(await viaRedirect(xml), plain, /status:RequestDenied/);
});

test('a stale or future AuthnRequest is answered RequestDenied', async () => {
  await answeredWithError(
    await viaRedirect(authnRequest(plain.entityId, { instant: new Date(Date.now() - 20 * 60_000).toISOString() })),
    plain,
    /RequestDenied/,
  );
  await answeredWithError(
    await viaRedirect(authnRequest(plain.entityId, { instant: new Date(Date.now() + 20 * 60_000).toISOString() })),
    plain,
    /RequestDenied/,
  );
});

test('an app that signs its requests: an unsigned one is answered RequestDenied', async () => {
  await answeredWithError(await viaPost(authnRequest(signing.entityId)), signing, /RequestDenied/);
});

test('a signed AuthnRequest without Destination is answered RequestDenied (bindings §3.4.5.2: a signed message names where it was sent)', async () => {
  const viaSignedRedirect = (xml: string) => browser.raw('GET', `/api/saml/sso?${signedRedirectQuery('SAMLRequest', xml, signing.key.privateKey)}`);
  await answeredWithError(await viaSignedRedirect(authnRequest(signing.entityId)), signing, /status:RequestDenied/);
  // The same request naming this identity provider's SSO service goes on to the sign-in page.
  const addressed = await viaSignedRedirect(authnRequest(signing.entityId, { destination: `${server.base}/api/saml/sso` }));
  assert.equal(addressed.status, 303);
  assert.match(addressed.headers.get('location') ?? '', /^\/saml\/authorize\?request=/);
});

test('signature wrapping: a signed request moved inside a forged one is answered RequestDenied', async () => {
  const signed = Buffer.from(((await signing.sp.getAuthorizeMessageAsync('r', undefined, {})) as Record<string, string>).SAMLRequest!, 'base64');
  const original = inflateRawSync(signed).toString();
  const inner = original.replace(/^<\?xml[^>]*\?>/, '');
  const forged = authnRequest(signing.entityId, { id: '_forged-1' }).replace(
    '</samlp:AuthnRequest>',
    `<samlp:Extensions>${inner}</samlp:Extensions></samlp:AuthnRequest>`,
  );
  await answeredWithError(await viaPost(forged), signing, /RequestDenied/);
  // The untouched signed request goes through.
  assert.equal((await viaPost(original)).status, 303);
});

test('the assertion holds the SP library to its audience, recipient and validity', async (t) => {
  const first = await plain.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const response = form.fields.SAMLResponse!;
  const other = ServiceProvider.library(server, 'https://sp.example.test/someone-else', plain.acsUrl, await idpCertificates(server), plain.key, {
    saml: { validateInResponseTo: 'never' as never },
  });
  await assert.rejects(other.validatePostResponseAsync({ SAMLResponse: response }), /audience|Audience/);
  const elsewhere = ServiceProvider.library(server, plain.entityId, 'http://127.0.0.1:9/elsewhere/acs', [], plain.key, {
    saml: { validateInResponseTo: 'never' as never },
  });
  await assert.rejects(elsewhere.validatePostResponseAsync({ SAMLResponse: response }));
  const later = ServiceProvider.library(server, plain.entityId, plain.acsUrl, await idpCertificates(server), plain.key, {
    saml: { validateInResponseTo: 'never' as never },
  });
  // Half an hour later (the SP's clock): past NotOnOrAfter.
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 30 * 60_000 });
  try {
    await assert.rejects(later.validatePostResponseAsync({ SAMLResponse: response }), /expired|NotOnOrAfter|SubjectConfirmation/i);
  } finally {
    t.mock.timers.reset();
  }
  // The SP that asked accepts it once; the same response again is refused (InResponseTo used).
  await plain.sp.validatePostResponseAsync({ SAMLResponse: response });
  await assert.rejects(plain.sp.validatePostResponseAsync({ SAMLResponse: response }), /InResponseTo/);
});
