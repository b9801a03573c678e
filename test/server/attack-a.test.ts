// Outside attack A (server side): removals and revocations under races, every change with exactly
// one audit record, SCIM as Okta and Entra ID send it in bursts. Each test asserts the behaviour a
// real IAM product promises; a failing test is a finding.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastAuditId, ok, startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { auditSince, type AuditRow } from './audit-rows';
import { GROUP_SCHEMA, PATCH_SCHEMA, assertScimError, createTenant, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';
import { SoftwareAuthenticator } from './software-authenticator';
import { openLdapSettings, READER, recordingRelay, startDirectory } from './ldap-support';
import { SUFFIX } from './slapd';
import { RelyingParty } from './oidc-rp';
import { withAuthenticator } from './sign-in-support';
import { useRecoveryCode } from '../../server/auth/recovery-codes';
import { rotateClientSecret, storedClientSecret } from '../../server/oidc/clients';
import { oidcDb } from '../../server/oidc/tables';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { arrivesWhileHeld, startTarpit, startWebhookReceiver, until, type WebhookReceiver } from './receivers';

const BURST = 8;
const RP_ID = 'localhost';
const PAGE = 'http://localhost:5173';

let server: TestServer;
let admin: Client;
let second: Client;
let scim: Scim;
let serial = 0;

before(async () => {
  server = await startServer({ outboundAllowPrivate: true, webauthn: { rpId: RP_ID, origins: [PAGE] } });
  admin = await server.admin();
  second = await server.admin();
  ({ scim } = await provisionedTenant(server, admin, 'Attack_A_Scim'));
});
after(async () => {
  await server.stop();
});

const brief = (rows: AuditRow[]) =>
  JSON.stringify(rows.map(({ action, actorName, targetType, targetId, detail }) => ({ action, actorName, targetType, targetId, detail })));

/** The same call sent BURST times at once, from two administrators' sessions. */
const burst = <T extends { status: number }>(call: (client: Client) => Promise<T>) =>
  Promise.all(Array.from({ length: BURST }, (_, at) => call(at % 2 ? second : admin)));
const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status).join(',');

/** One removal of one thing: one success, the others 404, and ONE record of it. */
function assertRemovedOnce(answers: { status: number }[], records: AuditRow[], what: string, success = 200, refusals = [404]) {
  assert.equal(records.length, 1, `${what}: ${records.length} audit records of one removal (answers ${statuses(answers)}): ${brief(records)}`);
  assert.equal(answers.filter((answer) => answer.status === success).length, 1, `${what}: answers ${statuses(answers)}`);
  assert.ok(
    answers.every((answer) => answer.status === success || refusals.includes(answer.status)),
    `${what}: answers ${statuses(answers)}`,
  );
}

const newApp = (label: string) => ok(admin.post<{ id: string }>('/api/apps', { name: `${label}_${++serial}`, entrypoint: `/attack-${serial}` }));

