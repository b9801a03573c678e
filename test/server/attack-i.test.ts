// Attack I: today's changes seen from outside: the sign-in that writes its session only while the
// password it checked is still the stored one and the person still enabled (server/auth/login.ts
// stillAsChecked), a lowered absolute session life, the requester's address in a refresh-token
// reuse record. Each test asserts the correct behaviour: one that fails shows a fault of today's code.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, type Client, lastAuditId, ok, signedInPerson, startServer, transform, type TestServer } from './harness';
import { auditSince } from './audit-rows';
import { Status } from '../../src/core/enums';
import type { User } from '../../src/core/types';
import { RelyingParty } from './oidc-rp';
import { createTenant } from './scim-support';
import { personDn, personLdif, sidLdif, SUFFIX, type Person, type Slapd } from './slapd';
import { AD_ACCOUNTS, openLdapSettings, saveConnection, startDirectory } from './ldap-support';
import { signInOvertakenBy } from './sign-in-support';
import type { LdapSyncReport } from '../../src/core/schemas/ldap';

let server: TestServer;
let admin: Client;
let people = 0;
let ledger: RelyingParty;
let slapd: Slapd;

// Hostile Active Directory data: primary groups (server/ldap/primary-group.ts) of people whose
// objectSid is malformed, oversized, another domain's, or names a group whose SID two groups share.
const DOMAIN_SID = 'S-1-5-21-1111111111-2222222222-3333333333';
const OTHER_DOMAIN_SID = 'S-1-5-21-4000000000-555555555-666666666';
const sidBytes = (sid: string) => Buffer.from(sidLdif(sid).slice('objectSid:: '.length), 'base64');
const adPerson = (uid: string, primaryGroupID: number | string, objectSid?: string | Buffer): string => {
  const person: Person = {
    uid,
    mail: `${uid}@corp.example`,
    password: `${uid}-pass-1`,
    ad: { userAccountControl: 512, userPrincipalName: `${uid}@corp.example` },
  };
  const sid = objectSid === undefined ? [] : [`objectSid:: ${(typeof objectSid === 'string' ? sidBytes(objectSid) : objectSid).toString('base64')}`];
  return [personLdif(person), `primaryGroupID: ${primaryGroupID}`, ...sid].join('\n');
};
const adGroup = (cn: string, sid: string) =>
  [`dn: cn=${cn},ou=people,${SUFFIX}`, 'objectClass: groupOfNames', 'objectClass: adGroup', `cn: ${cn}`, `member: ${personDn('nobody')}`, sidLdif(sid)].join(
    '\n',
  );
const fifteen = `${DOMAIN_SID}-${Array.from({ length: 11 }, (_, index) => index + 1).join('-')}`;
const DIRECTORY = [
  adGroup('Domain Users', `${DOMAIN_SID}-513`),
  adGroup('Domain Admins', `${DOMAIN_SID}-512`),
  // Two groups of one SID (a copy restored beside its original, a hostile directory).
  adGroup('Twin Mapped', `${DOMAIN_SID}-600`),
  adGroup('Twin Plain', `${DOMAIN_SID}-600`),
  adPerson('burst', 513, `${DOMAIN_SID}-1310`),
  adPerson('plain', 513, `${DOMAIN_SID}-1301`),
  adPerson('foreign', 512, `${OTHER_DOMAIN_SID}-1302`),
  adPerson('garbage', 512, Buffer.from([1, 5, 0])),
  adPerson('liar', 512, Buffer.concat([sidBytes(`${DOMAIN_SID}-1304`), Buffer.alloc(4)])),
  adPerson('longsid', 512, sidBytes(fifteen)),
  adPerson('hugegid', '99999999999999999999', `${DOMAIN_SID}-1306`),
  adPerson('twin', 600, `${DOMAIN_SID}-1307`),
].join('\n\n');
let corpTenant: string;

