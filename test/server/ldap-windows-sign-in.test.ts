// Signing in as Windows taught people to, against a real slapd holding Active Directory-shaped
// entries (test/server/slapd.ts): `CORP\jdoe` (the connection's NetBIOS domain), `jdoe@corp.example`
// (userPrincipalName, also when its suffix is not the mail domain, and when it is someone's mail
// here), any letter case and spaces around; every spelling counts against one lockout; a domain
// or principal name never signs in as another directory's or tenant's person; filter syntax stays
// a value. And Active Directory's account states (disabled, expired, locked, password expired,
// must change password), refused after the right password with what to do in both languages,
// audited with the reason and never counted as a wrong password; a synchronisation disables here
// the disabled and expired ones only.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { personDn, personLdif, sidLdif, SUFFIX, type Person, type Slapd } from './slapd';
import { AD_ACCOUNTS, openLdapSettings, READER, saveConnection, startDirectory, directoryLoginPolicy } from './ldap-support';
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import type { LdapSettings, LdapSyncReport, LdapTestAnswer } from '../../src/core/schemas/ldap';
import { Status } from '../../src/core/enums';

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let corpTenant: string;
let corpSettings: LdapSettings;

/** A Windows FILETIME (100 ns steps since 1601) of a Unix time in ms. */
const filetime = (ms: number) => String((BigInt(ms) + 11_644_473_600_000n) * 10_000n);
const NORMAL = 512;
const DISABLED = 512 | 2;
const LOCKED = 512 | 0x10;
const PASSWORD_EXPIRED = 512 | 0x80_0000;
const DONT_EXPIRE_PASSWORD = 512 | 0x1_0000;

const DOMAIN_SID = 'S-1-5-21-1004336348-1177238915-682003330';
const ad = (uid: string, extra: Partial<NonNullable<Person['ad']>> = {}, mail = `${uid}@corp.example`): Person => ({
  uid,
  mail,
  password: `${uid}-pass-1`,
  ad: { userAccountControl: NORMAL, userPrincipalName: `${uid}@corp.example`, ...extra },
});
const PEOPLE: Person[] = [
  // The UPN suffix is not the mail domain.
  ad('jdoe', {}, 'john.doe@example.com'),
  ad('lee', {}, 'lee.smith@example.com'),
  ad('kim'),
  ad('max'),
  ad('ann'),
  ad('dis', { userAccountControl: DISABLED }),
  ad('exp', { accountExpires: filetime(Date.UTC(2020, 0, 1)) }),
  ad('lock', { userAccountControl: LOCKED }),
  ad('pwexp', { userAccountControl: PASSWORD_EXPIRED }),
  ad('fresh', { pwdLastSet: '0' }),
  // Signs in: the password never expires (so pwdLastSet 0 asks nothing), expiry never or later.
  ad('forever', { userAccountControl: DONT_EXPIRE_PASSWORD, pwdLastSet: '0' }),
  ad('never', { accountExpires: '9223372036854775807' }),
  ad('zero', { accountExpires: '0' }),
  ad('later', { accountExpires: filetime(Date.UTC(2200, 0, 1)) }),
  // In Domain Users (RID 513) only as their primary group, as Active Directory keeps every account:
  // neither the group's member nor their memberOf lists it. prim3's primary group is Domain Guests.
  ad('prim1', { objectSid: `${DOMAIN_SID}-1201`, primaryGroupID: 513 }),
  ad('prim2', { objectSid: `${DOMAIN_SID}-1202`, primaryGroupID: 513 }),
  ad('prim3', { objectSid: `${DOMAIN_SID}-1203`, primaryGroupID: 514 }),
];
/** Domain Users: a group of the domain by its SID, listing only kim as a member. */
const DOMAIN_USERS = `cn=Domain Users,ou=people,${SUFFIX}`;
const DOMAIN_USERS_LDIF = [
  `dn: ${DOMAIN_USERS}`,
  'objectClass: groupOfNames',
  'objectClass: adGroup',
  'cn: Domain Users',
  `member: ${personDn('kim')}`,
  sidLdif(`${DOMAIN_SID}-513`),
].join('\n');