describe(`a burst of ${BURST} removals of one thing (kinds not covered before)`, () => {
  test('DELETE /api/channels/{id}: one 200, one channel.delete record', async () => {
    const channel = await ok(
      admin.post<{ id: string }>('/api/channels', {
        name: `Removal channel ${++serial}`,
        serviceType: 'EMAIL',
        vendor: 'smtp',
        config: { host: '127.0.0.1', port: '9', security: 'none', username: 'u', password: 'p', from: 'iam@example.com' },
      }),
    );
    const since = await lastAuditId(server);
    const answers = await burst((client) => client.delete(`/api/channels/${channel.id}`));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.action === 'channel.delete'),
      'channel',
    );
  });

  test('DELETE /api/tenants/{id}/ldap: one 200, one record of the removed directory connection', async () => {
    const tenant = await createTenant(admin, `Removal_Ldap_${++serial}`);
    await ok(
      admin.put(`/api/tenants/${tenant.id}/ldap`, {
        name: 'removal-directory',
        enabled: false,
        settings: openLdapSettings('ldap://127.0.0.1:9', '', { startTls: false }),
        bindSecret: READER.secret,
      }),
    );
    const since = await lastAuditId(server);
    const answers = await burst((client) => client.delete(`/api/tenants/${tenant.id}/ldap`));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.targetType === 'ldap_connection'),
      'directory connection',
    );
  });

  test('DELETE /api/apps/{id}/saml-provider: one 200, one record of the removed service provider', async () => {
    const app = await newApp('Removal_Saml');
    await ok(
      admin.put(`/api/apps/${app.id}/saml-provider`, {
        entityId: `https://sp.example.test/removal-${serial}`,
        acsUrls: [{ url: `http://127.0.0.1:9/removal-${serial}/acs`, binding: 'HTTP-POST', index: 0 }],
      }),
    );
    const provider = { appId: app.id };
    const since = await lastAuditId(server);
    const answers = await burst((client) => client.delete(`/api/apps/${provider.appId}/saml-provider`));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.targetId === provider.appId),
      'SAML service provider',
    );
  });

  test('DELETE /api/apps/{id}/saml-provider of an app that has none: 404, and no record of a removal that removed nothing', async () => {
    const app = await newApp('No_Saml');
    const since = await lastAuditId(server);
    const answer = await admin.delete(`/api/apps/${app.id}/saml-provider`);
    const records = await auditSince(server, since);
    assert.deepEqual(records, [], `an app that never was a service provider: answered ${answer.status}, recorded ${brief(records)}`);
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
  });

  test('DELETE /api/idps/{code}: one 200, one record', async () => {
    const code = `gone${++serial}`;
    await ok(admin.post('/api/idps', { code, name: `Gone ${serial}`, type: 'OIDC', config: { issuer: 'https://sso.example.com', clientSecret: 'hidden' } }));
    const since = await lastAuditId(server);
    const answers = await burst((client) => client.delete(`/api/idps/${code}`));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.targetId === code),
      'identity provider',
    );
  });

  test('DELETE /api/apps/{appId}/privileges/{id}: one 200, one privilege.delete record', async () => {
    const app = await newApp('Removal_Privileges');
    const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/privileges`, { name: `Removal_Privilege`, key: `removal.${serial}` }));
    const since = await lastAuditId(server);
    const answers = await burst((client) => client.delete(`/api/apps/${app.id}/privileges/${privilege.id}`));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.action === 'privilege.delete'),
      'privilege',
    );
  });

  test('DELETE /api/user/passkeys/{id} (with the password): one 200, one passkey.delete record', async () => {
    const username = `removal-passkey-${++serial}`;
    const password = 'Passkey-user-1';
    await ok(admin.post('/api/user', { username, realName: 'Removal_Passkey', password: transform(password) }));
    const browser = server.client();
    assert.equal((await browser.login(username, password)).body.data?.loginSuccess, true);
    const authenticator = new SoftwareAuthenticator(PAGE, RP_ID);
    const options = await ok(browser.post<Parameters<SoftwareAuthenticator['create']>[0]>('/api/user/passkeys/options', { password: transform(password) }));
    const passkey = await ok(browser.post<{ id: string }>('/api/user/passkeys', { name: 'Laptop', credential: authenticator.create(options) }));
    const since = await lastAuditId(server);
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => browser.request('DELETE', `/api/user/passkeys/${passkey.id}`, { password: transform(password) })),
    );
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.action === 'passkey.delete'),
      'passkey',
      200,
      // The re-check holds at most five places in the sign-in failure count at once (429 beyond).
      [404, 429],
    );
  });

  test('SCIM DELETE /Users/{id}: one 204, one user.delete record', async () => {
    const user = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: `scim_gone_${++serial}`, name: { formatted: 'Scim_Gone' } });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const since = await lastAuditId(server);
    const answers = await Promise.all(Array.from({ length: BURST }, () => scim('DELETE', `/Users/${user.body.id}`)));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.action === 'user.delete'),
      'SCIM user',
      204,
    );
  });

  test('SCIM DELETE /Groups/{id}: one 204, one tenant.delete record', async () => {
    const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: `Scim_Gone_Group_${++serial}` });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const since = await lastAuditId(server);
    const answers = await Promise.all(Array.from({ length: BURST }, () => scim('DELETE', `/Groups/${group.body.id}`)));
    assertRemovedOnce(
      answers,
      (await auditSince(server, since)).filter((row) => row.action === 'tenant.delete'),
      'SCIM group',
      204,
    );
  });
});

describe(`a burst of ${BURST} first saves of what an app or tenant has one of`, () => {
  test('PUT /api/apps/{id}/saml-provider on an app without one: every answer 200 or 4xx, never 500; one provider', async () => {
    const app = await newApp('Burst_Saml');
    const answers = await burst((client) =>
      client.put(`/api/apps/${app.id}/saml-provider`, {
        entityId: `https://sp.example.test/burst-${serial}`,
        acsUrls: [{ url: `http://127.0.0.1:9/burst-${serial}/acs`, binding: 'HTTP-POST', index: 0 }],
      }),
    );
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `answers ${statuses(answers)}: ${JSON.stringify(answers.find((answer) => answer.status >= 500)?.body)}`,
    );
    const rows = await server.app.ctx.db.selectFrom('samlServiceProviders').select('appId').where('appId', '=', app.id).execute();
    assert.equal(rows.length, 1);
  });

  test('PUT /api/tenants/{id}/ldap on a tenant without a connection: every answer 200 or 4xx, never 500; one connection', async () => {
    const tenant = await createTenant(admin, `Burst_Ldap_${++serial}`);
    const answers = await burst((client) =>
      client.put(`/api/tenants/${tenant.id}/ldap`, {
        name: 'burst-directory',
        enabled: false,
        settings: openLdapSettings('ldap://127.0.0.1:9', '', { startTls: false }),
        bindSecret: READER.secret,
      }),
    );
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `answers ${statuses(answers)}: ${JSON.stringify(answers.find((answer) => answer.status >= 500)?.body)}`,
    );
    const rows = await server.app.ctx.db.selectFrom('ldapConnections').select('id').where('tenantId', '=', tenant.id).execute();
    assert.equal(rows.length, 1);
  });
});

