// SAML Single Logout, attacked from outside: what an app's LogoutRequest must carry to end a
// session (a fresh IssueInstant, an unexpired NotOnOrAfter, a Destination when signed), what the
// LogoutResponse an app sends back must be (signed by the app the browser was sent to, answering
// that LogoutRequest) before the browser sign-out goes on, and who may walk a browser sign-out's
// chain (only the browser that signed out: not the first app that received the chain as RelayState,
// which would read the person's NameID and SessionIndex at the other apps and could skip them).
// Deleting a person (by an administrator, or SCIM deprovisioning, which deletes through the same
// path) ends their SAML sessions: an app with a SOAP service is told, as when they are disabled.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateRawSync } from 'node:zlib';
import { startServer, transform, type Client, type TestServer, ok } from './harness';
import { consentAndAnswer, postedForm, ServiceProvider } from './saml-support';
import { createKey } from '../../server/saml/keys';
import { Status } from '../../src/core/enums';
import { until } from './receivers';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

let server: TestServer;
let admin: Client;
let strangerKey: { privateKey: string; certificate: string };
let receiver: Server;
let receiverUrl: string;
/** The SessionIndex of every LogoutRequest the SOAP receiver got. */
const toldSessions: string[] = [];

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  strangerKey = await createKey('Stranger', Date.now());
  // A SOAP Single Logout service: notes the SessionIndex and answers Success to the request's ID.
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      toldSessions.push(/<samlp:SessionIndex>([^<]+)</.exec(body)?.[1] ?? '');
      const id = /<samlp:LogoutRequest[^>]* ID="([^"]+)"/.exec(body)?.[1] ?? '';
      response
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}" InResponseTo="${id}"><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse></soap:Body></soap:Envelope>`,
        );
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

async function app(name: string, binding: 'HTTP-Redirect' | 'HTTP-POST', nameIdFormat?: 'persistent'): Promise<ServiceProvider> {
  const provider = await ServiceProvider.register(server, admin, name, { signRequests: true, ...(nameIdFormat ? { nameIdFormat } : {}) });
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { sloUrl: `http://127.0.0.1:9/${name}/slo`, sloBinding: binding }));
  return provider;
}

async function signIn(provider: ServiceProvider, browser: Client) {
  const first = await provider.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const { profile } = await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  return { nameID: profile!.nameID, sessionIndex: profile!.sessionIndex! };
}

/** An HTTP-Redirect query carrying `xml` as `kind`, signed (§3.4.4.1) with `privateKey`. */
function signedQuery(kind: 'SAMLRequest' | 'SAMLResponse', xml: string, privateKey: string, relayState?: string): string {
  const query = [
    `${kind}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`,
    ...(relayState ? [`RelayState=${encodeURIComponent(relayState)}`] : []),
    `SigAlg=${encodeURIComponent(RSA_SHA256)}`,
  ].join('&');
  return `${query}&Signature=${encodeURIComponent(sign('sha256', Buffer.from(query), privateKey).toString('base64'))}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

function logoutRequest(
  provider: ServiceProvider,
  session: { nameID: string; sessionIndex: string },
  options: { issueInstant?: number; notOnOrAfter?: number; destination?: string | null } = {},
) {
  const destination = options.destination === undefined ? `${server.base}/api/saml/slo` : options.destination;
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(options.issueInstant ?? server.clock.now())}"` +
    (destination ? ` Destination="${destination}"` : '') +
    (options.notOnOrAfter ? ` NotOnOrAfter="${iso(options.notOnOrAfter)}"` : '') +
    `><saml:Issuer>${provider.entityId}</saml:Issuer><saml:NameID Format="${EMAIL_FORMAT}">${session.nameID}</saml:NameID>` +
    `<samlp:SessionIndex>${session.sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}

function logoutResponse(issuer: string, inResponseTo: string) {
  return (
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(server.clock.now())}" Destination="${server.base}/api/saml/slo" ` +
    `InResponseTo="${inResponseTo}"><saml:Issuer>${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`
  );
}

/** The status an app's LogoutRequest was answered with (the signed LogoutResponse posted back): the
 *  second-level code under the top-level one, which SAML core limits to Success, Requester, Responder
 *  and VersionMismatch (a denied request: Requester, then RequestDenied). */
