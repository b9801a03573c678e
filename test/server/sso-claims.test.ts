// Claims about the person for the app that asks: with the roles scope their roles and privilege
// keys in that app (never another app's), with the tenant scope their tenant and user type; in the
// ID token and at userinfo, bounded in size. With the email scope the address and whether it was
// verified in this product (email_verified, OpenID Connect Core §5.1): a relying party may trust
// the address for account linking only when it is true.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import { smtpChannel, startSmtp, until, type SmtpReceiver } from './receivers';
import { MAX_ROLES } from '../../server/oidc/app-claims';
import type { User } from '../../src/core/types';

let server: TestServer;
let smtp: SmtpReceiver;
let admin: Client;
let wiki: RelyingParty;
let mail: RelyingParty;
let person: User;
let browser: Client;
let tenant: { id: string; name: string };

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, JSON.stringify(body));
  return body.data;
}

const privilegeIdOf = new Map<string, string>();

/** A role in the app holding privileges with these keys (created on first use). */
async function roleWith(app: RelyingParty, name: string, keys: string[]) {
  const privilegeIds = [];
  for (const key of keys) {
    if (!privilegeIdOf.has(key))
      privilegeIdOf.set(key, (await ok(admin.post<{ id: string }>(`/api/apps/${app.appId}/privileges`, { name: `Privilege ${key}`, key }))).id);
    privilegeIds.push(privilegeIdOf.get(key)!);
  }
  const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.appId}/roles`, { name, description: 'Some role' }));
  await ok(admin.put(`/api/apps/${app.appId}/roles/${role.id}/privileges`, { privilegeIds }));
  return role.id;
}

before(async () => {
  [server, smtp] = await Promise.all([startServer(), startSmtp('mailer', 'smtp-pass-42')]);
  admin = await server.admin();
  await ok(admin.post('/api/channels', smtpChannel(smtp, 'mailer', 'smtp-pass-42')));
  wiki = await RelyingParty.register(server, admin, 'Wiki');
  mail = await RelyingParty.register(server, admin, 'Mail', 'http://127.0.0.1:9/mail-callback');
  const root = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'))).find((row) => row.parentId === null)!;
  tenant = {
    name: 'Claims_Tenant',
    id: (await ok(admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Claims_Tenant', type: 'company' }))).id,
  };
  person = await ok(
    admin.post<User>('/api/user', {
      username: 'claims-person',
      realName: 'Claims_Person',
      password: transform('Secret123'),
      tenantId: tenant.id,
      extraProp: { intProperty1: 1 },
    }),
  );
  const editor = await roleWith(wiki, 'Editor', ['pageEdit', 'pageRead']);
  const reader = await roleWith(wiki, 'Reader', ['pageRead']);
  await roleWith(wiki, 'Unheld', ['wikiAdmin']);
  const postmaster = await roleWith(mail, 'Postmaster', ['mailAdmin']);
  await ok(admin.put(`/api/user/${person.id}/roles/${wiki.appId}`, { roleIds: [editor, reader] }));
  await ok(admin.put(`/api/user/${person.id}/roles/${mail.appId}`, { roleIds: [postmaster] }));
  browser = server.client();
  assert.equal((await browser.login('claims-person', 'Secret123')).body.data?.loginSuccess, true);
});
after(async () => {
  await Promise.all([server.stop(), smtp.stop()]);
});

const idTokenClaims = (idToken: string) => JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

test("the roles scope: the person's roles and privilege keys in the asking app only, in the ID token and userinfo", async () => {
  const tokens = await wiki.signIn(browser, 'openid roles');
  for (const claims of [idTokenClaims(tokens.id_token!), (await wiki.userinfo(tokens.access_token)).body]) {
    assert.deepEqual(claims.roles, ['Editor', 'Reader']);
    assert.deepEqual(claims.privileges, ['pageEdit', 'pageRead']);
    assert.equal(claims.tenant, undefined, 'the tenant needs its own scope');
  }
  const theirs = await mail.signIn(browser, 'openid roles');
  assert.deepEqual((await mail.userinfo(theirs.access_token)).body.roles, ['Postmaster']);
  assert.deepEqual(idTokenClaims(theirs.id_token!).privileges, ['mailAdmin']);
});

test('the tenant scope: tenant id and name, and the user type', async () => {
  const tokens = await wiki.signIn(browser, 'openid tenant');
  for (const claims of [idTokenClaims(tokens.id_token!), (await wiki.userinfo(tokens.access_token)).body]) {
    assert.deepEqual(claims.tenant, tenant);
    assert.equal(claims.user_type, 'tenant');
    assert.equal(claims.roles, undefined);
  }
});

test('without those scopes, no such claims; discovery lists them', async () => {
  const tokens = await wiki.signIn(browser, 'openid');
  const claims = (await wiki.userinfo(tokens.access_token)).body;
  assert.deepEqual(
    Object.keys(claims).filter((name) => ['roles', 'privileges', 'tenant', 'user_type'].includes(name)),
    [],
  );
  assert.ok(wiki.as.scopes_supported?.includes('roles') && wiki.as.scopes_supported.includes('tenant'));
  assert.ok(wiki.as.claims_supported?.includes('privileges'));
});

test('the roles claim is bounded', async () => {
  const roleIds = [];
  for (let i = 0; i < MAX_ROLES + 5; i++)
    roleIds.push(
      (await ok(admin.post<{ id: string }>(`/api/apps/${wiki.appId}/roles`, { name: `Bulk${String(i).padStart(3, '0')}`, description: 'Some role' }))).id,
    );
  await ok(admin.put(`/api/user/${person.id}/roles/${wiki.appId}`, { roleIds }));
  const tokens = await wiki.signIn(browser, 'openid roles');
  assert.equal((idTokenClaims(tokens.id_token!).roles as string[]).length, MAX_ROLES);
});

test('the email scope: the address and email_verified, true only while the address is the one verified in this product', async () => {
  const username = 'claims-mail';
  const email = 'claims-mail@example.com';
  const made = await ok(admin.post<User>('/api/user', { username, realName: 'Claims_Mail', email, password: transform('Secret123') }));
  const mailer = server.client();
  assert.equal((await mailer.login(username, 'Secret123')).body.data?.loginSuccess, true);
  const claimsNow = async () => {
    const tokens = await wiki.signIn(mailer, 'openid email');
    return [idTokenClaims(tokens.id_token!), (await wiki.userinfo(tokens.access_token)).body].map((claims) => ({
      email: claims.email,
      email_verified: claims.email_verified,
    }));
  };
  // Typed in by an administrator: nobody proved the mailbox.
  assert.deepEqual(await claimsNow(), Array(2).fill({ email, email_verified: false }));

  await ok(mailer.post('/api/user/email/verification'));
  const mail = await until(() => smtp.mails.find((entry) => entry.to.includes(email) && entry.raw.includes('/verified/')), 'the verification mail');
  await ok(server.client().post(`/api/verified/${/\/verified\/([\w-]+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1]!}`));
  assert.deepEqual(await claimsNow(), Array(2).fill({ email, email_verified: true }));

  // Another address, set by an administrator: unverified again.
  const changed = 'claims-mail-new@example.com';
  await ok(admin.put(`/api/user/${made.id}`, { email: changed, version: (await ok(admin.get<User>(`/api/user/${made.id}`))).version, ...ADMIN_PROOF }));
  assert.deepEqual(await claimsNow(), Array(2).fill({ email: changed, email_verified: false }));
  assert.ok(wiki.as.claims_supported?.includes('email_verified'));
});
