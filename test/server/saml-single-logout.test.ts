// SAML Single Logout from this identity provider to the apps, checked by a service-provider library
// the server does not use (node-saml): when a person's session ends without a browser (an
// administrator ends it, the person is disabled) an app with a SOAP service is told server to
// server; a browser sign-out visits the apps with a browser-only service (HTTP-Redirect, HTTP-POST)
// one after the other and ends on the sign-in page; an audit record per LogoutRequest sent. Hostile:
// an unsigned LogoutRequest ends nothing (from an app that registered no signing certificate, only
// the sessions of the browser carrying it), a RelayState is never followed as an address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, ServiceProvider, type SpOptions } from './saml-support';
import { Status } from '../../src/core/enums';
import { until } from './receivers';

let server: TestServer;
let admin: Client;
let receiver: Server;
let receiverUrl: string;
/** What the SOAP receiver got: each LogoutRequest as node-saml read it (or its error). */
const received: { app: string; profile?: { nameID?: string; nameIDFormat?: string; sessionIndex?: string }; error?: string }[] = [];
const soapApps = new Map<string, ServiceProvider>();

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const app = decodeURIComponent(request.url!.split('/')[1]!);
      const provider = soapApps.get(app)!;
      const message = /<samlp:LogoutRequest[\s\S]*<\/samlp:LogoutRequest>/.exec(body)?.[0] ?? '';
      provider.sp
        .validatePostRequestAsync({ SAMLRequest: Buffer.from(message).toString('base64') })
        .then(({ profile }) => {
          received.push({ app, profile: profile ?? undefined });
          const inResponseTo = profile?.ID ?? '';
          response
            .writeHead(200, { 'content-type': 'text/xml' })
            .end(
              `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}" InResponseTo="${inResponseTo}"><saml:Issuer>${provider.entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse></soap:Body></soap:Envelope>`,
            );
        })
        .catch((error: Error) => {
          received.push({ app, error: error.message });
          response.writeHead(500).end();
        });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
after(async () => {
  await server.stop();
  receiver.close();
});

async function person(name: string): Promise<{ id: string; browser: Client }> {
  const { id } = await ok(
    admin.post<{ id: string }>('/api/user', { username: name, realName: name, email: `${name}@example.test`, password: transform('Secret123') }),
  );
  const browser = server.client();
  assert.equal((await browser.login(name, 'Secret123')).status, 200);
  return { id, browser };
}

/** An app whose Single Logout service is reached with `binding` (node-saml set up with `saml`). */
async function app(name: string, binding: 'SOAP' | 'HTTP-Redirect' | 'HTTP-POST', saml: SpOptions['saml'] = {}): Promise<ServiceProvider> {
  const provider = await ServiceProvider.register(server, admin, name, { signRequests: true, saml });
  const sloUrl = binding === 'SOAP' ? `${receiverUrl}/${name}` : `http://127.0.0.1:9/${name}/slo`;
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { sloUrl, sloBinding: binding }));
  if (binding === 'SOAP') soapApps.set(name, provider);
  return provider;
}

/** Signs the person in to the app; answers the NameID and SessionIndex the app was given. */
async function signIn(provider: ServiceProvider, browser: Client) {
  const first = await provider.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const { profile } = await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  return { nameID: profile!.nameID, nameIDFormat: profile!.nameIDFormat, sessionIndex: profile!.sessionIndex! };
}

async function signOutRecords(appId: string) {
  const audit = await ok(admin.get<{ list: { action: string; success: boolean; targetId: string | null }[] }>('/api/audit?action=app.sign_out'));
  return audit.list.filter((entry) => entry.targetId === appId);
}

test('an administrator ending the sessions, and disabling the person: the SOAP app is told (node-saml reads a signed LogoutRequest)', async () => {
  const provider = await app('Soap_App', 'SOAP');
  const alice = await person('slo-alice');
  const session = await signIn(provider, alice.browser);
  await ok(admin.delete(`/api/user/${alice.id}/sessions`));
  const told = await until(
    () => received.find((entry) => entry.profile?.sessionIndex === session.sessionIndex || entry.error),
    'the LogoutRequest at the SOAP app',
  );
  assert.equal(told.error, undefined);
  assert.equal(told.profile?.nameID, session.nameID);
  assert.equal((await alice.browser.get('/api/cas/session')).status, 401);
  // The audit record is written once the app answered.
  await until(async () => (await signOutRecords(provider.appId)).filter((entry) => entry.success).length === 1, 'the audit record of the LogoutRequest sent');

  const bob = await person('slo-bob');
  const bobSession = await signIn(provider, bob.browser);
  const user = await ok(admin.get<{ version: number }>(`/api/user/${bob.id}`));
  await ok(admin.put(`/api/user/${bob.id}`, { availabilityStatus: Status.Disabled, version: user.version }));
  const toldBob = await until(() => received.find((entry) => entry.profile?.sessionIndex === bobSession.sessionIndex), 'the LogoutRequest at the SOAP app');
  assert.equal(toldBob.profile?.nameID, bobSession.nameID);
});

