// A SCIM token grants no administrator right (docs/scim.md, docs/security.md): a provisioning
// client may not take over an administrator's account. A SCIM write of a person's phone or e-mail
// skips the password re-check (server/auth/contact-change.ts, `actor.provisioning`), and the token
// acts as an administrator *above* the groups it made (server/auth/grants.ts, isAboveTenant), so a
// group's (sub-tenant's) administrator is within its reach: the token moves their reset phone (or
// e-mail) to the attacker's and "forgot password" makes the administrator's account the attacker's.
// Also checked (holds): the same against an administrator of the token's own tenant (403), and a
// member's placement.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { codeSentTo } from './sign-in-support';
import { createTenant, createToken, GROUP_SCHEMA, PATCH_SCHEMA, provisionedTenant, rootTenantId, scimClient, USER_SCHEMA, type Scim } from './scim-support';

const PASSWORD = 'Takeover1pass';
const ATTACKER_PHONE = '13900008888';
const ATTACKER_MAIL = 'attacker@evil.example';

let server: TestServer;
let admin: Client;
let scim: Scim;
let tenantId: string;
let groupId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({
    scim,
    tenant: { id: tenantId },
  } = await provisionedTenant(server, admin, 'Takeover_Tenant'));
  const group = await scim<{ id: string }>('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Takeover_Group' });
  assert.equal(group.status, 201, JSON.stringify(group.body));
  groupId = group.body.id;
});
after(async () => {
  await server.stop();
});

let people = 0;
async function consoleAdmin(tenant: string): Promise<{ id: string; username: string }> {
  people += 1;
  const username = `takeover-admin-${people}`;
  const created = await admin.post<{ id: string }>('/api/user', {
    username,
    realName: `Takeover_${people}`,
    password: transform(PASSWORD),
    mobilePhone: `1390000770${people}`,
    email: `${username}@corp.example`,
    tenantId: tenant,
    isAdmin: true,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { id: created.body.data.id, username };
}

/** "Forgot password" to `address`, then sign in with the attacker's password: the steps taken. */
async function resetAndSignIn(userId: string, username: string, address: string): Promise<{ steps: string[]; signedIn: boolean }> {
  server.clock.advance(61_000);
  const since = server.clock.now();
  const steps = [`reset-code ${(await server.client().post('/api/user/password/reset-code', { identifier: address })).status}`];
  const code = await codeSentTo(server, userId, address, since);
  const reset = code && (await server.client().put('/api/user/password', { identifier: address, code, password: transform('Attacker-owns-1') }));
  steps.push(`reset ${reset ? reset.status : 'no code'}`);
  const login = await server.client().login(username, 'Attacker-owns-1');
  steps.push(`login ${login.status} ${JSON.stringify(login.body.data)}`);
  return { steps, signedIn: login.body.data?.loginSuccess === true || login.body.data?.hasNextStep === true };
}

const patchUser = (id: string, Operations: unknown[]) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH_SCHEMA], Operations });
const contactsOf = (id: string) =>
  server.app.ctx.db.selectFrom('users').select(['mobilePhone', 'email', 'isAdmin']).where('id', '=', id).executeTakeFirstOrThrow();