/** Two accounts as Active Directory keeps them (objectClass user, objectCategory person): a person,
 *  and the built-in Administrator, a critical system object. */
const WINDOWS_ACCOUNTS_LDIF = [
  ['winuser', 'FALSE'],
  ['Administrator', 'TRUE'],
]
  .map(([uid, critical]) =>
    personLdif(ad(uid!)).replace(
      'objectClass: adAccount',
      `objectClass: adAccount\nobjectClass: user\nobjectCategory: person\nisCriticalSystemObject: ${critical}`,
    ),
  )
  .join('\n\n');

/** Another tenant's directory (an OU of its own) that holds a second `ann`, with the domain EVIL. */
const EVIL_OU = `ou=evil,${SUFFIX}`;
const EVIL_LDIF = [`dn: ${EVIL_OU}\nobjectClass: organizationalUnit\nou: evil`, personLdif(ad('ann')).replace(personDn('ann'), `uid=ann,${EVIL_OU}`)].join(
  '\n\n',
);

before(async () => {
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'] }),
    startDirectory({ ldif: [...PEOPLE.map(personLdif), DOMAIN_USERS_LDIF, WINDOWS_ACCOUNTS_LDIF, EVIL_LDIF].join('\n\n') }),
  ]);
  admin = await server.admin();
  corpTenant = (await createTenant(admin, 'CorpTenant')).id;
  const evilTenant = (await createTenant(admin, 'EvilTenant')).id;
  const adSettings = (baseDn: string, netbiosDomain: string) =>
    openLdapSettings(slapd.url, slapd.caPem, { ...AD_ACCOUNTS, baseDn, netbiosDomain, preset: 'activeDirectory' });
  corpSettings = adSettings(`ou=people,${SUFFIX}`, 'CORP');
  await saveConnection(admin, corpTenant, corpSettings, undefined, 'corp-ad');
  await saveConnection(admin, evilTenant, adSettings(EVIL_OU, 'EVIL'), undefined, 'evil-ad');
  await directoryLoginPolicy(admin);
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

const signIn = (username: string, password: string, headers?: Record<string, string>) =>
  server.client().login(username, password, { directoryPassword: password }, headers);

interface PersonHere {
  username: string;
  tenantId: string;
  availabilityStatus: number;
}
const personHere = async (username: string) =>
  (await admin.get<{ list: PersonHere[] }>(`/api/user?searchProp=username&searchValue=${encodeURIComponent(username)}`)).body.data.list.find(
    (row) => row.username === username,
  );

interface LoginFailure {
  detail: { username?: string; reason?: string; state?: string };
  targetName?: string;
}
const loginFailuresOf = async (username: string) =>
  (await admin.get<{ list: LoginFailure[] }>('/api/audit?action=login.failure&size=50')).body.data.list.filter((row) => row.detail.username === username);

test('CORP\\name signs in as the CORP connection person, in any letter case and with spaces around', async () => {
  const first = await signIn('CORP\\jdoe', 'jdoe-pass-1');
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const jdoe = await personHere('jdoe');
  assert.equal(jdoe?.tenantId, corpTenant, 'created as jdoe (not "CORP\\jdoe") in the connection tenant');
  for (const spelling of ['corp\\JDOE', '  CORP\\jdoe  ', 'Corp\\ jdoe', 'JDOE', 'jdoe']) {
    const again = await signIn(spelling, 'jdoe-pass-1');
    assert.equal(again.status, 200, `${spelling}: ${JSON.stringify(again.body)}`);
  }
  assert.equal((await admin.get<{ pager: { total: number } }>('/api/user?searchProp=username&searchValue=jdoe')).body.data.pager.total, 1);
});

test('name@suffix signs in by the userPrincipalName, also when its suffix is not the mail domain', async () => {
  // lee is nobody here yet: the first sign-in finds the entry by its principal name.
  const first = await signIn('lee@corp.example', 'lee-pass-1');
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal((await personHere('lee'))?.tenantId, corpTenant);
  for (const spelling of ['LEE@CORP.EXAMPLE', ' Lee@Corp.Example ', 'lee']) assert.equal((await signIn(spelling, 'lee-pass-1')).status, 200, spelling);
  // jdoe (created by his CORP\ name) by his principal name, which is not his mail.
  assert.equal((await signIn('jdoe@corp.example', 'jdoe-pass-1')).status, 200);
});