before(async () => {
  [server, slapd] = await Promise.all([startServer({ outboundAllow: ['127.0.0.1'] }), startDirectory({ ldif: DIRECTORY })]);
  admin = await server.admin();
  corpTenant = (await createTenant(admin, 'AttackICorp')).id;
  ledger = await RelyingParty.register(server, admin, 'Ledger_I');
});
after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const newPerson = () => signedInPerson(server, admin, { username: `attack-i-${++people}`, realName: `Attack_I_${people}` });
const resetPassword = (id: string, password: string) =>
  ok(admin.post(`/api/user/${id}/password`, { id, password: transform(password), opUserPassword: transform(ADMIN.password) }));

// ---------------------------------------------------------------------------------------------
// A sign-in refused because the person changed while it ran

// Every other refused sign-in (wrong password, disabled, second step) leaves a login.failure naming
// the person: an administrator looking at a takeover attempt (the old password used while the owner
// reset it) must see this one too.
const overtaken: [string, (user: User) => Promise<unknown>][] = [
  ['the password was reset', (user) => resetPassword(user.id, 'Changed123')],
  [
    'the person was disabled',
    async (user) => {
      const current = await ok(admin.get<User & { version: number }>(`/api/user/${user.id}`));
      await ok(admin.put(`/api/user/${user.id}`, { availabilityStatus: Status.Disabled, version: current.version }));
    },
  ],
];
for (const [what, change] of overtaken) {
  test(`a sign-in refused because ${what} while it ran: 401, no live session, and a failed sign-in record of that person`, async () => {
    const { user, username } = await newPerson();
    const since = await lastAuditId(server);
    const { answer, browser } = await signInOvertakenBy(server, username, 'Secret123', () => change(user));
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.equal((await browser.get('/api/cas/session')).status, 401, 'no live session');
    const rows = (await auditSince(server, since)).filter((row) => row.targetId === user.id && row.action.startsWith('login.'));
    assert.ok(
      rows.some((row) => row.action === 'login.failure' && row.success === 0),
      `a failed sign-in record of the person; records: ${JSON.stringify(rows.map((row) => row.action))}`,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Bursts of one person's sign-ins with a reset or a disable racing them

for (const change of ['reset', 'disable'] as const) {
  test(`16 parallel sign-ins of one person with a ${change} racing them: no 500, and no session outlives the ${change}`, async () => {
    const { user, username } = await newPerson();
    const browsers = Array.from({ length: 16 }, () => server.client());
    const signIns = Promise.all(browsers.map((browser) => browser.login(username, 'Secret123')));
    const changed =
      change === 'reset'
        ? resetPassword(user.id, 'Changed123')
        : admin
            .get<User & { version: number }>(`/api/user/${user.id}`)
            .then((current) => ok(admin.put(`/api/user/${user.id}`, { availabilityStatus: Status.Disabled, version: current.body.data.version })));
    const [answers] = await Promise.all([signIns, changed]);
    const statuses = answers.map((answer) => answer.status);
    // Refusals: the change, a wrong (replaced) password, disabled; past the failures' threshold the
    // captcha (attempts in flight count).
    const refusal = (answer: (typeof answers)[number]) => answer.status === 401 || (answer.status === 400 && /captcha/i.test(answer.body.message ?? ''));
    assert.ok(
      answers.every((answer) => answer.status === 200 || refusal(answer)),
      `only sessions or refusals: ${JSON.stringify(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.message]))}`,
    );
    const live = await Promise.all(browsers.map((browser) => browser.get('/api/cas/session').then((answer) => answer.status)));
    assert.deepEqual(
      live.filter((status) => status !== 401),
      [],
      `every session ended by the ${change} (sign-in answers ${statuses.join(',')})`,
    );
  });
}

test('16 parallel sign-ins of one person, nothing racing: every one opens its session', async () => {
  const { username } = await newPerson();
  const browsers = Array.from({ length: 16 }, () => server.client());
  const answers = await Promise.all(browsers.map((browser) => browser.login(username, 'Secret123')));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    answers.map(() => 200),
    JSON.stringify(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)),
  );
  const live = await Promise.all(browsers.map((browser) => browser.get('/api/cas/session').then((answer) => answer.status)));
  assert.deepEqual(
    live,
    live.map(() => 200),
  );
});

// ---------------------------------------------------------------------------------------------
// A lowered absolute session life, at its edge (test clock)

test('a lowered absolute session life: a session a minute younger than the new limit lives, past the limit it ends', async () => {
  const { value: policy } = (await admin.get<{ value: { sessionAbsoluteHours: number } }>('/api/settings/login')).body.data;
  const { browser } = await newPerson();
  // Two hours less a minute of use (the test clock runs on real time: a minute's margin), a request every 20 minutes (within the idle timeout).
  for (const step of [20, 20, 20, 20, 20, 19]) {
    server.clock.advance(step * 60_000);
    assert.equal((await browser.get('/api/cas/session')).status, 200);
  }
  admin = await server.admin();
  const version = (await admin.get<{ version: number }>('/api/settings/login')).body.data.version;
  await ok(admin.put('/api/settings/login', { sessionAbsoluteHours: 2, version }));
  try {
    assert.equal((await browser.get('/api/cas/session')).status, 200, 'a minute younger than the new limit');
    server.clock.advance(60_000);
    assert.equal((await browser.get('/api/cas/session')).status, 401, 'past the new limit');
  } finally {
    admin = await server.admin();
    const now = (await admin.get<{ version: number }>('/api/settings/login')).body.data.version;
    await ok(admin.put('/api/settings/login', { sessionAbsoluteHours: policy.sessionAbsoluteHours, version: now }));
  }
});

test("a lowered absolute session life ends the apps' silent sign-in too: prompt=none answers login_required, not a code", async () => {
  const { value: policy } = (await admin.get<{ value: { sessionAbsoluteHours: number } }>('/api/settings/login')).body.data;
  const { browser } = await newPerson();
  await ledger.signIn(browser, 'openid', { prompt: 'consent' });
  for (let step = 0; step < 9; step += 1) {
    server.clock.advance(20 * 60_000);
    assert.equal((await browser.get('/api/cas/session')).status, 200);
  }
  admin = await server.admin();
  const version = (await admin.get<{ version: number }>('/api/settings/login')).body.data.version;
  await ok(admin.put('/api/settings/login', { sessionAbsoluteHours: 2, version }));
  try {
    const silent = await ledger.authorization('openid', { prompt: 'none' });
    const { url } = await ledger.follow(browser, silent.url);
    assert.equal(url.origin + url.pathname, ledger.callback, `landed on ${url.href}`);
    assert.deepEqual([url.searchParams.get('error'), url.searchParams.get('code')], ['login_required', null], url.href);
  } finally {
    admin = await server.admin();
    const now = (await admin.get<{ version: number }>('/api/settings/login')).body.data.version;
    await ok(admin.put('/api/settings/login', { sessionAbsoluteHours: policy.sessionAbsoluteHours, version: now }));
  }
});

// ---------------------------------------------------------------------------------------------
// The refresh-token reuse record's address

test('a refresh-token reuse with a forged X-Forwarded-For (no trusted proxy): the record names the real address, not the forged one', async () => {
  const { browser } = await newPerson();
  const tokens = await ledger.signIn(browser, 'openid offline_access profile', { prompt: 'consent' });
  const since = await lastAuditId(server);
  const basic = `Basic ${Buffer.from(`${ledger.appId}:${ledger.secret!}`).toString('base64')}`;
  const form = String(new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }));
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      fetch(ledger.as.token_endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic, 'x-forwarded-for': `203.0.113.${index + 1}` },
        body: form,
      }).then((answer) => answer.status),
    ),
  );
  assert.equal(answers.filter((status) => status === 200).length, 1, answers.join(','));
  const ended = (await auditSince(server, since)).filter((row) => row.action === 'app.grant_revoke');
  assert.equal(ended.length, 1, 'one record of the grant ending');
  assert.equal(ended[0]!.ip, '127.0.0.1');
});

