// Outside attack E: the audit trail as an auditor reads it, and a company's directory (Debian's
// slapd shaped like Active Directory: sAMAccountName, userAccountControl, memberOf, nested groups)
// as it changes between synchronisations. Each test asserts what a real IAM product promises; a
// failing one is a finding (see the report of attack E).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auditSince as auditRowsSince, type AuditRow } from './audit-rows';
import { lastAuditId, startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { GROUPS, groupLdif, personDn, personLdif, type Slapd } from './slapd';
import { AD_ACCOUNTS, openLdapSettings, READER, saveConnection, startDirectory } from './ldap-support';
import type { LdapSettings, LdapSyncReport } from '../../src/core/schemas/ldap';
import type { LoginSettings } from '../../src/core/schemas/settings';
import type { Versioned } from '../../server/settings';

const STAFF = `cn=staff,${GROUPS}`;
const ENGINEERING = `cn=engineering,${GROUPS}`;

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let tenantId: string;
let appId: string;
let staffRole: string;
let settings: LdapSettings;

const auditSince = (id: number) => auditRowsSince(server, id);

const summary = (rows: AuditRow[]) =>
  JSON.stringify(rows.map(({ action, actorName, targetType, success, detail }) => ({ action, actorName, targetType, success, detail })));

const usersNamed = (realName: string) =>
  server.app.ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'availabilityStatus'])
    .where('realName', '=', realName)
    .where('tenantId', '=', tenantId)
    .execute();

const directoryLogin = (username: string, password: string) => server.client().login(username, password, { directoryPassword: password });

async function sync(): Promise<LdapSyncReport> {
  const answer = await admin.post<LdapSyncReport>(`/api/tenants/${tenantId}/ldap/sync`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body).slice(0, 500));
  return answer.body.data;
}

const roleHolders = async () => {
  const members = await admin.get<{ username: string }[]>(`/api/apps/${appId}/roles/${staffRole}/members`);
  assert.equal(members.status, 200, JSON.stringify(members.body));
  return members.body.data.map((member) => member.username).sort();
};

function directoryLdif(): string {
  const person = (uid: string, cn: string, memberOf: string[] = []) =>
    personLdif({ uid, cn, mail: `${uid}@corp.example`, password: `${uid}-pass`, ad: { userAccountControl: 512, memberOf } });
  return [
    person('erin', 'Erin_Renamed'),
    person('nora', 'Nora_Nested', [ENGINEERING]),
    person('dana', 'Dana_Direct', [STAFF]),
    person('gus', 'Gus_Leaver', [STAFF]),
    person('mona', 'Mona_Mover'),
    // Active Directory's nesting: engineering is a member of staff.
    groupLdif('engineering', [personDn('nora')]),
    groupLdif('staff', [personDn('dana'), personDn('gus'), ENGINEERING]),
  ].join('\n\n');
}