test("a principal name that is the person's own mail here signs in too", async () => {
  assert.equal((await signIn('max', 'max-pass-1')).status, 200);
  const byUpn = await signIn('max@corp.example', 'max-pass-1');
  assert.equal(byUpn.status, 200, JSON.stringify(byUpn.body));
});

test('every spelling of one person counts against one lockout', async () => {
  assert.equal((await signIn('kim', 'kim-pass-1')).status, 200);
  assert.equal((await signIn('kim', 'wrong-1')).status, 401);
  assert.equal((await signIn('CORP\\KIM', 'wrong-2')).status, 401);
  assert.equal((await signIn('kim@corp.example', 'wrong-3')).status, 429, 'the third failure of kim, whatever the spelling, locks');
  for (const spelling of ['Kim', 'corp\\kim', 'KIM@CORP.EXAMPLE']) assert.equal((await signIn(spelling, 'kim-pass-1')).status, 429, spelling);
});

test("a domain or principal name never signs in as another directory's or tenant's person", async () => {
  // jdoe is CORP's: EVIL's directory (which a tenant administrator controls) never checks him.
  for (const [name, password] of [
    ['EVIL\\jdoe', 'jdoe-pass-1'],
    ['NOPE\\jdoe', 'jdoe-pass-1'],
    ['\\jdoe', 'jdoe-pass-1'],
    ['CORP\\', 'jdoe-pass-1'],
    ['CORP\\EVIL\\jdoe', 'jdoe-pass-1'],
    // ann is in both directories: by either domain the password goes to neither, nobody is created.
    ['CORP\\ann', 'ann-pass-1'],
    ['EVIL\\ann', 'ann-pass-1'],
    ['ann@corp.example', 'ann-pass-1'],
  ]) {
    const answer = await signIn(name!, password!);
    assert.equal(answer.status, 401, `${name}: ${JSON.stringify(answer.body)}`);
  }
  assert.equal(await personHere('ann'), undefined);
  const refused = await loginFailuresOf('EVIL\\jdoe');
  assert.equal(refused[0]?.detail.reason, 'directory_other_domain', JSON.stringify(refused));
});

test('filter syntax in a domain or principal name is a value, not a filter', async () => {
  for (const name of ['CORP\\*', 'CORP\\j*', 'CORP\\jdoe)(uid=*', '*@corp.example', 'j*@corp.example', 'x@y)(|(sAMAccountName=*', 'CORP\\jdoe\\2a']) {
    const answer = await signIn(name, 'jdoe-pass-1');
    assert.ok(answer.status === 401 || answer.status === 400, `${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
});

const STATES = [
  ['dis', 'disabled', /disabled: ask your administrator/, /已停用/],
  ['exp', 'accountExpired', /expired: ask your administrator to extend it/, /已过期/],
  ['lock', 'locked', /locked/, /已锁定/],
  ['pwexp', 'passwordExpired', /change your password in Windows first/, /先在 Windows 中修改密码/],
  ['fresh', 'mustChangePassword', /change your password in Windows first/, /先在 Windows 中修改密码/],
] as const;

test('Active Directory account states are refused after the right password, with what to do, audited, never counted', async () => {
  for (const [uid, state, english, chinese] of STATES) {
    // Four tries (maxFailures is 3): none counts, so none locks.
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await signIn(uid, `${uid}-pass-1`);
      assert.equal(answer.status, 403, `${uid}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body.message, english, uid);
    }
    const zh = await signIn(`CORP\\${uid}`, `${uid}-pass-1`, { 'accept-language': 'zh-CN' });
    assert.equal(zh.status, 403);
    assert.match(zh.body.message, chinese, uid);
    const [failure] = await loginFailuresOf(uid);
    assert.deepEqual([failure?.detail.reason, failure?.detail.state], ['directory_account_state', state], `${uid}: ${JSON.stringify(failure)}`);
    // A wrong password tells nothing of the state, and counts.
    const wrong = await signIn(uid, 'not-the-password');
    assert.equal(wrong.status, 401, uid);
    assert.equal(wrong.body.message, 'Invalid username or password');
    // Nobody is created for an account that cannot sign in yet.
    assert.equal(await personHere(uid), undefined, uid);
  }
  // Once the password is changed in Windows, the person signs in: the refusals above locked nothing.
  await slapd.modify(`dn: ${personDn('pwexp')}\nchangetype: modify\nreplace: userAccountControl\nuserAccountControl: ${NORMAL}\n`);
  assert.equal((await signIn('pwexp', 'pwexp-pass-1')).status, 200);
});