test('an app asking for transient NameIDs: each session is told by its own transient NameID (SOAP), and the app ends a session by it', async () => {
  const transient = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
  const provider = await app('Transient_Soap_App', 'SOAP', { identifierFormat: transient });
  const erin = await person('slo-erin');
  const session = await signIn(provider, erin.browser);
  assert.equal(session.nameIDFormat, transient);
  await ok(admin.delete(`/api/user/${erin.id}/sessions`));
  const told = await until(
    () => received.find((entry) => entry.profile?.sessionIndex === session.sessionIndex || entry.error),
    'the LogoutRequest at the SOAP app',
  );
  assert.equal(told.error, undefined);
  assert.deepEqual([told.profile?.nameID, told.profile?.nameIDFormat], [session.nameID, transient]);

  const frank = await person('slo-frank');
  const frankSession = await signIn(provider, frank.browser);
  assert.notEqual(frankSession.nameID, session.nameID);
  const own = new URL(await provider.sp.getLogoutUrlAsync({ ...frankSession, nameIDFormat: transient, issuer: provider.entityId }, 'r', {}));
  await server.client().raw('GET', own.pathname + own.search);
  assert.equal((await frank.browser.get('/api/cas/session')).status, 401, "the app's LogoutRequest naming the transient NameID ended the session");
});

test('a browser sign-out visits the HTTP-Redirect and HTTP-POST apps in turn (node-saml checks each signed LogoutRequest), then the sign-in page', async () => {
  const redirectApp = await app('Redirect_Slo_App', 'HTTP-Redirect');
  const postApp = await app('Post_Slo_App', 'HTTP-POST');
  const carol = await person('slo-carol');
  const sessions = { [redirectApp.appId]: await signIn(redirectApp, carol.browser), [postApp.appId]: await signIn(postApp, carol.browser) };
  const answer = await ok(carol.browser.get<{ redirectURL: string; appLogoutURL?: string }>('/api/cas/logout'));
  assert.ok(answer.appLogoutURL, 'no front-channel logout to go through');
  const seen: string[] = [];
  let next = new URL(answer.appLogoutURL).pathname;
  for (let step = 0; step < 2; step++) {
    const visit = await carol.browser.raw('GET', next);
    let provider: ServiceProvider;
    let relayState: string;
    let profile: { nameID?: string; sessionIndex?: string } | null;
    if (visit.status === 303) {
      const location = new URL(visit.headers.get('location')!);
      provider = redirectApp;
      const query = Object.fromEntries(location.searchParams);
      ({ profile } = await provider.sp.validateRedirectAsync(query, location.search.slice(1)));
      relayState = query.RelayState!;
    } else {
      assert.equal(visit.status, 200);
      const { action, fields } = postedForm(await visit.text());
      provider = postApp;
      assert.equal(action, 'http://127.0.0.1:9/Post_Slo_App/slo');
      ({ profile } = await provider.sp.validatePostRequestAsync({ SAMLRequest: fields.SAMLRequest! }));
      relayState = fields.RelayState!;
    }
    seen.push(provider.appId);
    assert.equal(profile?.sessionIndex, sessions[provider.appId]!.sessionIndex);
    assert.equal(profile?.nameID, sessions[provider.appId]!.nameID);
    // The app answers with its signed LogoutResponse, carrying the RelayState back.
    const back = new URL(await provider.sp.getLogoutResponseUrlAsync(profile as never, relayState, {}, true));
    const returned = await carol.browser.raw('GET', back.pathname + back.search);
    assert.equal(returned.status, 303);
    next = returned.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '');
  }
  assert.deepEqual(seen.sort(), [redirectApp.appId, postApp.appId].sort());
  assert.equal(next, '/login', 'the last app leads to the sign-in page');
  assert.equal((await signOutRecords(redirectApp.appId)).length, 1);
  assert.equal((await signOutRecords(postApp.appId)).length, 1);
});

test('RelayState on logout is never followed as an address (no open redirect)', async () => {
  const provider = await app('Relay_Slo_App', 'HTTP-Redirect');
  const forged = new URL(
    await provider.sp.getLogoutResponseUrlAsync({ ID: '_x', issuer: 'x', nameID: 'n', nameIDFormat: 'f' }, 'https://evil.example/', {}, true),
  );
  const answer = await server.client().raw('GET', forged.pathname + forged.search);
  assert.equal(answer.status, 303);
  assert.equal(answer.headers.get('location'), '/login');
  const step = await server.client().raw('GET', `/api/saml/logout/${encodeURIComponent('https://evil.example/')}`);
  assert.equal(step.status, 303);
  assert.equal(step.headers.get('location'), '/login');
});