/** A tenant administrator of `tenantId`, signed in. */
async function tenantAdministrator(tenantId: string): Promise<Client> {
  const username = `attack-boss-${++serial}`;
  await ok(admin.post('/api/user', { username, realName: 'Attack_Boss', password: transform(PASSWORD), tenantId, isAdmin: true }), username);
  const client = server.client();
  assert.equal((await client.login(username, PASSWORD)).body.data?.loginSuccess, true);
  return client;
}
const PASSWORD = 'Attack-pass-1';

/** An SMTP relay that takes `delayMs` to accept each mail (as a real relay does, with its checks),
 *  keeping the recipients of each mail in the order they arrived. */
async function startSlowSmtp(delayMs: number) {
  const arrived: string[][] = [];
  const relay = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () =>
        setTimeout(() => {
          arrived.push(session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        }, delayMs),
      );
    },
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.server.address() as AddressInfo).port,
    arrived,
    stop: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

describe('the outbox lanes: one tenant cannot hold up what others wait for', () => {
  test("a tenant administrator's bulk e-mail through the platform's channel does not queue another tenant's password-reset code behind all of it", async () => {
    const relay = await startSlowSmtp(40);
    const channel = await ok(
      admin.post<{ id: string }>('/api/channels', {
        name: `Bulk relay ${++serial}`,
        serviceType: 'EMAIL',
        vendor: 'smtp',
        config: { host: '127.0.0.1', port: String(relay.port), security: 'none', from: 'iam@example.com' },
      }),
    );
    try {
      const tenant = await createTenant(admin, `Bulk_Sender_${serial}`);
      const boss = await tenantAdministrator(tenant.id);
      for (let at = 0; at < 4; at++) {
        await ok(
          admin.post('/api/user', {
            username: `bulk-member-${serial}-${at}`,
            realName: 'Bulk_Member',
            password: transform(PASSWORD),
            email: `bulk-${serial}-${at}@example.com`,
            tenantId: tenant.id,
          }),
        );
      }
      // Six newsletters to the tenant's four people with an address: 24 mails queued.
      let queued = 0;
      for (let at = 0; at < 6; at++) {
        queued += (
          await ok(boss.post<{ count: number }>('/api/messages', { title: `News ${at}`, content: 'Hello', tenantId: tenant.id, channelId: channel.id }))
        ).count;
      }
      const victim = `reset-victim-${serial}@example.com`;
      await ok(admin.post('/api/user', { username: `reset-victim-${serial}`, realName: 'Reset_Victim', password: transform(PASSWORD), email: victim }));
      assert.equal((await server.client().post('/api/user/password/reset-code', { identifier: victim })).status, 200);
      const before = relay.arrived.length;
      await until(() => relay.arrived.some((to) => to.includes(victim)), 'the reset code', 15_000);
      const ahead = relay.arrived.findIndex((to) => to.includes(victim));
      assert.ok(
        ahead < queued,
        `the reset code went out after all ${ahead} of the other tenant's ${queued} newsletter mails (${before} had gone when it was asked for): a person waiting for a code waits behind any tenant's bulk mail`,
      );
    } finally {
      await ok(admin.delete(`/api/channels/${channel.id}`));
      await relay.stop();
    }
  });

  test("an app whose back-channel logout receiver accepts and hangs does not hold up another app's logout tokens", async () => {
    const tarpit = await startTarpit();
    const receiver: WebhookReceiver = await startWebhookReceiver();
    try {
      const hanging = await RelyingParty.register(server, admin, `Hanging_Logout_${++serial}`);
      const victim = await RelyingParty.register(server, admin, `Victim_Logout_${serial}`);
      await ok(admin.put(`/api/apps/${hanging.appId}/oidc-client`, { backchannelLogoutUri: `${tarpit.url}/logout` }));
      const victimPath = `/logout-${serial}`;
      await ok(admin.put(`/api/apps/${victim.appId}/oidc-client`, { backchannelLogoutUri: `${receiver.url}${victimPath}` }));
      const signedIn = async (app: RelyingParty, label: string) => {
        const username = `${label}-${++serial}`;
        await ok(admin.post('/api/user', { username, realName: 'Logout_Person', password: transform(PASSWORD) }));
        const browser = server.client();
        assert.equal((await browser.login(username, PASSWORD)).body.data?.loginSuccess, true);
        await app.signIn(browser);
        return browser;
      };
      // Signed in beforehand: the victim's sign-out follows the hanging posts closely, well within their 5 s.
      const browser = await signedIn(victim, 'victim-logout');
      // Three people of the hanging app sign out: three logout tokens for a receiver that never answers.
      for (const hung of await Promise.all([0, 1, 2].map(() => signedIn(hanging, 'hang-logout'))))
        assert.equal((await hung.get('/api/cas/logout')).status, 200);
      await until(() => tarpit.held.length >= 1, 'a logout token reaches the hanging receiver');
      assert.equal((await browser.get('/api/cas/logout')).status, 200);
      await arrivesWhileHeld(
        tarpit,
        () => receiver.posts.find((post) => post.path === victimPath),
        "the victim app's logout token",
        "its person's sign-out waits behind the hanging app's receivers (5 s each, one after the other)",
      );
    } finally {
      await tarpit.stop();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });

  test("a tenant administrator's endpoints spread over sub-tenants they create do not take every webhook post slot: a platform endpoint still gets its events", async () => {
    const tarpit = await startTarpit();
    const receiver: WebhookReceiver = await startWebhookReceiver();
    try {
      const tenant = await createTenant(admin, `Hook_Spread_${++serial}`);
      const boss = await tenantAdministrator(tenant.id);
      // A chain of sub-tenants the administrator makes: each is an "owner" of its own four posts.
      const owners = [tenant.id];
      for (let depth = 1; depth < 4; depth++) {
        const made = await boss.post<{ id: string }>('/api/tenants', { parentId: owners.at(-1), name: `Hook_Spread_${serial}_${depth}`, type: 'department' });
        assert.equal(made.status, 200, `a tenant administrator makes a sub-tenant: ${JSON.stringify(made.body)}`);
        owners.push(made.body.data.id);
      }
      for (const owner of owners) {
        for (let at = 1; at <= 4; at++) {
          await ok(boss.post('/api/webhooks', { url: `${tarpit.url}/${owner}/${at}`, events: ['user.created'], tenantId: owner }), `endpoint ${at}`);
        }
      }
      await ok(admin.post('/api/webhooks', { url: `${receiver.url}/platform-${serial}`, events: ['user.created'] }), 'platform endpoint');
      // One person in the deepest sub-tenant: an event for all sixteen endpoints (every ancestor's).
      await ok(boss.post('/api/user', { username: `hook-spread-${serial}`, realName: 'Hook_Spread', password: transform(PASSWORD), tenantId: owners.at(-1) }));
      // Their subtree's share: four posts under way at once, however many sub-tenants hold the endpoints.
      await until(() => tarpit.held.length >= 4, 'posts reach the tarpit');
      const other = await ok(
        admin.post<{ id: string }>('/api/user', { username: `hook-other-${serial}`, realName: 'Hook_Other', password: transform(PASSWORD) }),
      );
      await arrivesWhileHeld(
        tarpit,
        () => receiver.posts.find((post) => post.body.includes(other.id)),
        `the platform delivery about ${other.id}`,
        `the posts hanging on one tenant administrator's endpoints (${owners.length} sub-tenants of four each) took the process's sixteen`,
      );
      assert.equal(tarpit.held.length, 4, "posts under way to one tenant administrator's subtree");
    } finally {
      await tarpit.stop();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });
});

const person = (label: string, extra: Record<string, unknown> = {}) =>
  ok(
    admin.post<{ id: string; username: string }>('/api/user', {
      username: `${label}-${++serial}`,
      realName: 'Attack_Person',
      password: transform(PASSWORD),
      ...extra,
    }),
  );

/** The records written since `since` that name `id` (as their target or anywhere in their detail). */
const naming = (rows: AuditRow[], id: string) => rows.filter((row) => row.targetId === id || row.detail.includes(id));

describe('a grant of rights is recorded with whom it went to and what it granted', () => {
  test('PUT /api/apps/{appId}/roles/{id}/members: a record names the person who now holds the role', async () => {
    const app = await newApp('Grant_Members');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Grant_Role_${serial}` }));
    const member = await person('role-member');
    const since = await lastAuditId(server);
    await ok(admin.put(`/api/apps/${app.id}/roles/${role.id}/members`, { userIds: [member.id] }));
    const records = await auditSince(server, since);
    assert.ok(naming(records, member.id).length > 0, `no record names ${member.id}, who was given the role: ${brief(records)}`);
  });

  test('PUT /api/tenants/{id}/admins: a record names the person made administrator of the tenant', async () => {
    const tenant = await createTenant(admin, `Grant_Admins_${++serial}`);
    const member = await person('tenant-admin', { tenantId: tenant.id });
    const since = await lastAuditId(server);
    await ok(admin.put(`/api/tenants/${tenant.id}/admins`, { userIds: [member.id] }));
    const records = await auditSince(server, since);
    assert.ok(naming(records, member.id).length > 0, `no record names ${member.id}, who now administers the tenant: ${brief(records)}`);
  });

  test("PUT /api/user/{id}/roles/{appId}: the person's record names the roles granted", async () => {
    const app = await newApp('Grant_User_Roles');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Grant_User_Role_${serial}` }));
    const member = await person('user-roles');
    const since = await lastAuditId(server);
    await ok(admin.put(`/api/user/${member.id}/roles/${app.id}`, { roleIds: [role.id] }));
    const records = await auditSince(server, since);
    assert.ok(naming(records, role.id).length > 0, `no record names the role ${role.id} granted to ${member.id}: ${brief(records)}`);
  });

  test("PUT /api/apps/{appId}/roles/{id}/privileges: the role's record names the privileges granted", async () => {
    const app = await newApp('Grant_Privileges');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Grant_Privilege_Role_${serial}` }));
    const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/privileges`, { name: 'Grant_Privilege', key: `grant.${serial}` }));
    const since = await lastAuditId(server);
    await ok(admin.put(`/api/apps/${app.id}/roles/${role.id}/privileges`, { privilegeIds: [privilege.id] }));
    const records = await auditSince(server, since);
    assert.ok(naming(records, privilege.id).length > 0, `no record names the privilege ${privilege.id} given to the role: ${brief(records)}`);
  });
});