// ---------------------------------------------------------------------------------------------
// Active Directory primary groups from hostile directory data

/** The AD-shaped connection of the corp tenant, its groups mapped to three roles of one app (saved once). */
let connection: Promise<{ appId: string; everyone: string; admins: string; twins: string }> | undefined;
const directoryConnection = () =>
  (connection ??= (async () => {
    const appId = (await admin.post<{ id: string }>('/api/apps', { name: 'Attack_I_Windows' })).body.data.id;
    const role = async (name: string) => (await admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name })).body.data.id;
    const [everyone, admins, twins] = [await role('Everyone'), await role('Admins'), await role('Twins')];
    const settings = openLdapSettings(slapd.url, slapd.caPem, {
      ...AD_ACCOUNTS,
      baseDn: `ou=people,${SUFFIX}`,
      netbiosDomain: 'ATTACKI',
      preset: 'activeDirectory',
      groupRoles: [
        { groupDn: `cn=Domain Users,ou=people,${SUFFIX}`, roleId: everyone },
        { groupDn: `cn=Domain Admins,ou=people,${SUFFIX}`, roleId: admins },
        { groupDn: `cn=Twin Mapped,ou=people,${SUFFIX}`, roleId: twins },
      ],
    });
    await saveConnection(admin, corpTenant, settings, undefined, 'attack-i-ad');
    return { appId, everyone, admins, twins };
  })());

