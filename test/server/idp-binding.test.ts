// Hostile third-party sign-ins against real local OpenID Connect providers: a provider ticket is
// bound to the browser that started the flow (login CSRF: an attacker's own ticket opened by a
// victim), never redeemed over a live session without an explicit confirmation, and an email the
// provider does not vouch for is never matched to a local account (nor does the answer tell
// whether such an account exists).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { signInAtProvider, startIdentityProvider, type IdentityProvider, type Person } from './identity-provider';

let server: TestServer;
let admin: Client;
const providers: IdentityProvider[] = [];
const VICTOR = { username: 'victor', password: 'Victor-pass-1' };
const BOB = { username: 'bob', password: 'Bob-pass-2024', email: 'bob@partner.example' };

async function addProvider(code: string, person: Person): Promise<void> {
  const idp = await startIdentityProvider(`${server.base}/api/interaction/idp/${code}/authorize/callback`, person);
  providers.push(idp);
  const created = await admin.post('/api/idps', {
    code,
    name: code,
    type: 'OIDC',
    config: { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
}

before(async () => {
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
  for (const user of [{ ...VICTOR, email: 'victor@home.example' }, BOB]) {
    const created = await admin.post('/api/user', {
      username: user.username,
      realName: user.username,
      email: user.email,
      password: transform(user.password),
      extraProp: {},
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
  }
  await addProvider('corp', { sub: 'corp-mallory', preferred_username: 'mallory', name: 'Mallory', email: 'mallory@corp.example', email_verified: true });
  await addProvider('verified', { sub: 'v-bob', preferred_username: 'bobby', name: 'Bobby', email: 'Bob@Partner.example', email_verified: true });
  await addProvider('partner', { sub: 'p-bob', preferred_username: 'bobby', name: 'Bobby', email: BOB.email, email_verified: true });
  await addProvider('unverified', { sub: 'u-bob', preferred_username: 'bobby', name: 'Bobby', email: BOB.email, email_verified: false });
  await addProvider('silent', { sub: 's-bob', preferred_username: 'bobby', name: 'Bobby', email: BOB.email });
  await addProvider('unknown', { sub: 'u-nobody', preferred_username: 'nobody', name: 'Nobody', email: 'nobody@partner.example', email_verified: false });
});
after(async () => {
  for (const idp of providers) await idp.stop();
  await server.stop();
});

/** The calls that read or redeem the ticket /infoComplete was given. */
function ticketCalls(landed: URL) {
  const code = landed.searchParams.get('idpCode')!;
  const ticket = landed.searchParams.get('access_ticket');
  assert.ok(ticket, `a ticket: ${landed.href}`);
  const base = `/api/interaction/idp/${code}/authorize`;
  return {
    info: (browser: Client) =>
      browser.get<{ needComplement: boolean; existingAccount?: { username: string }; complement: Record<string, unknown> }>(
        `${base}/user/access/info/${landed.searchParams.get('token')}?access_ticket=${ticket}`,
      ),
    complement: (browser: Client, body: Record<string, unknown>) =>
      browser.post<{ loginSuccess: boolean }>(`${base}/after/user/complement?access_ticket=${ticket}`, body),
    link: (browser: Client, body: Record<string, unknown>) => browser.post(`${base}/after/user/link?access_ticket=${ticket}`, body),
  };
}

async function signedInAs(browser: Client): Promise<string | undefined> {
  const answer = await browser.get<{ user: { username: string } }>('/api/cas/session');
  return answer.status === 200 ? answer.body.data.user.username : undefined;
}

const STARTED_ELSEWHERE = /started in another browser/;

function assertStartedElsewhere(answer: Answer, what: string): void {
  assert.equal(answer.status, 403, `${what}: ${JSON.stringify(answer.body)}`);
  assert.match(answer.body.message, STARTED_ELSEWHERE, what);
}

test("an attacker's ticket opened in another browser is refused at every step; the victim's session is untouched", async () => {
  const attacker = server.client();
  const landed = await signInAtProvider(attacker, 'corp');
  const calls = ticketCalls(landed);

  // A signed-in victim, one with a sign-in of their own under way (another flow cookie), and a
  // browser with no cookie at all: all refused, in parallel bursts, whatever flag they send.
  const victim = server.client();
  assert.equal((await victim.login(VICTOR.username, VICTOR.password)).status, 200);
  const starter = server.client();
  assert.equal((await starter.raw('GET', '/api/interaction/idp/corp/authorize')).status, 302);
  assert.ok(starter.cookies.size > 0, 'the start sets the flow cookie');
  const browsers = [victim, starter, server.client()];
  const answers = await Promise.all(
    browsers.flatMap((browser) => [
      calls.info(browser),
      calls.complement(browser, { username: 'mallory', realName: 'Mallory', switchAccount: true }),
      calls.complement(browser, {}),
      calls.link(browser, { password: transform(VICTOR.password), switchAccount: true }),
    ]),
  );
  answers.forEach((answer, index) => assertStartedElsewhere(answer, `call ${index}`));
  assert.equal(await signedInAs(victim), VICTOR.username, "the victim's session is unchanged");

  // The browser that started still redeems its ticket (nothing was used up).
  const info = await calls.info(attacker);
  assert.equal(info.status, 200, JSON.stringify(info.body));
  const done = await calls.complement(attacker, { username: 'mallory', realName: 'Mallory' });
  assert.equal(done.body.data.loginSuccess, true, JSON.stringify(done.body));
  assert.equal(await signedInAs(attacker), 'mallory');
  assert.equal(await signedInAs(victim), VICTOR.username);
});

test('the callback refuses a browser whose flow cookie is not the one the flow was started with', async () => {
  // The attacker starts; the victim's browser (with its own flow under way) is sent to the callback.
  const attacker = server.client();
  const start = await attacker.raw('GET', '/api/interaction/idp/corp/authorize');
  const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
  const victim = server.client();
  await victim.raw('GET', '/api/interaction/idp/corp/authorize');
  const landed = await victim.raw('GET', `/api/interaction/idp/corp/authorize/callback?code=x&state=${state}`);
  const location = new URL(landed.headers.get('location')!, server.base);
  assert.equal(location.searchParams.get('access_ticket'), null);
  assert.match(location.searchParams.get('error') ?? '', STARTED_ELSEWHERE);
});

test('over a live session a ticket is redeemed only with an explicit confirmation; refused, the session is unchanged', async () => {
  const browser = server.client();
  assert.equal((await browser.login(VICTOR.username, VICTOR.password)).status, 200);
  const victorCookies = new Map(browser.cookies);

  // The complement (a linked person, or a first-time one) and the link, each without the flag.
  const landed = await signInAtProvider(browser, 'corp');
  const calls = ticketCalls(landed);
  assert.equal((await calls.info(browser)).status, 200, 'reading the ticket is fine');
  for (const body of [{}, { switchAccount: false }]) {
    const refused = await calls.complement(browser, body);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.message, /already signed in/);
  }
  const linkLanded = await signInAtProvider(browser, 'partner');
  const linkCalls = ticketCalls(linkLanded);
  const linkRefused = await linkCalls.link(browser, { password: transform(BOB.password) });
  assert.equal(linkRefused.status, 409, JSON.stringify(linkRefused.body));
  assert.equal(await signedInAs(browser), VICTOR.username, 'still victor');

  // Confirmed: the session is replaced (the old secret stops working).
  const linked = await linkCalls.link(browser, { password: transform(BOB.password), switchAccount: true });
  assert.equal(linked.status, 200, JSON.stringify(linked.body));
  assert.equal(await signedInAs(browser), BOB.username);
  const old = server.client();
  old.cookies = victorCookies;
  assert.equal(await signedInAs(old), undefined, 'the previous session ended');
});

test('an email the provider does not vouch for is not matched, and answers exactly like an unknown email', async () => {
  type Seen = { info: unknown; link: unknown; complement: unknown };
  const journey = async (code: string, username: string): Promise<Seen & { existing?: { username: string } }> => {
    const browser = server.client();
    const calls = ticketCalls(await signInAtProvider(browser, code));
    const info = await calls.info(browser);
    assert.equal(info.status, 200, JSON.stringify(info.body));
    const { complement: _profile, token: _token, accessTicket: _ticket, idpCode: _code, ...rest } = info.body.data as Record<string, unknown>;
    const link = await calls.link(browser, { password: transform(BOB.password) });
    const complement = await calls.complement(browser, { username, realName: username });
    return {
      info: rest,
      existing: info.body.data.existingAccount,
      link: { status: link.status, code: link.body.code, message: link.body.message },
      complement: { status: complement.status, loginSuccess: complement.body.data?.loginSuccess },
    };
  };
  const verified = await journey('verified', 'bob-dup');
  assert.deepEqual(verified.existing, { username: BOB.username }, 'a vouched email is offered for linking');

  const unknown = await journey('unknown', 'nobody');
  assert.equal(unknown.existing, undefined);
  for (const code of ['unverified', 'silent']) {
    const seen = await journey(code, `bobby-${code}`);
    assert.equal(seen.existing, undefined, `${code}: not matched`);
    assert.deepEqual({ ...seen, existing: undefined }, { ...unknown, existing: undefined }, `${code}: same answers as an unknown email`);
  }
  assert.equal(unknown.complement && (unknown.complement as { loginSuccess: boolean }).loginSuccess, true, 'a new account instead');
});