describe("a change of a person's addresses (where their reset codes go) is recorded with what changed", () => {
  test("PUT /api/user/{id}/basic_info by an administrator moving someone's e-mail and phone: the record names the fields changed", async () => {
    const member = await person('basic-info', { email: `basic-${serial}@example.com`, mobilePhone: `1390000${String(serial).padStart(4, '0')}` });
    const since = await lastAuditId(server);
    const moved = await admin.put(`/api/user/${member.id}/basic_info`, {
      realName: 'Attack_Person',
      email: `taken-over-${serial}@example.com`,
      mobilePhone: `1370000${String(serial).padStart(4, '0')}`,
      currentPassword: transform('Admin123!'),
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const stored = await server.app.ctx.db.selectFrom('users').select(['email', 'mobilePhone']).where('id', '=', member.id).executeTakeFirstOrThrow();
    assert.equal(stored.email, `taken-over-${serial}@example.com`, 'the administrator set the address at once');
    const records = naming(await auditSince(server, since), member.id);
    const detail = records.map((row) => row.detail).join(' ');
    assert.ok(
      detail.includes('email') && detail.includes('mobilePhone'),
      `the person's e-mail and phone were changed, and the record says only ${brief(records)}`,
    );
  });
});

describe('a change of who vouches for sign-ins is recorded with what changed', () => {
  test('PUT /api/idps/{code} pointing a provider at another issuer: the record names the changed issuer (and never the client secret)', async () => {
    const code = `moved${++serial}`;
    await ok(
      admin.post('/api/idps', {
        code,
        name: 'Corp SSO',
        type: 'OIDC',
        config: { issuer: 'https://sso.example.com', clientId: 'corp', clientSecret: 'first-secret-1' },
      }),
    );
    const since = await lastAuditId(server);
    await ok(admin.put(`/api/idps/${code}`, { config: { issuer: 'https://attacker.example.net', clientSecret: 'second-secret-2' } }));
    const records = naming(await auditSince(server, since), code);
    const text = JSON.stringify(records);
    assert.ok(!text.includes('second-secret-2') && !text.includes('first-secret-1'), `a client secret in the audit log: ${text}`);
    assert.ok(
      text.includes('issuer'),
      `the provider now trusts another issuer (every linked account signs in through it), and the record says only ${brief(records)}`,
    );
  });
});

describe('two secret rotations at once (a double click on "Generate secret", two administrators)', () => {
  // Over HTTP the two requests may or may not overlap (on SQLite one usually reads after the other
  // committed: two rotations in a row, the first secret replaced by design); here both read the
  // same stored secret before either writes, as overlapping requests do.
  test('two rotations that read the same secret: the one that loses the race is refused, and the winner authenticates the app', async () => {
    const app = await RelyingParty.register(server, admin, `Rotate_Twice_${++serial}`);
    await ok(admin.put(`/api/apps/${app.appId}/oidc-client`, { clientCredentials: true }));
    const db = oidcDb(server.app.ctx.db);
    const seen = await storedClientSecret(db, app.appId);
    // Either may reach the row first (two connections on PostgreSQL): one wins, the other is refused.
    const results = await Promise.all([0, 1].map(() => rotateClientSecret(db, app.appId, Date.now(), seen)));
    const first = results.find((result) => typeof result === 'object');
    assert.ok(first, `no rotation won: ${JSON.stringify(results)}`);
    assert.ok(results.includes('raced'), `the losing rotation replaced a secret its caller never saw: ${JSON.stringify(results)}`);
    const response = await fetch(app.as.token_endpoint!, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${app.appId}:${first.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200, await response.text());
  });

  test('POST /api/apps/{id}/oidc-client/secret twice at once: every answer 200 or 409, never 500', async () => {
    const app = await RelyingParty.register(server, admin, `Rotate_Burst_${++serial}`);
    const answers = await Promise.all([admin, second].map((client) => client.post(`/api/apps/${app.appId}/oidc-client/secret`)));
    assert.ok(
      answers.some((answer) => answer.status === 200) && answers.every((answer) => answer.status === 200 || answer.status === 409),
      `answers ${statuses(answers)}`,
    );
  });
});

describe('two sets of recovery codes asked for at once (a double click on "New codes")', () => {
  test('POST /api/user/recovery-codes twice at once: every set answered 200 works (or the second is refused)', async () => {
    const username = `recovery-twice-${++serial}`;
    const created = await ok(admin.post<{ id: string }>('/api/user', { username, realName: 'Recovery_Twice', password: transform(PASSWORD) }));
    const browser = server.client();
    assert.equal((await browser.login(username, PASSWORD)).body.data?.loginSuccess, true);
    await withAuthenticator(server, browser, PASSWORD);
    const answers = await Promise.all([0, 1].map(() => browser.post<{ codes: string[] }>('/api/user/recovery-codes', { password: transform(PASSWORD) })));
    const shown = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.data.codes);
    assert.ok(shown.length >= 1, `answers ${statuses(answers)}`);
    for (const codes of shown) {
      assert.equal(
        await useRecoveryCode(server.app.ctx, created.id, codes[0]!),
        true,
        `a set of recovery codes was answered 200 (answers ${statuses(answers)}) and none of it works: the person saved codes that will not open their account`,
      );
    }
  });
});

describe('a refused change leaves no record claiming success', () => {
  test('POST /api/user/bulk where every user is refused (404): no user.bulk record claims the action was done', async () => {
    const missing = ['00000000-0000-4000-8000-00000000aaa1', '00000000-0000-4000-8000-00000000aaa2'];
    const since = await lastAuditId(server);
    const answer = await ok(admin.post<{ results: { ok: boolean; status: number }[] }>('/api/user/bulk', { action: 'delete', ids: missing }));
    assert.deepEqual(
      answer.results.map((result) => result.status),
      [404, 404],
    );
    const claims = (await auditSince(server, since)).filter((row) => row.success === 1);
    assert.deepEqual(
      claims.map((row) => ({ action: row.action, detail: JSON.parse(row.detail) as unknown })),
      [],
      'nobody was deleted, yet a successful bulk deletion of two users is recorded',
    );
  });
});

describe(`a burst of ${BURST} creates of one unique name`, () => {
  test('POST /api/apps with one name: one app, the others 4xx, never 500', async () => {
    const name = `Burst_App_Name_${++serial}`;
    const answers = await burst((client) => client.post('/api/apps', { name, entrypoint: '/burst-name' }));
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `answers ${statuses(answers)}`,
    );
  });

  test('POST /api/idps with one code: one provider, the others 4xx, never 500', async () => {
    const code = `burst${++serial}`;
    const answers = await burst((client) => client.post('/api/idps', { code, name: 'Burst', type: 'OIDC', config: { issuer: 'https://sso.example.com' } }));
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `answers ${statuses(answers)}`,
    );
  });

  test('PUT /api/apps/{id}/saml-provider of two apps with one entity ID at once: one is saved, the other refused 400 (the entity ID is taken), never 500', async () => {
    const apps = [await newApp('Burst_Entity'), await newApp('Burst_Entity')];
    const entityId = `https://sp.example.test/same-${serial}`;
    const answers = await Promise.all(
      apps.map((app, at) =>
        (at ? second : admin).put(`/api/apps/${app.id}/saml-provider`, {
          entityId,
          acsUrls: [{ url: `http://127.0.0.1:9/same-${at}/acs`, binding: 'HTTP-POST', index: 0 }],
        }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status).sort(),
      [200, 400],
      `answers ${statuses(answers)}: ${JSON.stringify(answers.map((answer) => answer.body))}`,
    );
    assert.deepEqual(answers.find((answer) => answer.status === 400)!.body.data, {
      fields: [{ field: 'entityId', rule: 'rule.samlEntityIdTaken' }],
    });
    const rows = await server.app.ctx.db.selectFrom('samlServiceProviders').select('appId').where('entityId', '=', entityId).execute();
    assert.deepEqual(
      rows.map((row) => row.appId),
      [apps[answers.findIndex((answer) => answer.status === 200)]!.id],
    );
  });

  test('POST /api/apps/{appId}/privileges with one key: never 500', async () => {
    const app = await newApp('Burst_Key');
    const answers = await burst((client) => client.post(`/api/apps/${app.id}/privileges`, { name: 'Burst_Key', key: `burst.key${serial}` }));
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `answers ${statuses(answers)}`,
    );
  });
});