before(async () => {
  [server, slapd] = await Promise.all([startServer({ outboundAllow: ['127.0.0.1'] }), startDirectory({ ldif: directoryLdif() })]);
  admin = await server.admin();
  tenantId = (await createTenant(admin, 'Corp_AD')).id;
  appId = (await admin.post<{ id: string }>('/api/apps', { name: 'Corp_App' })).body.data.id;
  staffRole = (await admin.post<{ id: string }>(`/api/apps/${appId}/roles`, { name: 'Staff' })).body.data.id;
  settings = openLdapSettings(slapd.url, slapd.caPem, {
    ...AD_ACCOUNTS,
    groupRoles: [{ groupDn: STAFF, roleId: staffRole }],
  });
  await saveConnection(admin, tenantId, settings);
  await sync();
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

describe('a company directory between synchronisations', () => {
  test('a person renamed in the directory (same entry, new sAMAccountName) signs in with the new name as the same person after the next sync', async () => {
    const [before] = await usersNamed('Erin_Renamed');
    assert.ok(before, 'the first sync created erin');
    const first = await directoryLogin('erin', 'erin-pass');
    assert.equal(first.body.data?.loginSuccess, true, `erin signs in before the rename: ${first.status} ${JSON.stringify(first.body)}`);
    await slapd.modify(`dn: ${personDn('erin')}\nchangetype: modify\nreplace: sAMAccountName\nsAMAccountName: erin_new\n`);
    const report = await sync();
    const signIn = await directoryLogin('erin_new', 'erin-pass');
    const oldName = await directoryLogin('erin', 'erin-pass');
    assert.notEqual(signIn.status, 500, `a renamed person's sign-in answers 500: ${JSON.stringify(signIn.body)}`);
    assert.equal(
      signIn.body.data?.loginSuccess,
      true,
      `the renamed person cannot sign in with the new name (${signIn.status} ${JSON.stringify(signIn.body)}), nor the old (${oldName.status}); the sync said ${JSON.stringify(report.summary)}; here: ${JSON.stringify(await usersNamed('Erin_Renamed'))}`,
    );
    const accounts = await usersNamed('Erin_Renamed');
    assert.deepEqual(
      accounts.map((row) => [row.id, row.username]),
      [[before.id, 'erin_new']],
      'one directory entry is one account here, named as the directory names it',
    );
  });

  test('a person moved in the directory (new DN, same entry and sign-in name) still signs in before and after the next sync', async () => {
    const first = await directoryLogin('mona', 'mona-pass');
    assert.equal(first.body.data?.loginSuccess, true, `mona signs in before the move: ${first.status} ${JSON.stringify(first.body)}`);
    await slapd.modify(`dn: ${personDn('mona')}\nchangetype: modrdn\nnewrdn: uid=mona.moved\ndeleteoldrdn: 1\n`);
    const before = await directoryLogin('mona', 'mona-pass');
    const report = await sync();
    const after = await directoryLogin('mona', 'mona-pass');
    const said = `before the sync ${before.status} ${JSON.stringify(before.body)}; after it ${after.status} ${JSON.stringify(after.body)}; the sync: ${JSON.stringify(report.summary)}`;
    assert.equal(before.body.data?.loginSuccess, true, said);
    assert.equal(after.body.data?.loginSuccess, true, said);
    assert.equal((await usersNamed('Mona_Mover')).length, 1);
  });

  test("holds: a sAMAccountName given to someone new (the old entry deleted) does not open the old person's account", async () => {
    const [old] = await usersNamed('Mona_Mover');
    assert.ok(old);
    const newcomer = personLdif({ uid: 'mona.rehired', cn: 'Someone_Else', password: 'newcomer-pass', ad: { userAccountControl: 512 } }).replace(
      'sAMAccountName: mona.rehired',
      'sAMAccountName: mona',
    );
    await slapd.modify(`dn: ${personDn('mona.moved')}\nchangetype: delete\n\n${newcomer.replace(/^(dn: .*)$/m, '$1\nchangetype: add')}\n`);
    const signIn = await directoryLogin('mona', 'newcomer-pass');
    assert.notEqual(signIn.body.data?.loginSuccess, true, "the newcomer signed in to the old person's account");
    assert.equal(signIn.status, 401, JSON.stringify(signIn.body));
  });

  test("a person in a group nested in a mapped group (Active Directory's nesting) is given the mapped role", async () => {
    await sync();
    const holders = await roleHolders();
    assert.ok(holders.includes('dana'), `the direct member holds the role: ${JSON.stringify(holders)}`);
    assert.ok(holders.includes('nora'), `nora is in engineering, a member of staff, and does not hold staff's role: ${JSON.stringify(holders)}`);
  });
});

describe('rights a sign-in brings in step', () => {
  test("a person taken out of a mapped group in the directory no longer holds the group's role once they sign in (the sign-in brings them in step with the entry)", async () => {
    assert.ok((await roleHolders()).includes('gus'), 'the first sync gave gus the role');
    await slapd.modify(
      `dn: ${personDn('gus')}\nchangetype: modify\ndelete: memberOf\n\ndn: ${STAFF}\nchangetype: modify\ndelete: member\nmember: ${personDn('gus')}\n`,
    );
    const signIn = await directoryLogin('gus', 'gus-pass');
    assert.equal(signIn.body.data?.loginSuccess, true, JSON.stringify(signIn.body));
    assert.ok(!(await roleHolders()).includes('gus'), "gus left the staff group in the directory, signed in, and still holds staff's role here");
  });
});

describe('first sign-in in a burst', () => {
  test('12 sign-ins at once of a directory person new here: no 5xx, one account, one user.create record, and the right password is never counted as a failure nor locks the person out', async () => {
    // Hired after the last synchronisation.
    await slapd.modify(
      `${personLdif({ uid: 'pat', cn: 'Pat_Parallel', mail: 'pat@corp.example', password: 'pat-pass', ad: { userAccountControl: 512 } })}\nchangetype: add\n`
        .replace(/^(dn: .*)$/m, '$1\nchangetype: add')
        .replace(/\nchangetype: add\n$/, '\n'),
    );
    const since = await lastAuditId(server);
    const answers = await Promise.all(Array.from({ length: 12 }, () => directoryLogin('pat', 'pat-pass')));
    const statuses = answers.map((answer) => `${answer.status}:${answer.body.data?.loginSuccess === true ? 'in' : answer.body.message}`);
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `a first sign-in answered 5xx: ${statuses.join(', ')}`,
    );
    const accounts = await usersNamed('Pat_Parallel');
    assert.equal(accounts.length, 1, `${JSON.stringify(accounts)} ${statuses.join(', ')}`);
    const rows = await auditSince(since);
    const created = rows.filter((row) => row.action === 'user.create');
    assert.equal(created.length, 1, summary(created));
    const later = await directoryLogin('pat', 'pat-pass');
    assert.equal(
      later.body.data?.loginSuccess,
      true,
      `after the burst the person is shut out with the right password: ${later.status} ${JSON.stringify(later.body)} (the burst: ${statuses.join(', ')})`,
    );
    const failures = rows.filter((row) => row.action === 'login.failure' || row.action === 'login.locked');
    assert.deepEqual(
      failures.map((row) => row.action),
      [],
      `the right password was counted as failures while the account was being created: ${statuses.join(', ')}`,
    );
  });
});

describe('group mappings as administrators type them', () => {
  test('a group DN typed with spaces after its commas (as Active Directory tools show DNs) is the same group', async () => {
    const spaced: LdapSettings = { ...settings, groupRoles: [{ groupDn: STAFF.replace(/,/g, ', '), roleId: staffRole }] };
    const saved = await admin.put(`/api/tenants/${tenantId}/ldap`, {
      name: 'corp-directory',
      enabled: true,
      firstSignIn: true,
      settings: spaced,
      bindSecret: READER.secret,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    try {
      await sync();
      assert.ok((await roleHolders()).includes('dana'), `the mapping "${spaced.groupRoles[0]!.groupDn}" does not match the group ${STAFF}: dana lost the role`);
    } finally {
      const restored = await admin.put(`/api/tenants/${tenantId}/ldap`, {
        name: 'corp-directory',
        enabled: true,
        firstSignIn: true,
        settings,
        bindSecret: READER.secret,
      });
      assert.equal(restored.status, 200, `the directory's own settings back for the next tests: ${JSON.stringify(restored.body)}`);
      await sync();
    }
  });
});

describe('what the audit log records of the directory', () => {
  test('a connection save names the settings it changed (TLS turned off, a group mapped to a role, local passwords), old → new', async () => {
    const since = await lastAuditId(server);
    const changed: LdapSettings = {
      ...settings,
      startTls: false,
      allowLocalPasswords: false,
      groupRoles: [...settings.groupRoles, { groupDn: ENGINEERING, roleId: staffRole }],
    };
    const saved = await admin.put(`/api/tenants/${tenantId}/ldap`, {
      name: 'corp-directory',
      enabled: true,
      firstSignIn: true,
      settings: changed,
      bindSecret: READER.secret,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    // Put back for the other tests.
    assert.equal(
      (await admin.put(`/api/tenants/${tenantId}/ldap`, { name: 'corp-directory', enabled: true, firstSignIn: true, settings, bindSecret: READER.secret }))
        .status,
      200,
    );
    const [record] = (await auditSince(since)).filter((row) => row.targetType === 'ldap_connection');
    assert.ok(record, 'the save is recorded');
    for (const setting of ['startTls', 'allowLocalPasswords', 'groupRoles'])
      assert.ok(record.detail.includes(setting), `the record of the save does not name the changed setting ${setting}: ${record.detail}`);
  });

  test('"Synchronise now" is recorded naming the administrator who ran it (the changes it makes name the directory)', async () => {
    const since = await lastAuditId(server);
    await sync();
    const rows = await auditSince(since);
    assert.ok(
      rows.some((row) => row.actorName === 'admin' && row.tenantId === tenantId),
      `no record says that admin ran the synchronisation: ${summary(rows)}`,
    );
  });

  test('holds: a sync names the directory as the actor and the changed fields of each person (a new e-mail, a disabled account)', async () => {
    await slapd.modify(
      `dn: ${personDn('dana')}\nchangetype: modify\nreplace: mail\nmail: dana.new@corp.example\n-\nreplace: userAccountControl\nuserAccountControl: 514\n`,
    );
    const since = await lastAuditId(server);
    await sync();
    const [dana] = await usersNamed('Dana_Direct');
    const rows = (await auditSince(since)).filter((row) => row.targetId === dana!.id && row.action === 'user.update');
    assert.ok(
      rows.some((row) => row.detail.includes('email') && row.detail.includes('dana.new@corp.example')),
      summary(rows),
    );
    assert.ok(
      rows.some((row) => row.detail.includes('availabilityStatus')),
      summary(rows),
    );
    assert.ok(
      rows.every((row) => row.tenantId === tenantId && row.actorName),
      summary(rows),
    );
  });
});

describe('no secret in the audit log', () => {
  test('holds: after secret-bearing changes, neither the stored records, their webhook payloads, nor the CSV export hold a secret', async () => {
    const secrets: Record<string, string> = {};
    const password = 'Auditable-Pass-9';
    const person = await admin.post<{ id: string }>('/api/user', {
      username: 'secret-auditee',
      realName: 'Secret_Auditee',
      password: transform(password),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    secrets['new user password (as sent)'] = transform(password);
    const webhook = await admin.post<{ id: string; secret: string }>('/api/webhooks', {
      url: 'http://127.0.0.1:9/in/path-secret-771',
      events: ['user.updated'],
    });
    assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
    secrets['webhook secret'] = webhook.body.data.secret;
    secrets['webhook URL path'] = 'path-secret-771';
    const rotated = await admin.post<{ secret: string }>(`/api/webhooks/${webhook.body.data.id}/secret`);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    secrets['rotated webhook secret'] = rotated.body.data.secret;
    const reset = transform('Reset-By-Admin-7');
    const resetAnswer = await admin.post(`/api/user/${person.body.data.id}/password`, {
      id: person.body.data.id,
      password: reset,
      opUserPassword: transform('Admin123!'),
    });
    assert.equal(resetAnswer.status, 200, JSON.stringify(resetAnswer.body));
    secrets['reset password (as sent)'] = reset;
    const token = await admin.post<{ secret: string }>('/api/scim-tokens', { tenantId, name: 'Okta push', currentPassword: transform('Admin123!') });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    secrets['SCIM token'] = token.body.data.secret;
    const bind = 'new-bind-secret-4242';
    assert.equal(
      (await admin.put(`/api/tenants/${tenantId}/ldap`, { name: 'corp-directory', enabled: true, firstSignIn: true, settings, bindSecret: bind })).status,
      200,
    );
    secrets['LDAP bind secret'] = bind;
    const clientSecret = await admin.post<{ clientSecret: string }>(`/api/apps/${appId}/oidc-client/secret`);
    assert.equal(clientSecret.status, 200, JSON.stringify(clientSecret.body));
    secrets['OIDC client secret'] = clientSecret.body.data.clientSecret;
    const idp = await admin.post('/api/idps', {
      code: 'auditcorp',
      name: 'Audit SSO',
      type: 'OIDC',
      config: { issuer: 'https://sso.example.com', clientId: 'iam', clientSecret: 'idp-secret-audit-5150' },
    });
    assert.equal(idp.status, 200, JSON.stringify(idp.body));
    secrets['IdP client secret'] = 'idp-secret-audit-5150';
    const channel = await admin.post('/api/channels', {
      name: 'Audit relay',
      serviceType: 'EMAIL',
      vendor: 'smtp',
      config: { host: '127.0.0.1', port: '2525', security: 'none', username: 'mailer', password: 'smtp-secret-audit-31', from: 'iam@example.com' },
    });
    assert.equal(channel.status, 200, JSON.stringify(channel.body));
    secrets['SMTP password'] = 'smtp-secret-audit-31';

    const rows = await server.app.ctx.db.selectFrom('auditLog').selectAll().execute();
    const deliveries = JSON.stringify(await server.app.ctx.db.selectFrom('webhookDeliveries').selectAll().execute());
    const exported = await (await admin.raw('GET', '/api/audit/export')).text();
    const leaks = Object.entries(secrets).flatMap(([what, value]) =>
      [
        ['audit rows', JSON.stringify(rows)],
        ['webhook deliveries', deliveries],
        ['CSV export', exported],
      ]
        .filter(([, text]) => text!.includes(value))
        .map(([where]) => `${what} in ${where}`),
    );
    assert.deepEqual(leaks, []);
  });
});

describe("a person's history in the audit log", () => {
  test("rights given to a tenant's person from the app's pages (a role's members, the app's administrators) are in that person's history and their tenant's log", async () => {
    const person = await admin.post<{ id: string }>('/api/user', {
      username: 'granted-one',
      realName: 'Granted_One',
      password: transform('Granted-1x'),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const id = person.body.data.id;
    assert.equal((await admin.put(`/api/apps/${appId}/roles/${staffRole}/members`, { userIds: [...(await roleIds()), id] })).status, 200);
    assert.equal((await admin.put(`/api/apps/${appId}/admins`, { userIds: [id] })).status, 200);
    const history = await admin.get<{ list: AuditRow[] }>(`/api/audit?target=${id}&size=50`);
    assert.equal(history.status, 200, JSON.stringify(history.body));
    const tenantLog = await admin.get<{ list: AuditRow[] }>(`/api/audit?tenantId=${tenantId}&size=100`);
    const about = (rows: AuditRow[]) => rows.filter((row) => row.action !== 'user.create');
    assert.ok(
      about(history.body.data.list).length >= 2,
      `the person's history (the log filtered to them) shows neither the role nor the app given to them: ${summary(history.body.data.list)}`,
    );
    assert.ok(
      tenantLog.body.data.list.some((row) => (row.targetId === id || JSON.stringify(row.detail).includes(id)) && row.action !== 'user.create'),
      "their tenant's log (what its administrator reads) does not show the rights given to its person",
    );
  });
});

const roleIds = async () => {
  const members = await admin.get<{ id: string }[]>(`/api/apps/${appId}/roles/${staffRole}/members`);
  return members.body.data.map((member) => member.id);
};

describe("a tenant's log when its person leaves", () => {
  test("moving a person to another tenant is in the log of the tenant they left (its administrator's view), not only in the one they joined", async () => {
    const [left, joined] = [await createTenant(admin, 'Left_Co'), await createTenant(admin, 'Joined_Co')];
    const person = await admin.post<{ id: string; version: number }>('/api/user', {
      username: 'moving-one',
      realName: 'Moving_One',
      password: transform('Moving-1x'),
      tenantId: left.id,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const moved = await admin.put(`/api/user/${person.body.data.id}`, { tenantId: joined.id, version: person.body.data.version });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const leftLog = await admin.get<{ list: AuditRow[] }>(`/api/audit?tenantId=${left.id}&target=${person.body.data.id}&size=50`);
    assert.equal(leftLog.status, 200, JSON.stringify(leftLog.body));
    assert.ok(
      leftLog.body.data.list.some((row) => row.action === 'user.update'),
      `the log of the tenant the person left shows only: ${summary(leftLog.body.data.list)}`,
    );
  });
});

describe('bursts of one write', () => {
  test('holds: 12 edits of one person at once with the same version: one acknowledged, one user.update record', async () => {
    const person = await admin.post<{ id: string; version: number }>('/api/user', {
      username: 'burst-edit',
      realName: 'Burst_Edit',
      password: transform('Burst-1x'),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const since = await lastAuditId(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => admin.put(`/api/user/${person.body.data.id}`, { description: `edit ${n}`, version: person.body.data.version })),
    );
    const acknowledged = answers.filter((answer) => answer.status === 200).length;
    const records = (await auditSince(since)).filter((row) => row.action === 'user.update' && row.targetId === person.body.data.id);
    assert.equal(acknowledged, 1, answers.map((answer) => answer.status).join(','));
    assert.equal(records.length, acknowledged, summary(records));
  });

  test('holds: 12 saves of the login settings at once with the same version: one acknowledged, one settings.update record', async () => {
    const current = await admin.get<Versioned<LoginSettings>>('/api/settings/login');
    const since = await lastAuditId(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        admin.put('/api/settings/login', { version: current.body.data.version, fieldRules: n % 2 ? 'international' : 'default' }),
      ),
    );
    const acknowledged = answers.filter((answer) => answer.status === 200).length;
    const records = (await auditSince(since)).filter((row) => row.action === 'settings.update');
    assert.equal(acknowledged, 1, answers.map((answer) => `${answer.status} ${answer.body.message}`).join(','));
    const now = await admin.get<{ version: number }>('/api/settings/login');
    const restored = await admin.put<Versioned<LoginSettings>>('/api/settings/login', {
      version: now.body.data.version,
      fieldRules: current.body.data.value.fieldRules,
    });
    assert.equal(restored.body.data.value.fieldRules, current.body.data.value.fieldRules, 'the field rules are back as they were for the tests after this one');
    assert.ok(records.length <= acknowledged, summary(records));
  });
});

describe("a tenant's log of its people's sign-ins", () => {
  test("a lockout of a tenant's person (five wrong passwords) is one login.locked record in that tenant's log, naming the person", async () => {
    const person = await admin.post<{ id: string }>('/api/user', {
      username: 'locked-one',
      realName: 'Locked_One',
      password: transform('Locked-1x'),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const policy = await admin.get<Versioned<LoginSettings>>('/api/settings/login');
    const noCaptcha = await admin.put<{ version: number }>('/api/settings/login', { version: policy.body.data.version, captchaAfterFailures: 0 });
    assert.equal(noCaptcha.status, 200, JSON.stringify(noCaptcha.body));
    const since = await lastAuditId(server);
    const browser = server.client();
    for (let n = 0; n < 5; n++) await browser.login('locked-one', `wrong-${n}`);
    const restored = await admin.get<{ version: number }>('/api/settings/login');
    await admin.put('/api/settings/login', { version: restored.body.data.version, captchaAfterFailures: policy.body.data.value.captchaAfterFailures });
    const locked = (await auditSince(since)).filter((row) => row.action === 'login.locked');
    assert.equal(locked.length, 1, summary(locked));
    const tenantLog = await admin.get<{ list: AuditRow[] }>(`/api/audit?tenantId=${tenantId}&action=login.locked&size=50`);
    assert.equal(tenantLog.status, 200, JSON.stringify(tenantLog.body));
    assert.ok(
      tenantLog.body.data.list.some((row) => row.targetId === person.body.data.id),
      `the lockout of the tenant's person is not in the tenant's log (its administrator, who unlocks people, does not see it): ${summary(locked)}`,
    );
  });
});

describe('refused security actions leave a record of the attempt', () => {
  test("wrong codes typed to reset a person's password (forgot password) are recorded as failed, naming the person", async () => {
    const person = await admin.post<{ id: string }>('/api/user', {
      username: 'reset-target',
      realName: 'Reset_Target',
      email: 'reset-target@corp.example',
      password: transform('Reset-1x'),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const since = await lastAuditId(server);
    for (const code of ['000000', '111111', '222222']) {
      const answer = await server.client().put('/api/user/password', { identifier: 'reset-target@corp.example', code, password: transform('Taken-Over-9') });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
    }
    const rows = await auditSince(since);
    assert.ok(
      rows.some((row) => row.success === 0 && (row.targetId === person.body.data.id || row.detail.includes('reset-target'))),
      `three wrong reset codes for the person left no record: ${summary(rows)}`,
    );
  });
});

describe("a tenant's log of bulk actions on its people", () => {
  test("a platform administrator's bulk disable of a tenant's person shows in that tenant's log as the screen lists it (top-level events)", async () => {
    const person = await admin.post<{ id: string }>('/api/user', {
      username: 'bulk-target',
      realName: 'Bulk_Target',
      password: transform('Bulk-1x'),
      tenantId,
    });
    assert.equal(person.status, 200, JSON.stringify(person.body));
    const bulk = await admin.post('/api/user/bulk', { action: 'disable', ids: [person.body.data.id] });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    const tenantLog = await admin.get<{ list: AuditRow[] }>(`/api/audit?tenantId=${tenantId}&size=100`);
    assert.ok(
      tenantLog.body.data.list.some((row) => row.action === 'user.bulk' || (row.action === 'user.update' && row.targetId === person.body.data.id)),
      `the tenant's log (its first page, as its administrator's screen lists it) shows nothing of the bulk disable of its person: ${summary(tenantLog.body.data.list.slice(0, 5))}`,
    );
  });
});
