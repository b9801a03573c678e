// The auditor's question, "show me the record of every change", asked of the changes that are made
// outside the console's own forms: a SCIM client's externalId (Entra ID's "Replace"), a person
// verifying their email address, a person's consent to an OpenID Connect app, a console session the
// consent page ends, a message deleted from an inbox. Each test makes the change through the public
// API as its real caller, checks that the change is stored, and asks for an audit record written
// with it that names the actor and the target.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastAuditId, startServer, signedInPerson, transform, type Client, type TestServer } from './harness';
import type { User } from '../../src/core/types';
import { GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';
import { startSmtp, until, type SmtpReceiver } from './receivers';
import { RelyingParty } from './oidc-rp';
import { ServiceProvider } from './saml-support';
import { auditSince, type AuditRow } from './audit-rows';

const SMTP = { user: 'mailer', password: 'smtp-pass-42' };

let server: TestServer;
let admin: Client;
let smtp: SmtpReceiver;
let scim: Scim;
let serial = 0;

before(async () => {
  [server, smtp] = await Promise.all([startServer({ outboundAllowPrivate: true }), startSmtp(SMTP.user, SMTP.password)]);
  admin = await server.admin();
  ({ scim } = await provisionedTenant(server, admin, 'Audit_Scim_Co'));
  const channel = await admin.post('/api/channels', {
    name: 'Audit mail',
    serviceType: 'EMAIL',
    vendor: 'smtp',
    config: { host: '127.0.0.1', port: String(smtp.port), security: 'none', username: SMTP.user, password: SMTP.password, from: 'iam@example.com' },
  });
  assert.equal(channel.status, 200, JSON.stringify(channel.body));
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop()]);
});

function assertRecorded(rows: AuditRow[], what: string, matches: (row: AuditRow) => boolean) {
  assert.ok(
    rows.some(matches),
    `${what}: the change is made, but no audit record of it was written (records since: ${JSON.stringify(rows.map(({ action, actorName, targetType, targetId }) => ({ action, actorName, targetType, targetId })))})`,
  );
}

const person = () => signedInPerson(server, admin, { username: `audited-${++serial}`, realName: 'Audited_Person' });