describe(`a burst of ${BURST} identical saves of a list (a double click on Save, a client's retry)`, () => {
  const assertNo500 = (answers: Answer[], what: string) =>
    assert.ok(
      answers.every((answer) => answer.status < 500),
      `${what}: answers ${statuses(answers)}: ${JSON.stringify(answers.find((answer) => answer.status >= 500)?.body)}`,
    );

  test('PUT /api/apps/{appId}/roles/{id}/members: never 500, the members are the list', async () => {
    const app = await newApp('Burst_Members');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Burst_Role_${serial}` }));
    const member = await person('burst-member');
    assertNo500(await burst((client) => client.put(`/api/apps/${app.id}/roles/${role.id}/members`, { userIds: [member.id] })), 'role members');
  });

  test('PUT /api/apps/{id}/admins: never 500', async () => {
    const app = await newApp('Burst_App_Admins');
    const member = await person('burst-app-admin');
    assertNo500(await burst((client) => client.put(`/api/apps/${app.id}/admins`, { userIds: [member.id] })), 'app administrators');
  });

  test('PUT /api/user/{id}/roles/{appId}: never 500', async () => {
    const app = await newApp('Burst_User_Roles');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Burst_User_Role_${serial}` }));
    const member = await person('burst-user-roles');
    assertNo500(await burst((client) => client.put(`/api/user/${member.id}/roles/${app.id}`, { roleIds: [role.id] })), "a person's roles");
  });

  test('PUT /api/apps/{appId}/roles/{id}/privileges: never 500', async () => {
    const app = await newApp('Burst_Privileges');
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Burst_Privilege_Role_${serial}` }));
    const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/privileges`, { name: 'Burst_Privilege', key: `burst.${serial}` }));
    assertNo500(await burst((client) => client.put(`/api/apps/${app.id}/roles/${role.id}/privileges`, { privilegeIds: [privilege.id] })), 'role privileges');
  });
});