test('an unsigned LogoutRequest from an app with a signing certificate, even the app that holds the session, ends nothing (RequestDenied)', async () => {
  const provider = await app('Unsigned_Slo_App', 'HTTP-POST');
  const dave = await person('slo-dave');
  const session = await signIn(provider, dave.browser);
  const logout = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_unsigned${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${provider.entityId}</saml:Issuer><saml:NameID>${session.nameID}</saml:NameID><samlp:SessionIndex>${session.sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`;
  const answer = await server.client().raw('GET', `/api/saml/slo?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(logout)).toString('base64'))}`);
  assert.equal(answer.status, 200);
  const refusal = Buffer.from(postedForm(await answer.text()).fields.SAMLResponse!, 'base64').toString();
  assert.match(refusal, /status:RequestDenied/);
  assert.match(refusal, /<samlp:StatusMessage>The message must be signed \(its Signature and SigAlg parameters\)</, 'the app is told why');
  assert.equal((await dave.browser.get('/api/cas/session')).status, 200, 'an unsigned LogoutRequest ended the session');
  // Control: the same request signed by the app ends it.
  const signed = new URL(
    await provider.sp.getLogoutUrlAsync({ ...session, nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', issuer: 'x' }, 'r', {}),
  );
  await server.client().raw('GET', signed.pathname + signed.search);
  assert.equal((await dave.browser.get('/api/cas/session')).status, 401);
});

test('an app with no signing certificate: its unsigned LogoutRequest ends the session only from the browser that session belongs to', async () => {
  const provider = await ServiceProvider.register(server, admin, 'Keyless_Slo_App');
  await ok(
    admin.put(`/api/apps/${provider.appId}/saml-provider`, { signingCert: '', sloUrl: 'http://127.0.0.1:9/Keyless_Slo_App/slo', sloBinding: 'HTTP-Redirect' }),
  );
  const gina = await person('slo-gina');
  const session = await signIn(provider, gina.browser);
  const send = async (browser: Client) => {
    const logout = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_keyless${Date.now()}${Math.random()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${server.base}/api/saml/slo"><saml:Issuer>${provider.entityId}</saml:Issuer><saml:NameID>${session.nameID}</saml:NameID><samlp:SessionIndex>${session.sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`;
    const answer = await browser.raw('GET', `/api/saml/slo?SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(logout)).toString('base64'))}`);
    assert.equal(answer.status, 303);
    const response = new URL(answer.headers.get('location')!).searchParams.get('SAMLResponse')!;
    return inflateRawSync(Buffer.from(response, 'base64')).toString();
  };
  // Another browser (no session, or someone else's) knowing the NameID and SessionIndex: nothing ends.
  for (const other of [server.client(), (await person('slo-henry')).browser]) {
    const refused = await send(other);
    assert.match(refused, /status:RequestDenied/);
    assert.match(refused, /ends only the sessions of the browser that carries it/);
    assert.equal((await gina.browser.get('/api/cas/session')).status, 200, 'an unsigned LogoutRequest from another browser ended the session');
  }
  assert.match(await send(gina.browser), /status:Success/);
  assert.equal((await gina.browser.get('/api/cas/session')).status, 401);
});

test("an app's own LogoutRequest is answered in its Single Logout service's binding: a signed redirect (node-saml reads it), or a sign-out page posting it", async () => {
  for (const binding of ['HTTP-Redirect', 'HTTP-POST'] as const) {
    const name = binding === 'HTTP-POST' ? 'Own_Logout_Post' : 'Own_Logout_Redirect';
    const provider = await app(name, binding);
    const frank = await person(`slo-frank-${binding === 'HTTP-POST' ? 'post' : 'redirect'}`);
    const session = await signIn(provider, frank.browser);
    const request = new URL(
      await provider.sp.getLogoutUrlAsync({ ...session, nameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', issuer: 'x' }, 'back', {}),
    );
    const answer = await frank.browser.raw('GET', request.pathname + request.search, undefined, { 'accept-language': 'zh' });
    assert.equal((await frank.browser.get('/api/cas/session')).status, 401, binding);
    if (binding === 'HTTP-Redirect') {
      assert.equal(answer.status, 303);
      const location = new URL(answer.headers.get('location')!);
      assert.equal(location.origin + location.pathname, `http://127.0.0.1:9/${name}/slo`);
      const query = Object.fromEntries(location.searchParams);
      assert.equal(query.RelayState, 'back');
      const { loggedOut } = await provider.sp.validateRedirectAsync(query, location.search.slice(1));
      assert.equal(loggedOut, true, 'node-saml read a successful LogoutResponse');
    } else {
      assert.equal(answer.status, 200);
      const html = await answer.text();
      assert.match(html, /<title>正在退出应用<\/title>/, 'a sign-out page, in the browser’s language');
      const { action, fields } = postedForm(html);
      assert.equal(action, `http://127.0.0.1:9/${name}/slo`);
      assert.match(Buffer.from(fields.SAMLResponse!, 'base64').toString(), /status:Success/);
    }
  }
});
