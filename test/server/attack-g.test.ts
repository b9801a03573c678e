// Attack G: an outside tester's proofs against the Windows sign-in names (`CORP\jdoe`, UPN) and the
// SAML changes of 2026-11-30. Each test asserts the CORRECT behaviour: a failing test is a finding.
// Against a real slapd holding Active Directory-shaped entries (test/server/slapd.ts): the CORP
// tenant's directory (ou=people, platform-allowed for first sign-ins) and Mallory's tenant, whose
// own tenant administrator saves and synchronises a directory of their own (ou=mallory).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ok, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personDn, personLdif, SUFFIX, type Person, type Slapd } from './slapd';
import { AD_ACCOUNTS, openLdapSettings, READER, recordingRelay, saveConnection, startDirectory, directoryLoginPolicy } from './ldap-support';
import type { LdapSettings, LdapSyncReport } from '../../src/core/schemas/ldap';
import { consentAndAnswer, postedForm, ServiceProvider } from './saml-support';

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let corpTenant: string;
let malloryTenant: string;
let mallory: Client;
let relay: Awaited<ReturnType<typeof recordingRelay>>;

const NORMAL = 512;
const ad = (uid: string, upn = `${uid}@corp.example`, mail = `${uid}.mail@example.com`): Person => ({
  uid,
  mail,
  password: `${uid}-pass-1`,
  ad: { userAccountControl: NORMAL, userPrincipalName: upn },
});
/** CORP's people: mail never equal to the principal name (the case the UPN spelling exists for). */
const CORP_PEOPLE = ['jdoe', 'vic', 'dom', 'ann', 'pat', 'sam'].map((uid) => ad(uid));
const MALLORY_OU = `ou=mallory,${SUFFIX}`;
/** Mallory's own entry, whose principal name Mallory set to CORP's vic's. */
const MALLORY_LDIF = [
  `dn: ${MALLORY_OU}\nobjectClass: organizationalUnit\nou: mallory`,
  personLdif(ad('mal', 'vic@corp.example')).replace(personDn('mal'), `uid=mal,${MALLORY_OU}`),
].join('\n\n');

const adSettings = (url: string, baseDn: string, netbiosDomain: string): LdapSettings =>
  openLdapSettings(url, slapd.caPem, { ...AD_ACCOUNTS, baseDn, netbiosDomain, preset: 'activeDirectory' });

before(async () => {
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'] }),
    startDirectory({ ldif: [...CORP_PEOPLE.map(personLdif), MALLORY_LDIF].join('\n\n') }),
  ]);
  admin = await server.admin();
  corpTenant = (await createTenant(admin, 'AttackG_Corp')).id;
  malloryTenant = (await createTenant(admin, 'AttackG_Mallory')).id;
  await saveConnection(admin, corpTenant, adSettings(slapd.url, `ou=people,${SUFFIX}`, 'CORP'), undefined, 'corp-ad');
  await directoryLoginPolicy(admin);
  // Mallory is the tenant administrator of her own tenant: nothing more.
  const created = await admin.post('/api/user', {
    username: 'attackg-mallory',
    realName: 'Mallory',
    password: transform('Secret123'),
    tenantId: malloryTenant,
    isAdmin: true,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  mallory = server.client();
  assert.equal((await mallory.login('attackg-mallory', 'Secret123')).status, 200);
  // Mallory's directory is reached through a relay that keeps what the IdP sends it (Mallory runs it).
  relay = await recordingRelay(Number(new URL(slapd.url).port));
});