describe('SCIM user PATCHes as Entra ID and Okta send them', () => {
  const newScimUser = async (label: string) => {
    const user = await scim<{ id: string }>('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: `${label}_${++serial}`,
      displayName: 'Old_Name',
      name: { formatted: 'Old_Name', givenName: 'Old', familyName: 'Name' },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    return user.body.id;
  };

  test("Entra's `Replace` of displayName (its default mapping of the display name): answered 200, and the new name is kept", async () => {
    const id = await newScimUser('entra_rename');
    const patched = await scim<{ displayName?: string }>('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'New_Name' }],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const stored = await scim<{ displayName?: string; name?: { formatted?: string } }>('GET', `/Users/${id}`);
    assert.equal(
      stored.body.displayName,
      'New_Name',
      `the PATCH was answered ${patched.status} (displayName ${patched.body.displayName}) and the name is still ${stored.body.displayName}`,
    );
  });

  test(`four PATCHes at once to one user, each changing another attribute (a client's workers): each answered 200 is kept, none refused for a version it never sent`, async () => {
    const id = await newScimUser('parallel_patch');
    const operations = [
      { op: 'replace', path: 'active', value: false },
      { op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '13900001111' },
      { op: 'replace', path: 'emails[type eq "work"].value', value: `parallel-${serial}@example.com` },
      { op: 'replace', path: 'externalId', value: `ext-${serial}` },
    ];
    const answers = await Promise.all(operations.map((operation) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH_SCHEMA], Operations: [operation] })));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      operations.map(() => 200),
      `answers ${statuses(answers)}: ${JSON.stringify(answers.find((answer) => answer.status !== 200)?.body)}`,
    );
    const stored = await scim<{ active?: boolean; phoneNumbers?: { value: string }[]; emails?: { value: string }[]; externalId?: string }>(
      'GET',
      `/Users/${id}`,
    );
    assert.deepEqual(
      [stored.body.active, stored.body.phoneNumbers?.[0]?.value, stored.body.emails?.[0]?.value, stored.body.externalId],
      [false, '13900001111', `parallel-${serial}@example.com`, `ext-${serial}`],
    );
  });

  test('a page asked for with a huge count or startIndex: an answer (capped), never a 5xx', async () => {
    for (const query of ['count=2147483648', 'count=99999999999999999999', 'startIndex=9007199254740993', 'startIndex=-5&count=-1', 'count=1e3', 'count=%00']) {
      const listed = await scim<{ Resources?: unknown[]; itemsPerPage?: number }>('GET', `/Users?${query}`);
      assert.ok(listed.status < 500, `${query}: ${listed.status} ${JSON.stringify(listed.body)}`);
    }
  });
});

