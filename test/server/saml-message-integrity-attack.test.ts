// Hostile checks of the SAML identity provider's message handling: what a signature covers in the
// HTTP-Redirect binding, and what SP metadata may register as an assertion consumer service.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { postedForm, ServiceProvider } from './saml-support';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';

let server: TestServer;
let admin: Client;
let browser: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(admin.post('/api/user', { username: 'saml-victim', realName: 'Saml_Victim', email: 'saml.victim@example.test', password: transform('Secret123') }));
  browser = server.client();
  assert.equal((await browser.login('saml-victim', 'Secret123')).status, 200);
});
after(() => server.stop());

const forgedAuthnRequest = (issuer: string, id: string) =>
  deflateRawSync(
    Buffer.from(
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`,
    ),
  ).toString('base64');

test('HTTP-Redirect: a second, percent-encoded SAMLRequest next to a signed one is not read as signed', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Signed_Redirect_App', { signRequests: true });
  const url = new URL(await provider.sp.getAuthorizeUrlAsync('relay', undefined, {}));
  // Sanity: the genuine signed request is accepted (goes to the sign-in page).
  // The attacker's query: a forged request under the key name "SAML%52equest" (the same name once
  // decoded), ahead of the SP's genuine signed parameters. Never seen by the SP's key.
  const forged = `SAML%52equest=${encodeURIComponent(forgedAuthnRequest(provider.entityId, '_forged' + Date.now()))}&${url.search.slice(1)}`;
  const answer = await browser.raw('GET', `${url.pathname}?${forged}`);
  const location = answer.headers.get('location') ?? '';
  assert.doesNotMatch(location, /\/saml\/authorize\?request=/, 'a request the SP never signed was accepted as signed');
  // And the genuine one (unused so far) still is.
  const genuine = await browser.raw('GET', url.pathname + url.search);
  assert.equal(genuine.status, 303);
  assert.match(genuine.headers.get('location') ?? '', /\/saml\/authorize\?request=/);
});

test('HTTP-Redirect, SP that signs: an unsigned request is answered RequestDenied, never a sign-in', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Must_Sign_App', { signRequests: true });
  const answer = await browser.raw('GET', `/api/saml/sso?SAMLRequest=${encodeURIComponent(forgedAuthnRequest(provider.entityId, '_unsigned' + Date.now()))}`);
  assert.doesNotMatch(answer.headers.get('location') ?? '', /\/saml\/authorize/);
  const html = await answer.text();
  const response = Buffer.from(/name="SAMLResponse" value="([^"]+)"/.exec(html)![1]!, 'base64').toString();
  assert.match(response, /status:RequestDenied/);
  assert.doesNotMatch(response, /Assertion/);
});

test('SP metadata: an assertion consumer service that is not an http(s) URL is refused', async () => {
  const app = await ok(
    admin.post<{ id: string }>('/api/apps', { name: 'Js_Acs_App', entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }),
  );
  for (const acs of ['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>', 'relative/acs']) {
    const metadata = generateServiceProviderMetadata({
      issuer: `https://sp.example.test/js-${encodeURIComponent(acs.slice(0, 8))}`,
      callbackUrl: acs,
      publicCerts: [],
      wantAssertionsSigned: true,
    });
    const answer = await admin.put(`/api/apps/${app.id}/saml-provider`, { metadataXml: metadata });
    assert.equal(answer.status, 400, `ACS ${acs} was registered: ${JSON.stringify(answer.body)}`);
  }
});

test('SP metadata: a Single Logout service that is not an http(s) URL is refused', async () => {
  const app = await ok(
    admin.post<{ id: string }>('/api/apps', { name: 'Js_Slo_App', entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }),
  );
  const metadata = generateServiceProviderMetadata({
    issuer: 'https://sp.example.test/js-slo',
    callbackUrl: 'https://sp.example.test/acs',
    logoutCallbackUrl: 'javascript:alert(document.domain)',
    publicCerts: [],
    wantAssertionsSigned: true,
  });
  const answer = await admin.put(`/api/apps/${app.id}/saml-provider`, { metadataXml: metadata });
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
});

test('HTTP-Redirect: a malformed percent-encoding in SigAlg or Signature is refused (400 or RequestDenied), not a server error', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Bad_Encoding_App', { signRequests: true });
  for (const tail of [
    'SigAlg=%E0%A4%A&Signature=AAAA',
    `SigAlg=${encodeURIComponent('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256')}&Signature=%E0%A4%A`,
  ]) {
    const request = encodeURIComponent(forgedAuthnRequest(provider.entityId, '_enc' + Date.now() + tail.length));
    const answer = await browser.raw('GET', `/api/saml/sso?SAMLRequest=${request}&${tail}`);
    assert.ok(answer.status === 400 || answer.status === 200, `answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
    assert.doesNotMatch(answer.headers.get('location') ?? '', /\/saml\/authorize/);
  }
});

test('HTTP-Redirect: a protocol parameter given twice, under any spelling, is refused (400); a re-spelt key is not what was signed', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Twice_Param_App', { signRequests: true });
  const url = new URL(await provider.sp.getAuthorizeUrlAsync('relay', undefined, {}));
  const query = url.search.slice(1);
  for (const extra of ['RelayState=other', 'Relay%53tate=other', 'SigAlg=x', 'Signatur%65=AAAA', 'SAMLResponse=AAAA']) {
    const answer = await browser.raw('GET', `${url.pathname}?${query}&${extra}`);
    assert.equal(answer.status, 400, `${extra} was accepted next to the signed parameters`);
  }
  // The genuine parameters with the message's key re-spelt: read the same, but not the signed octets.
  const respelt = await browser.raw('GET', `${url.pathname}?${query.replace(/^SAMLRequest=/, 'SAML%52equest=')}`);
  assert.doesNotMatch(respelt.headers.get('location') ?? '', /\/saml\/authorize/);
  assert.match(Buffer.from(postedForm(await respelt.text()).fields.SAMLResponse!, 'base64').toString(), /status:RequestDenied/);
});
