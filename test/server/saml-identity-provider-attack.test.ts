// The SAML identity provider's sign-in and an app's SAML settings, attacked from outside:
// - what an AuthnRequest demands (SAML core §3.4.1): ForceAuthn="true" (the app wants the person to
//   prove they are at the keyboard, before a payment say) is not answered from the console session
//   that merely exists, as OpenID Connect's prompt=login is not (sso-fresh-sign-in.test.ts);
//   IsPassive="true" never takes the browser to a sign-in page: without a session, NoPassive;
// - a remembered consent is the consent to the service provider it was given to: another service
//   provider registered under the same app (after the first was removed) asks again; it is never
//   reused by another app; a new attribute (roles in the app) asks again;
// - an encryption certificate whose key is not RSA (the assertion key is transported with
//   RSA-OAEP) is refused when registered, not accepted and then failing every sign-in with a 500;
// - metadata fetched by URL from a hostile host (the operator allowing 127.0.0.1): a redirect is
//   not followed, a huge document, entity expansion and XXE are refused on the field (400).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID, webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, ServiceProvider } from './saml-support';
import { createKey } from '../../server/saml/keys';

let server: TestServer;
let admin: Client;
let browser: Client;
let personId: string;
let host: Server;
let hostUrl: string;
let appId: string;
const hits: string[] = [];

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
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
  appId = (await ok(admin.post<{ id: string }>('/api/apps', { name: 'Metadata_Url_App' }))).id;
  const key = await createKey('Metadata SP', Date.now());
  const metadata = generateServiceProviderMetadata({
    issuer: 'https://sp.example.test/metadata-url',
    callbackUrl: 'http://127.0.0.1:9/metadata-url/acs',
    publicCerts: key.certificate,
    wantAssertionsSigned: true,
  });
  const laughs = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&c;"/>`;
  const xxe = `<?xml version="1.0"?><!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="&x;"/>`;
  host = createServer((request, response) => {
    hits.push(request.url!);
    if (request.url === '/redirect') return void response.writeHead(302, { location: `${hostUrl}/metadata` }).end();
    if (request.url === '/metadata') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(metadata);
    if (request.url === '/laughs') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(laughs);
    if (request.url === '/xxe') return void response.writeHead(200, { 'content-type': 'application/xml' }).end(xxe);
    if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.write(metadata.replace('</md:EntityDescriptor>', ''));
      for (let i = 0; i < 64 && !response.destroyed; i++) response.write(`<!-- ${'x'.repeat(16 * 1024)} -->`);
      return void response.end('</md:EntityDescriptor>');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
after(async () => {
  await server.stop();
  host.close();
});

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

async function ecCertificate(): Promise<string> {
  x509.cryptoProvider.set(webcrypto as Crypto);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomUUID().replaceAll('-', ''),
    name: 'CN=EC app',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3600_000),
    signingAlgorithm: algorithm,
    keys,
  });
  return certificate.toString('pem');
}

test('an encryption certificate whose key is not RSA is refused when registered (400 on encryptionCert)', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Ec_Encryption_App');
  const saved = await admin.put<{ fields?: { field: string }[] }>(`/api/apps/${provider.appId}/saml-provider`, { encryptionCert: await ecCertificate() });
  if (saved.status === 200) {
    // Accepted: show what it does to the app's sign-ins.
    await ok(admin.post('/api/user', { username: 'ec-enc-lee', realName: 'Lee', email: 'ec-enc-lee@example.test', password: transform('Secret123') }));
    const browser = server.client();
    assert.equal((await browser.login('ec-enc-lee', 'Secret123')).status, 200);
    const first = await provider.sendAuthnRequest(browser);
    const id = new URL(first.headers.get('location')!, 'http://x').searchParams.get('request')!;
    const next = await ok(browser.post<{ redirectURL: string }>(`/api/saml/requests/${id}`, { allow: true }));
    const page = await browser.raw('GET', next.redirectURL);
    assert.fail(`an EC encryption certificate was accepted (200); the app's sign-in then answers ${page.status}`);
  }
  assert.equal(saved.status, 400, JSON.stringify(saved.body));
  assert.equal(saved.body.data?.fields?.[0]?.field, 'encryptionCert');
});

const register = (path: string) =>
  admin.put<{ fields?: { field: string; rule: string }[] }>(`/api/apps/${appId}/saml-provider`, { metadataUrl: `${hostUrl}${path}` });

test('holds: a redirect from the metadata URL is not followed (400 on metadataUrl)', async () => {
  const answer = await register('/redirect');
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.deepEqual(answer.body.data?.fields?.[0], { field: 'metadataUrl', rule: 'rule.samlMetadata' });
  assert.equal(hits.includes('/metadata'), false, 'the redirect was followed');
});

test('holds: a huge document, entity expansion and XXE are refused (400 on metadataUrl)', async () => {
  for (const path of ['/huge', '/laughs', '/xxe']) {
    const answer = await register(path);
    assert.equal(answer.status, 400, `${path}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.data?.fields?.[0]?.field, 'metadataUrl', path);
  }
});

test('holds: the honest document is read (control)', async () => {
  const answer = await register('/metadata');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
});