describe('SCIM group PATCHes as Okta pushes them (one PATCH per membership change, several at once)', () => {
  const newMember = async () => {
    const user = await scim<{ id: string }>('POST', '/Users', { schemas: [USER_SCHEMA], userName: `okta_member_${++serial}`, displayName: 'Okta_Member' });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    return user.body.id;
  };
  const newGroup = async (members: string[] = []) => {
    const group = await scim<{ id: string }>('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: `Okta_Push_Group_${++serial}`,
      members: members.map((value) => ({ value })),
    });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    return group.body.id;
  };
  const membersOf = async (groupId: string) =>
    ((await scim<{ members?: { value: string }[] }>('GET', `/Groups/${groupId}`)).body.members ?? []).map((member) => member.value).sort();
  const patchGroup = (groupId: string, operation: Record<string, unknown>) =>
    scim('PATCH', `/Groups/${groupId}`, { schemas: [PATCH_SCHEMA], Operations: [operation] });

  test('PATCHes of one group at once, each adding or removing another member: each answered 204 is kept', async () => {
    const [staying, leaving] = [await newMember(), await newMember()];
    const joining = await Promise.all(Array.from({ length: BURST }, newMember));
    const groupId = await newGroup([staying, leaving]);
    const operations = [
      { op: 'remove', path: `members[value eq "${leaving}"]` },
      ...joining.map((id) => ({ op: 'add', path: 'members', value: [{ value: id }] })),
    ];
    // Sent as a client's workers send them, each a moment after the one before (a round trip of a
    // read): one arrives while another is being written.
    const sent: Promise<{ status: number; body: unknown }>[] = [];
    for (const operation of operations) {
      sent.push(patchGroup(groupId, operation));
      await scim('GET', `/Groups/${groupId}`);
    }
    const answers = await Promise.all(sent);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      operations.map(() => 204),
      `answers ${statuses(answers)}: ${JSON.stringify(answers.find((answer) => answer.status !== 204)?.body)}`,
    );
    assert.deepEqual(await membersOf(groupId), [staying, ...joining].sort());
  });

  test("two groups' PATCHes adding one person at once: one is kept, the other is refused 409 uniqueness (a person is in one group), never both answered 204", async () => {
    const person = await newMember();
    const groupIds = [await newGroup(), await newGroup()];
    const answers = await Promise.all(groupIds.map((groupId) => patchGroup(groupId, { op: 'add', path: 'members', value: [{ value: person }] })));
    assert.deepEqual(
      answers.map((answer) => answer.status).sort(),
      [204, 409],
      `answers ${statuses(answers)}: ${JSON.stringify(answers.map((answer) => answer.body))}`,
    );
    const refused = answers.find((answer) => answer.status === 409)!;
    assertScimError(refused, 409, 'uniqueness');
    const kept = groupIds[answers.findIndex((answer) => answer.status === 204)];
    assert.deepEqual(
      await Promise.all(groupIds.map(membersOf)),
      groupIds.map((groupId) => (groupId === kept ? [person] : [])),
    );
  });
});

