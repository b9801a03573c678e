// A confidential app switched to a public client: its grants end (a refresh token made for a
// client with a secret must not live on where no secret is needed to use it). Attacked with a
// burst: the app's refresh calls race the switch. Whatever wins, no token that the refreshes
// answered may work afterwards: not its access token at userinfo, not its refresh token, which a
// thief would now present with the client id alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, signedInPerson, type Client, type TestServer } from './harness';
import { RelyingParty, type Tokens } from './oidc-rp';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

/** A refresh as a public client does it: the client id, no secret. */
async function publicRefresh(app: RelyingParty, refreshToken: string) {
  const response = await fetch(app.as.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.appId }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The confidential app's refresh (with its secret); a refusal of any kind (invalid_client once the secret is gone) is an error. */
const refresh = (app: RelyingParty, refreshToken: string) => app.refresh(refreshToken).catch((error: unknown) => ({ error: String(error) }));

test('refreshes racing the switch to public: no token they answered works afterwards, with or without the old secret', async () => {
  const app = await RelyingParty.register(server, admin, 'Race_Switch_App', 'https://race-switch.example/callback');
  const people = await Promise.all(
    Array.from({ length: 3 }, (_, index) => signedInPerson(server, admin, { username: `race-switch-${index}`, realName: 'Race_Switch' })),
  );
  const first: Tokens[] = [];
  for (const { browser } of people) first.push(await app.signIn(browser, 'openid offline_access', { prompt: 'consent' }));
  for (const tokens of first) assert.ok(tokens.refresh_token, 'offline_access gave a refresh token');

  const [switched, ...refreshed] = await Promise.all([
    admin.put(`/api/apps/${app.appId}/oidc-client`, { clientType: 'public' }),
    ...first.flatMap((tokens) => [refresh(app, tokens.refresh_token!), refresh(app, tokens.refresh_token!)]),
  ]);
  assert.equal(switched.status, 200, JSON.stringify(switched.body));
  const answered = (refreshed as (Tokens | { error: string })[]).filter((answer): answer is Tokens => 'access_token' in answer);

  const alive: string[] = [];
  for (const tokens of [...first, ...answered]) {
    if ((await app.userinfo(tokens.access_token)).status === 200) alive.push(`access token ${tokens.access_token.slice(0, 8)}…`);
    if (tokens.refresh_token && (await publicRefresh(app, tokens.refresh_token)).status === 200)
      alive.push(`refresh token ${tokens.refresh_token.slice(0, 8)}… (used with the client id alone)`);
  }
  assert.deepEqual(alive, [], `${answered.length} refreshes succeeded around the switch; these tokens outlived it`);
});