async function statusOf(answer: Response): Promise<string> {
  assert.equal(answer.status, 200);
  const xml = Buffer.from(postedForm(await answer.text()).fields.SAMLResponse!, 'base64').toString();
  const [top, second] = [...xml.matchAll(/StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:(\w+)"/g)].map((match) => match[1]!);
  assert.ok(top && ['Success', 'Requester', 'Responder', 'VersionMismatch'].includes(top), `top-level status ${top}`);
  return second ?? top;
}

test('a LogoutRequest signed a day ago (stale IssueInstant) ends nothing: RequestDenied, the session goes on', async () => {
  const provider = await app('Stale_Logout_App', 'HTTP-POST');
  const alice = await person('slo-stale-alice');
  const session = await signIn(provider, alice.browser);
  const stale = logoutRequest(provider, session, { issueInstant: server.clock.now() - 24 * 3600_000 });
  const answer = await server.client().raw('GET', `/api/saml/slo?${signedQuery('SAMLRequest', stale, provider.key.privateKey)}`);
  assert.equal(await statusOf(answer), 'RequestDenied');
  assert.equal((await alice.browser.get('/api/cas/session')).status, 200, 'a day-old LogoutRequest ended the session');
});

test('a LogoutRequest past its NotOnOrAfter ends nothing: RequestDenied, the session goes on', async () => {
  const provider = await app('Expired_Logout_App', 'HTTP-POST');
  const bob = await person('slo-expired-bob');
  const session = await signIn(provider, bob.browser);
  const expired = logoutRequest(provider, session, { notOnOrAfter: server.clock.now() - 60_000 });
  const answer = await server.client().raw('GET', `/api/saml/slo?${signedQuery('SAMLRequest', expired, provider.key.privateKey)}`);
  assert.equal(await statusOf(answer), 'RequestDenied');
  assert.equal((await bob.browser.get('/api/cas/session')).status, 200, 'an expired LogoutRequest ended the session');
});

test('a signed LogoutRequest without Destination ends nothing (bindings §3.4.5.2: a signed message names where it was sent)', async () => {
  const provider = await app('No_Destination_App', 'HTTP-POST');
  const carol = await person('slo-nodest-carol');
  const session = await signIn(provider, carol.browser);
  const bare = logoutRequest(provider, session, { destination: null });
  const answer = await server.client().raw('GET', `/api/saml/slo?${signedQuery('SAMLRequest', bare, provider.key.privateKey)}`);
  assert.equal(await statusOf(answer), 'RequestDenied');
  assert.equal((await carol.browser.get('/api/cas/session')).status, 200);
});

test('holds: a fresh signed LogoutRequest ends the session once; its replay is RequestDenied; a wrong Destination is RequestDenied', async () => {
  const provider = await app('Fresh_Logout_App', 'HTTP-POST');
  const dave = await person('slo-fresh-dave');
  const session = await signIn(provider, dave.browser);
  const wrongPlace = logoutRequest(provider, session, { destination: 'https://other-idp.example/slo' });
  assert.equal(
    await statusOf(await server.client().raw('GET', `/api/saml/slo?${signedQuery('SAMLRequest', wrongPlace, provider.key.privateKey)}`)),
    'RequestDenied',
  );
  assert.equal((await dave.browser.get('/api/cas/session')).status, 200);
  const query = signedQuery('SAMLRequest', logoutRequest(provider, session), provider.key.privateKey);
  assert.equal(await statusOf(await server.client().raw('GET', `/api/saml/slo?${query}`)), 'Success');
  assert.equal((await dave.browser.get('/api/cas/session')).status, 401);
  assert.equal(await statusOf(await server.client().raw('GET', `/api/saml/slo?${query}`)), 'RequestDenied');
});

/** A person signed in to two browser-only Single Logout apps signs out; answers the first step the
 *  browser is sent to (its RelayState is the chain) and the apps. */
async function signOutWithTwoApps(prefix: string, username: string) {
  const first = await app(`${prefix}_One`, 'HTTP-Redirect', 'persistent');
  const second = await app(`${prefix}_Two`, 'HTTP-Redirect', 'persistent');
  const erin = await person(username);
  const sessions = new Map([
    [first.entityId, await signIn(first, erin.browser)],
    [second.entityId, await signIn(second, erin.browser)],
  ]);
  const answer = await ok(erin.browser.get<{ appLogoutURL?: string }>('/api/cas/logout'));
  assert.ok(answer.appLogoutURL);
  const step = await erin.browser.raw('GET', new URL(answer.appLogoutURL).pathname);
  assert.equal(step.status, 303);
  const location = new URL(step.headers.get('location')!);
  const visited = location.pathname.includes(`${prefix}_One`) ? first : second;
  const query = Object.fromEntries(location.searchParams);
  const { profile } = await visited.sp.validateRedirectAsync(query, location.search.slice(1));
  return {
    browser: erin.browser,
    chain: query.RelayState!,
    visited,
    other: visited === first ? second : first,
    requestId: profile!.ID!,
    sessions,
  };
}

test("the chain an app receives as RelayState does not let that app (or anyone but the browser) fetch the next app's LogoutRequest", async () => {
  const { chain, other, sessions } = await signOutWithTwoApps('Chain_Leak', 'slo-chain-erin');
  // The first app (or whoever read its logs or the Referer) walks the chain on its own.
  const stolen = await server.client().raw('GET', `/api/saml/logout/${chain}`);
  const location = stolen.headers.get('location') ?? '';
  const leaked = location.includes('SAMLRequest=') || (stolen.status === 200 && (await stolen.text()).includes('SAMLRequest'));
  assert.equal(
    leaked,
    false,
    `another client got the LogoutRequest for ${other.entityId} (NameID ${sessions.get(other.entityId)!.nameID}, SessionIndex ${sessions.get(other.entityId)!.sessionIndex})`,
  );
  assert.equal(stolen.status, 303);
  assert.equal(location, '/login');
});

test('a LogoutResponse signed with a key the app never registered does not move the browser sign-out on (400)', async () => {
  const { browser, chain, visited, requestId } = await signOutWithTwoApps('Bad_Sig_Response', 'slo-badsig-fay');
  const forged = signedQuery('SAMLResponse', logoutResponse(visited.entityId, requestId), strangerKey.privateKey, chain);
  const answer = await browser.raw('GET', `/api/saml/slo?${forged}`);
  assert.equal(answer.status, 400, `a wrongly signed LogoutResponse was followed to ${answer.headers.get('location')}`);
});

test('a LogoutResponse from another app, or answering another request, does not move the browser sign-out on (400)', async () => {
  const { browser, chain, other, visited, requestId } = await signOutWithTwoApps('Wrong_Answer_Response', 'slo-wrong-gus');
  // Signed by the app that was NOT sent the LogoutRequest.
  const fromOther = signedQuery('SAMLResponse', logoutResponse(other.entityId, requestId), other.key.privateKey, chain);
  const first = await browser.raw('GET', `/api/saml/slo?${fromOther}`);
  assert.equal(first.status, 400, `a LogoutResponse of another app was followed to ${first.headers.get('location')}`);
  // Signed by the right app, answering a request that was never sent.
  const unrelated = signedQuery('SAMLResponse', logoutResponse(visited.entityId, '_never-sent'), visited.key.privateKey, chain);
  const second = await browser.raw('GET', `/api/saml/slo?${unrelated}`);
  assert.equal(second.status, 400, `a LogoutResponse to no request was followed to ${second.headers.get('location')}`);
});

test('holds: the browser that signed out, with the right LogoutResponse, goes on to the second app and then the sign-in page', async () => {
  const { browser, chain, visited, other, requestId, sessions } = await signOutWithTwoApps('Honest_Chain', 'slo-honest-hal');
  const back = await browser.raw(
    'GET',
    `/api/saml/slo?${signedQuery('SAMLResponse', logoutResponse(visited.entityId, requestId), visited.key.privateKey, chain)}`,
  );
  assert.equal(back.status, 303);
  const next = await browser.raw('GET', new URL(back.headers.get('location')!).pathname);
  assert.equal(next.status, 303);
  const location = new URL(next.headers.get('location')!);
  const { profile } = await other.sp.validateRedirectAsync(Object.fromEntries(location.searchParams), location.search.slice(1));
  assert.equal(profile?.sessionIndex, sessions.get(other.entityId)!.sessionIndex);
});

/** Whether the SOAP receiver was told of `sessionIndex` (the outbox posts it, soon after). */
const soapTold = (sessionIndex: string): Promise<boolean> =>
  until(() => toldSessions.includes(sessionIndex), `the SOAP app told of ${sessionIndex}`).then(
    () => true,
    () => false,
  );

async function soapApp(name: string): Promise<ServiceProvider> {
  const provider = await ServiceProvider.register(server, admin, name, { signRequests: true });
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { sloUrl: `${receiverUrl}/${name}`, sloBinding: 'SOAP' }));
  return provider;
}

