// The app detail's view of an app as an OpenID Connect client: client id, issuer and redirect URIs
// (the app's callback URLs, following their edits), whether a secret is set — never the secret.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;
let appId: string;

type Status = { clientId: string; issuer: string; redirectUris: string[]; hasSecret: boolean; rotatedAt: number | null };

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const created = await admin.post<{ id: string }>('/api/apps', {
    name: 'Wiki',
    entrypoint: 'https://wiki.example.com/',
    callbackUrl: 'https://wiki.example.com/cb',
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  appId = created.body.data.id;
});
after(async () => {
  await server.stop();
});

const status = async () => {
  const answer = await admin.get<Status>(`/api/apps/${appId}/oidc-client`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
};

test('client id, issuer and the callback URLs as redirect URIs; the secret never', async () => {
  const before = await status();
  assert.equal(before.clientId, appId);
  assert.match(before.issuer, /\/api\/oidc$/);
  assert.deepEqual(before.redirectUris, ['https://wiki.example.com/cb']);
  assert.deepEqual([before.hasSecret, before.rotatedAt], [false, null]);

  const asked = server.clock.now();
  const { clientSecret } = (await admin.post<{ clientSecret: string }>(`/api/apps/${appId}/oidc-client/secret`)).body.data;
  const after = await status();
  assert.equal(after.hasSecret, true);
  assert.ok(after.rotatedAt !== null && after.rotatedAt >= asked && after.rotatedAt <= server.clock.now(), `rotated at ${after.rotatedAt}`);
  assert.ok(!JSON.stringify(after).includes(clientSecret));

  // The redirect URIs follow an edit of the callback URL.
  const { version } = (await admin.get<{ version: number }>(`/api/apps/${appId}`)).body.data;
  const updated = await admin.put(`/api/apps/${appId}`, { callbackUrl: 'https://wiki.example.com/oauth/back', version });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  assert.deepEqual((await status()).redirectUris, ['https://wiki.example.com/oauth/back']);
});

test('only for those who manage the app', async () => {
  assert.equal((await server.client().get(`/api/apps/${appId}/oidc-client`)).status, 401);
  assert.equal((await admin.get('/api/apps/no-such-app/oidc-client')).status, 404);
});
