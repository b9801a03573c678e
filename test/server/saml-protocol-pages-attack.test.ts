// Hostile checks of the SAML protocol endpoints as an outsider reaches them: the HTTP-POST
// binding's page (an HTML document served under /api/) keeps a document's headers, and the XML an
// app posts is read strictly (no DOCTYPE/entities, no comment cutting a value short).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, ServiceProvider } from './saml-support';

let server: TestServer;
let admin: Client;
let browser: Client;
let provider: ServiceProvider;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'saml-page', realName: 'Saml_Page', email: 'saml.page@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-page', 'Secret123')).status, 200);
  provider = await ServiceProvider.register(server, admin, 'Page_App');
});
after(() => server.stop());

const postRequest = (xml: string) =>
  server.client().raw('POST', '/api/saml/sso', new URLSearchParams({ SAMLRequest: Buffer.from(xml).toString('base64') }), { origin: 'http://127.0.0.1:9' });

const authnRequest = (issuer: string, id: string) =>
  `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`;

test('the HTTP-POST binding page (HTML under /api/) carries the page headers: opener isolation, nosniff, no framing, no store', async () => {
  const first = await provider.sendAuthnRequest(browser);
  const { page } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  assert.equal(page.headers.get('cache-control'), 'no-store');
  const console = await server.client().raw('GET', '/');
  assert.equal(
    page.headers.get('cross-origin-opener-policy'),
    console.headers.get('cross-origin-opener-policy') ?? 'same-origin',
    'the SAML post page, a document, lost the page policy (Cross-Origin-Opener-Policy)',
  );
});

test('a DOCTYPE with an internal entity is refused (400), never expanded', async () => {
  const xml =
    `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "${'x'.repeat(100)}">]>` +
    authnRequest(provider.entityId, '_dtd' + Date.now()).replace('</saml:Issuer>', '&a;</saml:Issuer>');
  assert.equal((await postRequest(xml)).status, 400);
});

test('a comment inside the Issuer is refused (400), not read as the part before it', async () => {
  const xml = authnRequest(`${provider.entityId}<!---->`, '_comment' + Date.now());
  assert.equal((await postRequest(xml)).status, 400);
});

test('an unregistered assertion consumer service never receives anything (400, no post page)', async () => {
  const xml = authnRequest(provider.entityId, '_acs' + Date.now()).replace(' Version=', ' AssertionConsumerServiceURL="https://evil.example/acs" Version=');
  const answer = await postRequest(xml);
  assert.equal(answer.status, 400);
  assert.doesNotMatch(await answer.text(), /evil\.example/);
});

test('a replayed AuthnRequest ID is answered RequestDenied, not a second sign-in', async () => {
  const xml = authnRequest(provider.entityId, '_replay' + Date.now());
  const first = await postRequest(xml);
  assert.equal(first.status, 303);
  const again = await postRequest(xml);
  assert.equal(again.status, 200);
  assert.match(Buffer.from(/name="SAMLResponse" value="([^"]+)"/.exec(await again.text())![1]!, 'base64').toString(), /status:RequestDenied/);
});

test('AssertionConsumerServiceIndex names the metadata index attribute, not a position in a re-sorted list', async () => {
  const app = await ok(
    admin.post<{ id: string }>('/api/apps', { name: 'Indexed_App', entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }),
  );
  const entityId = 'https://sp.example.test/indexed';
  const post = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
  const metadata = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:AssertionConsumerService index="0" Binding="${post}" Location="http://127.0.0.1:9/indexed/zero"/><md:AssertionConsumerService index="1" isDefault="true" Binding="${post}" Location="http://127.0.0.1:9/indexed/one"/></md:SPSSODescriptor></md:EntityDescriptor>`;
  await ok(admin.put(`/api/apps/${app.id}/saml-provider`, { metadataXml: metadata }));
  const xml = authnRequest(entityId, '_index' + Date.now()).replace(' Version=', ' AssertionConsumerServiceIndex="0" Version=');
  const first = await postRequest(xml);
  assert.equal(first.status, 303);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.equal(form.action, 'http://127.0.0.1:9/indexed/zero', 'index 0 was answered at another assertion consumer service');
});
