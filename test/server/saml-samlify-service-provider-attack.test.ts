// Web Browser SSO and Single Logout against a second service-provider library, samlify (the
// server's own tests use node-saml; the server itself uses neither): what a customer whose app is
// built on samlify configures. SP-initiated over HTTP-Redirect (unsigned AuthnRequest) and HTTP-POST
// (signed AuthnRequest), an SP that wants the message and the assertion signed, each NameID format
// the app can register, a RelayState longer than the 80 bytes the bindings allow an SP to send, and
// the SP's signed LogoutRequest answered by a LogoutResponse samlify verifies. Then hostile: an
// anonymous AuthnRequest whose RelayState is far larger than any SP sends is not kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as samlify from 'samlify';
import * as validator from '@authenio/samlify-xmllint-wasm';
import { startServer, transform, ok, type Client, type TestServer } from './harness';
import { consentAndAnswer, postedForm } from './saml-support';
import { createKey } from '../../server/saml/keys';
import { NAME_ID_URNS } from '../../server/saml/sp-metadata';
import type { NameIdFormat } from '../../src/core/schemas/saml';

samlify.setSchemaValidator(validator);

let server: TestServer;
let admin: Client;
let browser: Client;
let idp: ReturnType<typeof samlify.IdentityProvider>;
/** The same IdP for an SP that signs its requests: samlify refuses to build a signed AuthnRequest
 *  for an IdP whose metadata says WantAuthnRequestsSigned="false" (this IdP's metadata is one for
 *  every app; an app's own wantRequestsSigned is what decides here). */
let idpForSigningSp: ReturnType<typeof samlify.IdentityProvider>;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  await ok(
    admin.post('/api/user', { username: 'samlify-person', realName: 'Samlify_Person', email: 'samlify.person@example.test', password: transform('Secret123') }),
  );
  browser = server.client();
  assert.equal((await browser.login('samlify-person', 'Secret123')).status, 200);
  const metadata = await (await fetch(`${server.base}/api/saml/metadata`)).text();
  idp = samlify.IdentityProvider({ metadata, wantLogoutRequestSigned: true });
  idpForSigningSp = samlify.IdentityProvider({ metadata: metadata.replace('WantAuthnRequestsSigned="false"', 'WantAuthnRequestsSigned="true"') });
});
after(() => server.stop());

interface Options {
  signRequests?: boolean;
  /** The app's NameID format, which samlify asks for too (its metadata and NameIDPolicy). */
  nameIdFormat?: NameIdFormat;
}

/** An app registered with samlify's own SP metadata. */
async function samlifyApp(name: string, options: Options = {}) {
  const app = await ok(admin.post<{ id: string }>('/api/apps', { name, entrypoint: 'http://127.0.0.1:9/', callbackUrl: 'http://127.0.0.1:9/callback' }));
  const signing = await createKey(`${name} signing`, Date.now());
  const sp = samlify.ServiceProvider({
    entityID: `https://samlify.example.test/${name}`,
    authnRequestsSigned: Boolean(options.signRequests),
    wantAssertionsSigned: true,
    wantMessageSigned: true,
    wantLogoutResponseSigned: true,
    wantLogoutRequestSigned: true,
    privateKey: signing.privateKey,
    signingCert: signing.certificate,
    // An enveloped signature after the AuthnRequest's Issuer (samlify's default place is a Response's).
    signatureConfig: { prefix: 'ds', location: { reference: "/*[local-name(.)='AuthnRequest']/*[local-name(.)='Issuer']", action: 'after' } },
    nameIDFormat: [NAME_ID_URNS[options.nameIdFormat ?? 'email']],
    assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: `http://127.0.0.1:9/${name}/acs` }],
    singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `http://127.0.0.1:9/${name}/slo` }],
  });
  const saved = await admin.put(`/api/apps/${app.id}/saml-provider`, {
    metadataXml: sp.getMetadata(),
    wantRequestsSigned: Boolean(options.signRequests),
    ...(options.nameIdFormat ? { nameIdFormat: options.nameIdFormat } : {}),
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return { appId: app.id, sp };
}

/** SP-initiated sign-in through the browser; answers what samlify reads from the Response. */
async function signIn(sp: ReturnType<typeof samlify.ServiceProvider>, binding: 'redirect' | 'post', relayState: string) {
  let first: Response;
  if (binding === 'redirect') {
    const { context } = sp.createLoginRequest(idp, 'redirect', { relayState }) as { context: string };
    const url = new URL(context);
    assert.equal(url.origin, new URL(server.base).origin);
    first = await browser.raw('GET', url.pathname + url.search);
  } else {
    const request = sp.createLoginRequest(idpForSigningSp, 'post', { relayState }) as { context: string; relayState?: string; entityEndpoint: string };
    const form = new URLSearchParams({ SAMLRequest: request.context, ...(request.relayState ? { RelayState: request.relayState } : {}) });
    first = await browser.raw('POST', new URL(request.entityEndpoint).pathname, form, { origin: 'http://127.0.0.1:9' });
  }
  assert.equal(first.status, 303, await first.clone().text());
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  assert.equal(form.fields.RelayState, relayState, 'RelayState comes back unchanged');
  const parsed = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: form.fields.SAMLResponse, RelayState: form.fields.RelayState } });
  return parsed.extract as { nameID: string; attributes: Record<string, string | string[]>; sessionIndex: { sessionIndex: string } };
}