after(async () => {
  await relay?.close();
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const signIn = (username: string, password: string) => server.client().login(username, password, { directoryPassword: password });

/** Mallory saves (and synchronises) her tenant's directory connection as a tenant administrator may. */
async function malloryDirectory(netbiosDomain: string) {
  const url = slapd.url.replace(/:\d+$/, `:${relay.port}`);
  const saved = await mallory.put(`/api/tenants/${malloryTenant}/ldap`, {
    name: 'mallory-ad',
    enabled: true,
    // Mallory's server: she reads what it receives (plain LDAP here so that the relay may too).
    settings: { ...adSettings(url, MALLORY_OU, netbiosDomain), startTls: false },
    bindSecret: READER.secret,
  });
  return saved;
}

test('finding: DOMAIN\\principal-name is a second failure count: the lockout of jdoe does not hold', async () => {
  assert.equal((await signIn('jdoe', 'jdoe-pass-1')).status, 200, 'jdoe is a person here');
  assert.equal((await signIn('jdoe', 'wrong-1')).status, 401);
  assert.equal((await signIn('jdoe', 'wrong-2')).status, 401);
  // No Windows spelling: it signs nobody in, so it checks nobody's password (jdoe's right one neither).
  const mixed = await signIn('CORP\\jdoe@corp.example', 'jdoe-pass-1');
  assert.equal(mixed.status, 401, `CORP\\<his UPN> must not reach jdoe's password: ${JSON.stringify(mixed.body)}`);
  const third = await signIn('jdoe', 'wrong-3');
  assert.equal(third.status, 429, `the third wrong password of jdoe locks: ${JSON.stringify(third.body)}`);
});

test('finding: right passwords typed as CORP\\<principal name> lock the person out after maxFailures sign-ins', async () => {
  // The spelling signs nobody in now; what it counts is its own, never sam's.
  const statuses: number[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) statuses.push((await signIn('CORP\\sam@corp.example', 'sam-pass-1')).status);
  assert.deepEqual(statuses, [401, 401, 429], 'the spelling locks itself, as any name nobody has');
  const right = await signIn('sam', 'sam-pass-1');
  assert.equal(right.status, 200, `sam still signs in: ${JSON.stringify(right.body)}`);
});

test('finding (same cause as above): a burst of first sign-ins by every spelling of one new person answers some right passwords 429', async () => {
  const spellings = ['pat', 'CORP\\pat', 'pat@corp.example', 'PAT@CORP.EXAMPLE'];
  const answers = await Promise.all(Array.from({ length: 12 }, (_, at) => signIn(spellings[at % spellings.length]!, 'pat-pass-1')));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    answers.map(() => 200),
    JSON.stringify(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)),
  );
  const failures = (await admin.get<{ list: { detail: { username?: string } }[] }>('/api/audit?action=login.failure&size=50')).body.data.list.filter((row) =>
    String(row.detail.username).toLowerCase().includes('pat'),
  );
  assert.deepEqual(failures, [], 'no right password of pat failed');
  const found = await admin.get<{ list: { username: string; tenantId: string }[] }>('/api/user?searchProp=username&searchValue=pat');
  assert.deepEqual(
    found.body.data.list.filter((row) => row.username.toLowerCase().includes('pat')).map((row) => [row.username, row.tenantId]),
    [['pat', corpTenant]],
  );
});