test('a linked person whose account was disabled in Windows since is refused with the reason and disabled here', async () => {
  await slapd.modify(`dn: ${personDn('pwexp')}\nchangetype: modify\nreplace: userAccountControl\nuserAccountControl: ${DISABLED}\n`);
  const answer = await signIn('pwexp@corp.example', 'pwexp-pass-1');
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.match(answer.body.message, /disabled/);
  assert.equal((await personHere('pwexp'))?.availabilityStatus, Status.Disabled, 'disabled here as a synchronisation would');
});

test('a password that never expires, and an expiry never or later, sign in', async () => {
  for (const uid of ['forever', 'never', 'zero', 'later']) {
    const answer = await signIn(uid, `${uid}-pass-1`);
    assert.equal(answer.status, 200, `${uid}: ${JSON.stringify(answer.body)}`);
  }
});

test('a synchronisation disables here the disabled and expired accounts only', async () => {
  const synced = await admin.post<LdapSyncReport>(`/api/tenants/${corpTenant}/ldap/sync`);
  assert.equal(synced.body.data.outcome, 'success', JSON.stringify(synced.body.data));
  const status = async (uid: string) => (await personHere(uid))?.availabilityStatus;
  assert.deepEqual(
    await Promise.all(['dis', 'exp', 'lock', 'fresh', 'later', 'forever'].map(status)),
    [Status.Disabled, Status.Disabled, Status.Enable, Status.Enable, Status.Enable, Status.Enable],
    "disabled: dis, exp; the others stay enabled (their states are the person's to clear in Windows)",
  );
});

test("Active Directory's primary group (Domain Users, listed in no member or memberOf) gives its mapped role at sign-in and synchronisation", async () => {
  const appId = (await admin.post<{ id: string }>('/api/apps', { name: 'Windows_App' })).body.data.id;
  const roleId = (await admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Everyone' })).body.data.id;
  await saveConnection(admin, corpTenant, { ...corpSettings, groupRoles: [{ groupDn: DOMAIN_USERS, roleId }] }, undefined, 'corp-ad');
  const holders = async () =>
    (await admin.get<{ username: string }[]>(`/api/apps/${appId}/roles/${roleId}/members`)).body.data.map((member) => member.username).sort();
  assert.equal((await signIn('prim1', 'prim1-pass-1')).status, 200);
  assert.deepEqual(await holders(), ['prim1'], 'a sign-in finds the primary group by its SID');
  const synced = await admin.post<LdapSyncReport>(`/api/tenants/${corpTenant}/ldap/sync`);
  assert.equal(synced.body.data.outcome, 'success', JSON.stringify(synced.body.data));
  assert.deepEqual(
    await holders(),
    ['kim', 'prim1', 'prim2'],
    'a synchronisation: the member and the two whose primary group it is, not prim3 (Domain Guests)',
  );
});

test("the Active Directory preset's user filter finds people, not the domain's built-in Administrator", async () => {
  const tenantId = (await createTenant(admin, 'PresetTenant')).id;
  const { userFilter } = LDAP_PRESET_SETTINGS.activeDirectory;
  const saved = await admin.put(`/api/tenants/${tenantId}/ldap`, {
    name: 'preset-ad',
    enabled: true,
    firstSignIn: false,
    settings: { ...corpSettings, userFilter, netbiosDomain: 'PRESET' },
    bindSecret: READER.secret,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const tested = await admin.post<LdapTestAnswer>(`/api/tenants/${tenantId}/ldap/test`);
  assert.equal(tested.body.data.ok, true, JSON.stringify(tested.body.data));
  assert.equal(tested.body.data.found, 1, 'winuser only');
});