const LONG_RELAY_STATE = `https://app.example.test/return?to=${'x'.repeat(100)}`;

test('HTTP-Redirect, unsigned AuthnRequest, 130-byte RelayState: samlify accepts the signed response and assertion', async () => {
  const { sp } = await samlifyApp('Samlify_Redirect');
  const extract = await signIn(sp, 'redirect', LONG_RELAY_STATE);
  assert.equal(extract.nameID, 'samlify.person@example.test');
  assert.equal(extract.attributes.username, 'samlify-person');
});

test('HTTP-POST, AuthnRequest signed by samlify: accepted', async () => {
  const { sp } = await samlifyApp('Samlify_Post', { signRequests: true });
  const extract = await signIn(sp, 'post', 'post-relay');
  assert.equal(extract.nameID, 'samlify.person@example.test');
});

test('persistent and unspecified NameID formats reach samlify', async () => {
  const persistent = await samlifyApp('Samlify_Persistent', { nameIdFormat: 'persistent' });
  const pairwise = (await signIn(persistent.sp, 'redirect', 'p')).nameID;
  assert.match(pairwise, /^[\w-]{20,}$/);
  assert.notEqual(pairwise, 'samlify.person@example.test');
  const unspecified = await samlifyApp('Samlify_Unspecified', { nameIdFormat: 'unspecified' });
  assert.equal((await signIn(unspecified.sp, 'redirect', 'u')).nameID, 'samlify-person');
});

test("samlify's signed LogoutRequest (HTTP-Redirect) ends the session and is answered with a LogoutResponse samlify verifies", async () => {
  const { sp } = await samlifyApp('Samlify_Logout');
  const person = server.client();
  assert.equal((await person.login('samlify-person', 'Secret123')).status, 200);
  const saved = browser;
  browser = person;
  let extract;
  try {
    extract = await signIn(sp, 'redirect', 'before-logout');
  } finally {
    browser = saved;
  }
  const { context } = sp.createLogoutRequest(
    idp,
    'redirect',
    { logoutNameID: extract.nameID, sessionIndex: extract.sessionIndex.sessionIndex },
    'logout-relay',
  ) as {
    context: string;
  };
  const url = new URL(context);
  const answer = await person.raw('GET', url.pathname + url.search);
  assert.ok(answer.status === 302 || answer.status === 303 || answer.status === 200, `${answer.status} ${await answer.clone().text()}`);
  let samlResponse: string | null;
  let relayState: string | null;
  const location = answer.headers.get('location');
  if (location) {
    const back = new URL(location);
    samlResponse = back.searchParams.get('SAMLResponse');
    relayState = back.searchParams.get('RelayState');
    const octets = back.search.slice(1);
    const parsed = await sp.parseLogoutResponse(idp, 'redirect', {
      query: Object.fromEntries(back.searchParams),
      octetString: octets.replace(/&Signature=[^&]*/, ''),
    });
    assert.match(String((parsed.extract as { response?: { inResponseTo?: string } }).response?.inResponseTo ?? ''), /.+/);
  } else {
    const form = postedForm(await answer.text());
    samlResponse = form.fields.SAMLResponse ?? null;
    relayState = form.fields.RelayState ?? null;
    await sp.parseLogoutResponse(idp, 'post', { body: form.fields });
  }
  assert.ok(samlResponse);
  assert.equal(relayState, 'logout-relay');
  assert.equal((await person.get('/api/cas/session')).status, 401, 'the console session ended');
});

test('an anonymous AuthnRequest carrying a 64 KiB RelayState is refused, not kept as a pending sign-in', async () => {
  // Anyone can send an unsigned AuthnRequest for an app that does not sign its requests; each one is
  // kept as a pending sign-in for 10 minutes. The bindings allow an SP 80 bytes of RelayState.
  const { sp } = await samlifyApp('Samlify_Relay_Bound');
  const request = sp.createLoginRequest(idp, 'post', { relayState: 'r'.repeat(64 * 1024) }) as { context: string; relayState?: string };
  const anonymous = server.client();
  const form = new URLSearchParams({ SAMLRequest: request.context, RelayState: request.relayState ?? '' });
  const answer = await anonymous.raw('POST', '/api/saml/sso', form, { origin: 'http://127.0.0.1:9' });
  assert.equal(answer.status, 400, `answered ${answer.status} ${answer.headers.get('location') ?? ''}`);
});