test('holds: look-alike spellings (fullwidth, Cyrillic, other separators) of a directory name sign nobody in', async () => {
  for (const name of [
    'ａｎｎ',
    'аnn',
    'CORP／ann',
    'CORP\\\\ann',
    'ann＠corp.example',
    'ann@corp.example\u0000',
    'ann@@corp.example',
    'CORP\\ann@corp.example@x',
  ]) {
    const answer = await signIn(name, 'ann-pass-1');
    assert.ok(answer.status === 401 || answer.status === 400, `${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
});

test("finding: another tenant's directory entry claiming a CORP person's principal name receives their password", async () => {
  const saved = await malloryDirectory('');
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const synced = await mallory.post<LdapSyncReport>(`/api/tenants/${malloryTenant}/ldap/sync`);
  assert.equal(synced.status, 200, JSON.stringify(synced.body));
  assert.equal(synced.body.data.outcome, 'success', JSON.stringify(synced.body.data));
  const before = relay.sent().length;
  // vic (CORP, nobody here yet) signs in by his principal name, as the docs say he may.
  const answer = await signIn('vic@corp.example', 'vic-pass-1');
  const toMallory = relay.sent().subarray(before).toString('latin1');
  assert.ok(!toMallory.includes('vic-pass-1'), "vic's password must never reach Mallory's directory");
  const failures = await admin.get<{ list: { targetName?: string; tenantId?: string; detail: { username?: string } }[] }>(
    '/api/audit?action=login.failure&size=20',
  );
  const record = failures.body.data.list.find((row) => row.detail.username === 'vic@corp.example');
  assert.notEqual(record?.targetName, 'mal', `the attempt was checked as Mallory's person: ${JSON.stringify(record)}`);
  assert.equal(answer.status, 200, `vic signs in as CORP's vic: ${JSON.stringify(answer.body)}`);
});

test("finding: a tenant administrator naming their directory's Windows domain as CORP's stops CORP\\name sign-ins", async () => {
  assert.equal((await signIn('CORP\\dom', 'dom-pass-1')).status, 200, 'CORP\\dom signs in before');
  const saved = await malloryDirectory('corp');
  try {
    const after = await signIn('CORP\\dom', 'dom-pass-1');
    // Either the squatting save is refused, or CORP's own people still sign in by CORP\name.
    assert.ok(saved.status >= 400 || after.status === 200, `save ${saved.status}; CORP\\dom then: ${after.status} ${JSON.stringify(after.body)}`);
  } finally {
    await malloryDirectory('');
  }
});

// --- SAML ---

/** A person of the root tenant, signed in in a browser of their own. */
async function samlPerson(name: string) {
  await ok(admin.post('/api/user', { username: name, realName: name, email: `${name}@example.test`, password: transform('Secret123') }));
  const browser = server.client();
  assert.equal((await browser.login(name, 'Secret123')).status, 200);
  return browser;
}

/** Signs the browser in to the app; the NameID and SessionIndex the app was given. */
async function samlSignIn(provider: ServiceProvider, browser: Client) {
  const first = await provider.sendAuthnRequest(browser);
  const { form } = await consentAndAnswer(browser, first.headers.get('location')!);
  const { profile } = await provider.sp.validatePostResponseAsync({ SAMLResponse: form.fields.SAMLResponse! });
  return { nameID: profile!.nameID, sessionIndex: profile!.sessionIndex! };
}

const redirectQuery = (xml: string) => `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;

test("finding: an unsigned LogoutRequest naming the browser's own session and another person's SessionIndex forgets that person's SAML session", async () => {
  const provider = await ServiceProvider.register(server, admin, 'AttackG_Keyless');
  await ok(
    admin.put(`/api/apps/${provider.appId}/saml-provider`, { signingCert: '', sloUrl: 'http://127.0.0.1:9/AttackG_Keyless/slo', sloBinding: 'HTTP-Redirect' }),
  );
  const eve = await samlPerson('attackg-eve');
  const vic = await samlPerson('attackg-saml-vic');
  const eveSession = await samlSignIn(provider, eve);
  const vicSession = await samlSignIn(provider, vic);
  // Eve's browser names her own NameID and SessionIndex, and vic's SessionIndex (leaked, say in a log).
  const logout = `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_attackg${Date.now()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${server.base}/api/saml/slo"><saml:Issuer>${provider.entityId}</saml:Issuer><saml:NameID>${eveSession.nameID}</saml:NameID><samlp:SessionIndex>${eveSession.sessionIndex}</samlp:SessionIndex><samlp:SessionIndex>${vicSession.sessionIndex}</samlp:SessionIndex></samlp:LogoutRequest>`;
  const answer = await eve.raw('GET', `/api/saml/slo?${redirectQuery(logout)}`);
  assert.equal(answer.status, 303);
  const response = inflateRawSync(Buffer.from(new URL(answer.headers.get('location')!).searchParams.get('SAMLResponse')!, 'base64')).toString();
  assert.equal((await vic.get('/api/cas/session')).status, 200, "vic's console session stays");
  const kept = await server.app.ctx.db.selectFrom('samlSessions').select('sessionIndex').where('sessionIndex', '=', vicSession.sessionIndex).execute();
  assert.equal(
    kept.length,
    1,
    `vic's SAML session must stay known (her sign-out must still reach the app); Eve was answered ${/StatusCode Value="([^"]+)"/.exec(response)?.[1]}`,
  );
});

test('holds: a hostile NameIDPolicy Format (long, XML-ish) is answered InvalidNameIDPolicy, escaped, never a 500', async () => {
  const provider = await ServiceProvider.register(server, admin, 'AttackG_Format');
  await ok(admin.put(`/api/apps/${provider.appId}/saml-provider`, { signingCert: '' }));
  const browser = await samlPerson('attackg-format');
  for (const format of ['x'.repeat(60_000), '&lt;/samlp:StatusMessage&gt;&lt;script&gt;alert(1)&lt;/script&gt;', ']]&gt;&amp;lt;', ' ']) {
    const request = `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_fmt${Date.now()}${Math.random()}" Version="2.0" IssueInstant="${new Date().toISOString()}" AssertionConsumerServiceURL="${provider.acsUrl}"><saml:Issuer>${provider.entityId}</saml:Issuer><samlp:NameIDPolicy Format="${format}" AllowCreate="true"/></samlp:AuthnRequest>`;
    const answer = await browser.raw('GET', `/api/saml/sso?${redirectQuery(request)}`);
    assert.ok(answer.status < 500, `${format.slice(0, 40)}: ${answer.status}`);
    if (answer.status === 200) {
      const xml = Buffer.from(postedForm(await answer.text()).fields.SAMLResponse!, 'base64').toString();
      assert.match(xml, /InvalidNameIDPolicy/);
      assert.doesNotMatch(xml, /<script>/);
      assert.ok(xml.length < 20_000, 'the StatusMessage is bounded');
    }
  }
});