/** A port nothing listens on (a directory down for maintenance). */
async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('LDAP first sign-in while a directory cannot be asked', () => {
  test("a person's first sign-in while their tenant's directory is down does not hand their password to another tenant's directory that claims the name", async () => {
    const ROGUE = `ou=rogue,${SUFFIX}`;
    const slapd = await startDirectory({
      ldif: [
        `dn: ${ROGUE}\nobjectClass: organizationalUnit\nou: rogue`,
        [`dn: uid=nadia,${ROGUE}`, 'objectClass: inetOrgPerson', 'uid: nadia', 'cn: nadia', 'sn: nadia', 'userPassword: rogue-chosen-1'].join('\n'),
      ].join('\n\n'),
    });
    const relay = await recordingRelay(slapd.port);
    const rogue = await createTenant(admin, `Rogue_Dir_${++serial}`);
    const victim = await createTenant(admin, `Victim_Dir_${serial}`);
    const rogueBoss = await tenantAdministrator(rogue.id);
    const save = (client: Client, tenantId: string, url: string, baseDn: string, enabled = true, firstSignIn?: boolean) =>
      ok(
        client.put(`/api/tenants/${tenantId}/ldap`, {
          name: `dir-${tenantId.slice(0, 8)}`,
          enabled,
          ...(firstSignIn === undefined ? {} : { firstSignIn }),
          settings: openLdapSettings(url, '', { startTls: false, baseDn }),
          bindSecret: READER.secret,
        }),
      );
    try {
      await save(rogueBoss, rogue.id, `ldap://127.0.0.1:${relay.port}`, ROGUE);
      // The platform administrator lets both directories take part in first sign-ins (one it did
      // not allow is not asked at all), the rogue tenant's among them.
      await save(admin, rogue.id, `ldap://127.0.0.1:${relay.port}`, ROGUE, true, true);
      // The victim tenant's directory (which holds nadia) is down for maintenance right now.
      await save(admin, victim.id, `ldap://127.0.0.1:${await closedPort()}`, `ou=people,${SUFFIX}`, true, true);
      const answer = await server.client().login('nadia', 'Nadia-Own-Pass-1', { directoryPassword: 'Nadia-Own-Pass-1' });
      assert.equal(
        relay.sent().includes(Buffer.from('Nadia-Own-Pass-1')),
        false,
        `nadia's password was sent to the rogue tenant's directory while her own tenant's directory could not be asked (answered ${answer.status}): a directory that cannot be asked is counted as not holding the name`,
      );
    } finally {
      await save(admin, rogue.id, `ldap://127.0.0.1:${relay.port}`, ROGUE, false).catch(() => undefined);
      await save(admin, victim.id, `ldap://127.0.0.1:9`, `ou=people,${SUFFIX}`, false).catch(() => undefined);
      await relay.close();
      await slapd.destroy();
    }
  });
});