test('primary groups from hostile objectSid/primaryGroupID: only the real domain member gets a mapped role, no sign-in or sync fails, and sign-in and sync agree', async () => {
  const { appId, everyone, admins, twins } = await directoryConnection();
  const holders = async (roleId: string) =>
    (await admin.get<{ username: string }[]>(`/api/apps/${appId}/roles/${roleId}/members`)).body.data.map((member) => member.username).sort();
  const people = ['plain', 'foreign', 'garbage', 'liar', 'longsid', 'hugegid', 'twin'];
  for (const uid of people) {
    const answer = await server.client().login(uid, `${uid}-pass-1`, { directoryPassword: `${uid}-pass-1` });
    assert.equal(answer.status, 200, `${uid}: ${JSON.stringify(answer.body)}`);
  }
  const atSignIn = { everyone: await holders(everyone), admins: await holders(admins), twins: await holders(twins) };
  assert.deepEqual(atSignIn.everyone, ['plain'], 'Domain Users: the one whose domain SID is this domain');
  assert.deepEqual(atSignIn.admins, [], 'Domain Admins: nobody (another domain, malformed or oversized SIDs)');
  const synced = await admin.post<LdapSyncReport>(`/api/tenants/${corpTenant}/ldap/sync`);
  assert.equal(synced.status, 200, JSON.stringify(synced.body));
  assert.equal(synced.body.data.outcome, 'success', JSON.stringify(synced.body.data));
  // The synchronisation also brings the directory's other people (burst, below): these ones compared.
  const ofThese = async (roleId: string) => (await holders(roleId)).filter((username) => people.includes(username));
  const afterSync = { everyone: await ofThese(everyone), admins: await ofThese(admins), twins: await ofThese(twins) };
  assert.deepEqual(afterSync, atSignIn, 'a synchronisation gives what the sign-ins gave');
});

test("8 parallel sign-ins of a directory person whose stored details differ from the directory's (each sign-in updates the row): every one signs in", async () => {
  const { everyone } = await directoryConnection();
  const signIn = () => server.client().login('burst', 'burst-pass-1', { directoryPassword: 'burst-pass-1' });
  const first = await signIn();
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const found = await admin.get<{ list: (User & { version: number })[] }>('/api/user?searchProp=username&searchValue=burst');
  const person = found.body.data.list.find((row) => row.username === 'burst')!;
  // The role the directory gave (at this sign-in or an earlier synchronisation) is recorded by id and name, and nothing of the connection with it.
  const given = (await auditSince(server, 0)).filter(
    (row) => row.action === 'user.update' && row.targetId === person.id && row.detail.includes('directory groups'),
  );
  assert.equal(given.length, 1, JSON.stringify(given));
  assert.deepEqual(JSON.parse(given[0]!.detail), { roles: { added: [{ id: everyone, name: 'Everyone' }], removed: [] }, from: 'directory groups' });
  // An administrator changed the person's name here: the next sign-in takes the directory's back.
  await ok(admin.put(`/api/user/${person.id}`, { realName: 'Renamed_Here', version: person.version }));
  const answers = await Promise.all(Array.from({ length: 8 }, signIn));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    answers.map(() => 200),
    JSON.stringify(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body.message)),
  );
});