describe('a SCIM token cannot take over an administrator', () => {
  test("moving a group administrator's reset phone (PATCH phoneNumbers) is refused (403) and forgot-password cannot hand the account over", async () => {
    const groupAdmin = await consoleAdmin(groupId);
    const moved = await patchUser(groupAdmin.id, [{ op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: ATTACKER_PHONE }]);
    const row = await contactsOf(groupAdmin.id);
    let outcome = { steps: ['(phone not moved)'], signedIn: false };
    if (row.mobilePhone === ATTACKER_PHONE) outcome = await resetAndSignIn(groupAdmin.id, groupAdmin.username, ATTACKER_PHONE);
    assert.equal(row.isAdmin, 1);
    assert.equal(
      outcome.signedIn,
      false,
      `the SCIM token (PATCH ${moved.status}) made the group administrator's reset phone the attacker's and then took the account over: ${outcome.steps.join(', ')}`,
    );
    assert.equal(moved.status, 403, `PATCH of an administrator's phone answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  });

  test("moving a group administrator's e-mail (PUT with new emails) is refused (403)", async () => {
    const groupAdmin = await consoleAdmin(groupId);
    const put = await scim('PUT', `/Users/${groupAdmin.id}`, {
      schemas: [USER_SCHEMA],
      userName: groupAdmin.username,
      name: { formatted: 'Takeover_Put' },
      emails: [{ value: ATTACKER_MAIL, type: 'work', primary: true }],
      active: true,
    });
    const row = await contactsOf(groupAdmin.id);
    assert.notEqual(
      row.email,
      ATTACKER_MAIL,
      `a SCIM PUT (${put.status}) moved a group administrator's e-mail (where their password reset goes) to the attacker's`,
    );
    assert.equal(put.status, 403, JSON.stringify(put.body));
  });

  test('disabling or deleting a group administrator through SCIM is refused (403): the administrator stays enabled', async () => {
    const groupAdmin = await consoleAdmin(groupId);
    const disabled = await patchUser(groupAdmin.id, [{ op: 'Replace', path: 'active', value: 'False' }]);
    const deleted = await scim('DELETE', `/Users/${groupAdmin.id}`);
    const row = await server.app.ctx.db.selectFrom('users').select(['availabilityStatus']).where('id', '=', groupAdmin.id).executeTakeFirst();
    assert.ok(row, `a SCIM token deleted a group administrator (PATCH active ${disabled.status}, DELETE ${deleted.status})`);
    assert.equal(disabled.status, 403, `a SCIM token disabled a group administrator: ${disabled.status} ${JSON.stringify(disabled.body)}`);
    assert.equal(deleted.status, 403, JSON.stringify(deleted.body));
  });

  test("an administrator's SCIM-only attributes (title, the enterprise department) are theirs too: a PATCH of them is refused (403) and nothing is kept", async () => {
    const groupAdmin = await consoleAdmin(groupId);
    const patched = await patchUser(groupAdmin.id, [
      { op: 'Replace', path: 'title', value: 'Attacker' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Attackers' },
    ]);
    assert.equal(patched.status, 403, JSON.stringify(patched.body));
    const read = await scim<Record<string, unknown>>('GET', `/Users/${groupAdmin.id}`);
    assert.deepEqual([read.body.title, read.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']], [undefined, undefined]);
  });

  test("a token of the root tenant cannot move the e-mail of any company's administrator (403)", async () => {
    const company = await createTenant(admin, 'Takeover_Company');
    const companyAdmin = await consoleAdmin(company.id);
    const rootScim = scimClient(server.base, (await createToken(admin, await rootTenantId(admin), 'Root provisioning')).secret);
    const moved = await rootScim('PATCH', `/Users/${companyAdmin.id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: ATTACKER_MAIL }],
    });
    const row = await contactsOf(companyAdmin.id);
    assert.notEqual(row.email, ATTACKER_MAIL, `a root SCIM token (PATCH ${moved.status}) moved a company administrator's reset e-mail to the attacker's`);
    assert.equal(moved.status, 403, JSON.stringify(moved.body));
  });

  test("an administrator of the token's own tenant: phone and e-mail changes 403 (holds)", async () => {
    const peer = await consoleAdmin(tenantId);
    const moved = await scim('PUT', `/Users/${peer.id}`, {
      schemas: [USER_SCHEMA],
      userName: peer.username,
      name: { formatted: 'Takeover_Peer' },
      emails: [{ value: ATTACKER_MAIL, type: 'work', primary: true }],
      phoneNumbers: [{ value: ATTACKER_PHONE, type: 'mobile', primary: true }],
      active: true,
    });
    assert.equal(moved.status, 403, JSON.stringify(moved.body));
    const row = await contactsOf(peer.id);
    assert.notEqual(row.mobilePhone, ATTACKER_PHONE);
    assert.notEqual(row.email, ATTACKER_MAIL);
  });
});
