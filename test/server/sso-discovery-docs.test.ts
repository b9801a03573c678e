// docs/sso.md lists what the provider's discovery document advertises, member by member and value
// by value (between its `discovery:start` and `discovery:end` markers); the live document must
// advertise exactly that list, so neither side gains a member or a value the other lacks. The
// behaviours the same page promises about DPoP introspection, revocation and callback URLs are checked against the
// live provider too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import { startServer, transform, type Client, type TestServer } from './harness';
import { RelyingParty } from './oidc-rp';
import type { User } from '../../src/core/types';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

/** The doc's list: each table row's member name and the backquoted values of its second cell. */
function documentedMembers(): Map<string, string[]> {
  const text = readFileSync(new URL('../../docs/sso.md', import.meta.url), 'utf8');
  const start = text.indexOf('<!-- discovery:start -->');
  const end = text.indexOf('<!-- discovery:end -->');
  assert.ok(start >= 0 && end > start, 'docs/sso.md has the discovery:start and discovery:end markers');
  const members = new Map<string, string[]>();
  for (const line of text.slice(start, end).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!name) continue;
    assert.ok(!members.has(name), `${name} is listed once`);
    members.set(
      name,
      [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!),
    );
  }
  return members;
}

/** A live member's values as the doc writes them: URLs relative to `<issuer>`, booleans as words. */
function asWritten(value: unknown, issuer: string): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map((item) => (typeof item === 'string' && item.startsWith(issuer) ? `<issuer>${item.slice(issuer.length)}` : String(item)));
}

test('docs/sso.md lists exactly the members and values discovery advertises', async () => {
  const response = await fetch(`${server.base}/api/oidc/.well-known/openid-configuration`);
  assert.equal(response.status, 200);
  const live = (await response.json()) as Record<string, unknown>;
  const issuer = String(live.issuer);
  const documented = documentedMembers();
  assert.ok(documented.size > 10, `the doc's list was read (${documented.size} members)`);
  assert.deepEqual(
    Object.keys(live).filter((name) => !documented.has(name)),
    [],
    'advertised but not in docs/sso.md',
  );
  assert.deepEqual(
    [...documented.keys()].filter((name) => !(name in live)),
    [],
    'in docs/sso.md but not advertised',
  );
  for (const [name, values] of documented) {
    assert.deepEqual([...values].sort(), asWritten(live[name], issuer).sort(), `${name}: docs/sso.md against discovery`);
  }
});

/** A new person, signed in to the console in a fresh browser. */
async function person(admin: Client, username: string) {
  const created = await admin.post<User>('/api/user', { username, realName: 'Docs_Person', password: transform('Secret123') });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const browser = server.client();
  assert.equal((await browser.login(username, 'Secret123')).body.data?.loginSuccess, true);
  return browser;
}

test('revoking one access token at the revocation endpoint ends its whole grant, the refresh token included', async () => {
  const admin = await server.admin();
  const app = await RelyingParty.register(server, admin, 'DocsRevocation');
  const browser = await person(admin, 'revoke-person');
  const tokens = await app.signIn(browser, 'openid offline_access', { prompt: 'consent' });
  assert.ok(tokens.refresh_token, 'a refresh token was issued');
  const revoked = await oauth.revocationRequest(app.as, app.client, oauth.ClientSecretBasic(app.secret!), tokens.access_token, {
    [oauth.allowInsecureRequests]: true,
  });
  await oauth.processRevocationResponse(revoked);
  assert.deepEqual(await app.refresh(tokens.refresh_token), { error: 'invalid_grant' });
  // Audited once, about the app, naming the person (the app revoked it: no actor).
  const records = await server.app.ctx.db
    .selectFrom('auditLog')
    .select(['actorId', 'detail'])
    .where('action', '=', 'app.grant_revoke')
    .where('targetId', '=', app.appId)
    .execute();
  assert.deepEqual(
    records.map((row) => {
      const detail = JSON.parse(row.detail) as { reason: string; person: { username: string } };
      return { actor: row.actorId, reason: detail.reason, person: detail.person.username };
    }),
    [{ actor: null, reason: 'revoked_by_app', person: 'revoke-person' }],
  );
});

test('callback URLs as docs/sso.md says: several separated by commas become redirect URIs; spaces and line breaks are refused', async () => {
  const admin = await server.admin();
  for (const [index, callbackUrl] of ['http://127.0.0.1:9/a http://127.0.0.1:9/b', 'http://127.0.0.1:9/a\nhttp://127.0.0.1:9/b'].entries()) {
    const refused = await admin.post('/api/apps', { name: `DocsSeparators${index}`, entrypoint: 'http://127.0.0.1:9/', callbackUrl });
    assert.equal(refused.status, 400, JSON.stringify(callbackUrl));
  }
  const app = await RelyingParty.register(server, admin, 'DocsCommas', 'http://127.0.0.1:9/a,http://127.0.0.1:9/b');
  const client = await admin.get<{ redirectUris: string[] }>(`/api/apps/${app.appId}/oidc-client`);
  assert.equal(client.status, 200, JSON.stringify(client.body));
  assert.deepEqual(client.body.data.redirectUris, ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);
});

test('a DPoP-bound access token introspects with token_type DPoP and cnf.jkt, the thumbprint of its key', async () => {
  const admin = await server.admin();
  const app = await RelyingParty.register(server, admin, 'DocsDpop');
  const keys = await oauth.generateKeyPair('ES256');
  const tokens = await app.signIn(await person(admin, 'dpop-person'), 'openid', {}, {}, oauth.DPoP(app.client, keys));
  assert.equal((tokens as { token_type?: string }).token_type?.toLowerCase(), 'dpop', 'the token endpoint answers token_type DPoP');
  const { crv, kty, x, y } = (await crypto.subtle.exportKey('jwk', keys.publicKey)) as Required<JsonWebKey>;
  const thumbprint = createHash('sha256').update(JSON.stringify({ crv, kty, x, y })).digest('base64url');
  const basic = `Basic ${Buffer.from(`${app.appId}:${app.secret}`).toString('base64')}`;
  // Both ways of authenticating: the server's own answer (Basic) and the provider's (secret in the body).
  for (const [headers, body] of [
    [{ authorization: basic }, `token=${tokens.access_token}`],
    [{}, `token=${tokens.access_token}&client_id=${app.appId}&client_secret=${encodeURIComponent(app.secret!)}`],
  ] as const) {
    const response = await fetch(app.as.introspection_endpoint!, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as { active: boolean; token_type?: string; cnf?: { jkt?: string } };
    assert.equal(answer.active, true);
    assert.equal(answer.token_type, 'DPoP');
    assert.deepEqual(answer.cnf, { jkt: thumbprint });
  }
  // As a bearer token it is refused at userinfo.
  const asBearer = await fetch(app.as.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(asBearer.status, 401);
});