describe('SCIM changes a client makes', () => {
  test('Entra\'s PATCH "Replace" of a user\'s externalId (nothing else): the new externalId is stored and recorded', async () => {
    const user = await scim<{ id: string }>('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'audit_ext_user',
      externalId: 'entra-object-1',
      name: { formatted: 'Ext_User' },
    });
    assert.equal(user.status, 201, JSON.stringify(user.body));
    const since = await lastAuditId(server);
    const patched = await scim('PATCH', `/Users/${user.body.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Replace', path: 'externalId', value: 'entra-object-2' }],
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const stored = await scim<{ externalId?: string }>('GET', `/Users/${user.body.id}`);
    assert.equal(stored.body.externalId, 'entra-object-2', 'the PATCH changed the externalId');
    assertRecorded(
      await auditSince(server, since),
      "the user's new externalId",
      (row) => row.targetId === user.body.id && row.actorName === 'scim:Entra provisioning',
    );
  });

  test("a PATCH removing a group's externalId: the link is gone and recorded", async () => {
    const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Audit_Ext_Group', externalId: 'entra-group-1' });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const since = await lastAuditId(server);
    const patched = await scim('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH_SCHEMA], Operations: [{ op: 'remove', path: 'externalId' }] });
    assert.equal(patched.status, 204, JSON.stringify(patched.body));
    const stored = await scim<{ externalId?: string }>('GET', `/Groups/${group.body.id}`);
    assert.equal(stored.body.externalId, undefined, 'the PATCH removed the externalId');
    assertRecorded(
      await auditSince(server, since),
      "the group's removed externalId",
      (row) => row.targetId === group.body.id && row.actorName === 'scim:Entra provisioning',
    );
  });
});

describe("a person's own changes", () => {
  test('using an email verification link marks the address verified: recorded, naming the person', async () => {
    const username = `audited-${++serial}`;
    const made = await admin.post<User>('/api/user', {
      username,
      realName: 'Audited_Person',
      email: `${username}@example.com`,
      password: transform('Secret123'),
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const user = made.body.data;
    const browser = server.client();
    assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
    assert.equal((await browser.post('/api/user/email/verification')).status, 200);
    const mail = await until(
      () => smtp.mails.find((entry) => entry.to.includes(`${user.username}@example.com`) && entry.raw.includes('/verified/')),
      'the mail',
    );
    const code = /\/verified\/([\w-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!;
    const since = await lastAuditId(server);
    assert.equal((await server.client().post(`/api/verified/${code}`)).status, 200);
    const row = await server.app.ctx.db.selectFrom('users').select('extraProp').where('id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal((JSON.parse(row.extraProp) as { emailVerified?: string }).emailVerified, `${user.username}@example.com`);
    assertRecorded(await auditSince(server, since), 'the verified email address', (row) => row.targetId === user.id);
  });

  test('allowing an OpenID Connect app on the consent page (a grant of profile data to the app): recorded, naming the person and the app', async () => {
    const app = await RelyingParty.register(server, admin, `Audit_Consent_App_${++serial}`);
    const { user, browser } = await person();
    const since = await lastAuditId(server);
    const tokens = await app.signIn(browser, 'openid profile email');
    assert.ok(tokens.access_token, 'the app got its tokens');
    assertRecorded(
      await auditSince(server, since),
      "the person's consent to the app",
      (row) => row.actorId === user.id && (row.targetId === app.appId || row.detail.includes(app.appId)),
    );
  });

  test('allowing a SAML app on its sign-in page (the consent is remembered for next time): recorded when it is stored, naming the person and the app', async () => {
    const provider = await ServiceProvider.register(server, admin, `Audit_Saml_App_${++serial}`);
    const username = `audited-${++serial}`;
    const made = await admin.post<User>('/api/user', {
      username,
      realName: 'Audited_Person',
      email: `${username}@example.test`,
      password: transform('Secret123'),
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const browser = server.client();
    assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
    const first = await provider.sendAuthnRequest(browser);
    assert.equal(first.status, 303, await first.clone().text());
    const id = new URL(first.headers.get('location')!, server.base).searchParams.get('request')!;
    const since = await lastAuditId(server);
    // The person allows; the page that posts the answer to the app is not fetched (the tab is closed).
    const allowed = await browser.post(`/api/saml/requests/${id}`, { allow: true });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    const consent = await server.app.ctx.db.selectFrom('samlConsents').select('appId').where('userId', '=', made.body.data.id).executeTakeFirst();
    assert.equal(consent?.appId, provider.appId, 'the consent is stored');
    assertRecorded(
      await auditSince(server, since),
      "the person's consent to the SAML app",
      (row) => row.actorId === made.body.data.id && (row.targetId === provider.appId || row.detail.includes(provider.appId)),
    );
  });

  test('the consent page ending a console session too old for the app (max_age): the sign-out is recorded', async () => {
    const app = await RelyingParty.register(server, admin, `Audit_Fresh_App_${++serial}`);
    const { user, browser } = await person();
    server.clock.advance(5_000);
    const { url } = await app.follow(browser, (await app.authorization('openid', { max_age: '1' })).url);
    assert.equal(url.pathname, '/oauth/authorize', url.href);
    const since = await lastAuditId(server);
    const allowed = await browser.post(`/api/sso/interactions/${url.searchParams.get('uid')}`, { allow: true });
    assert.equal(allowed.status, 401, JSON.stringify(allowed.body));
    assert.equal((await browser.get('/api/cas/session')).status, 401, 'the console session ended');
    assertRecorded(await auditSince(server, since), 'the ended console session', (row) => row.actorId === user.id || row.targetId === user.id);
  });

  test('deleting a message from my inbox: recorded', async () => {
    const { user, browser } = await person();
    const sent = await admin.post('/api/messages', { title: 'Audit notice', content: 'Please read', userIds: [user.id] });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const inbox = await browser.get<{ list: { id: string; title: string }[] }>('/api/messages');
    const message = inbox.body.data.list.find((entry) => entry.title === 'Audit notice');
    assert.ok(message, JSON.stringify(inbox.body));
    const since = await lastAuditId(server);
    assert.equal((await browser.delete(`/api/messages/${message.id}`)).status, 200);
    const left = await server.app.ctx.db.selectFrom('messages').select('id').where('id', '=', message.id).executeTakeFirst();
    assert.equal(left, undefined, 'the message is gone');
    assertRecorded(await auditSince(server, since), 'the deleted message', (row) => row.actorId === user.id);
  });
});