test('deleting a person tells the SOAP app their SAML session ended (as disabling them does)', async () => {
  const provider = await soapApp('Deleted_Person_App');
  const ivy = await person('slo-deleted-ivy');
  const session = await signIn(provider, ivy.browser);
  assert.equal((await admin.delete(`/api/user/${ivy.id}`)).status, 200);
  assert.equal(await soapTold(session.sessionIndex), true, "the app was never told that the deleted person's session ended");
});

test('deleting people in bulk tells the SOAP app too (the path SCIM deprovisioning shares)', async () => {
  const provider = await soapApp('Bulk_Deleted_App');
  const kim = await person('slo-bulk-kim');
  const session = await signIn(provider, kim.browser);
  const { results } = await ok(admin.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action: 'delete', ids: [kim.id] }));
  assert.deepEqual(
    results.map((result) => result.ok),
    [true],
  );
  assert.equal(await soapTold(session.sessionIndex), true, "the app was never told that the person's session ended");
});

test('holds: disabling a person tells the SOAP app', async () => {
  const provider = await soapApp('Disabled_Person_App');
  const jay = await person('slo-disabled-jay');
  const session = await signIn(provider, jay.browser);
  const user = await ok(admin.get<{ version: number }>(`/api/user/${jay.id}`));
  await ok(admin.put(`/api/user/${jay.id}`, { availabilityStatus: Status.Disabled, version: user.version }));
  assert.equal(await soapTold(session.sessionIndex), true);
});
