// A sign-in through a third-party provider (OpenID Connect, a provider on this machine) grants no
// more than a password sign-in would: a linked person's authenticator app is still asked, a disabled
// person is refused (and not audited as signed in), a provider switched off ends the sign-ins it
// vouched for, and the first-time complement neither burns its ticket on a field error nor stores an
// address nobody proved (server/auth/third-party.ts). Each test is hostile and failed on the code
// before its fix.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { signInAtProvider } from './identity-provider';
import { peopleMaker, registeredProvider, withAuthenticatorOfPasswordless } from './sign-in-support';

const PASSWORD = 'Third-party-1';

interface LoginAnswer {
  loginSuccess: boolean;
  nextStep?: string;
  stepTicket?: string;
}

let server: TestServer;
let admin: Client;

before(async () => {
  // The test identity provider listens on loopback, which the outbound guard refuses unless listed.
  server = await startServer({ outboundAllow: ['127.0.0.1'] });
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

const person = peopleMaker(() => admin, 'TP', PASSWORD, 6200);

const bulk = async (action: 'disable' | 'enable', id: string) => {
  const answer = await admin.post<{ results: { ok: boolean }[] }>('/api/user/bulk', { action, ids: [id] });
  assert.equal(answer.body.data?.results?.[0]?.ok, true, JSON.stringify(answer.body));
};

/** A provider `code` and a person `sub` linked to it through a first sign-in; `viaProvider` takes one more trip. */
async function linkedThroughProvider(code: string, sub: string) {
  const email = `${sub}@corp.example`;
  const { idp, viaProvider } = await registeredProvider(server, admin, code, { sub, preferred_username: sub, name: sub, email });
  const first = await viaProvider<LoginAnswer>({ username: sub, realName: sub, email });
  assert.equal(first.answer.body.data?.loginSuccess, true, JSON.stringify(first.answer.body));
  const row = await server.app.ctx.db.selectFrom('users').select('id').where('username', '=', sub).executeTakeFirstOrThrow();
  return { idp, viaProvider: () => viaProvider<LoginAnswer>({}), userId: row.id };
}

/** A new provider `code` vouching for `sub`; answers a complement call bound to one browser's ticket. */
async function firstTimeAtProvider(code: string, sub: string) {
  const { idp } = await registeredProvider(server, admin, code, { sub, preferred_username: sub, name: sub, email: `${sub}@corp.example` });
  const browser = server.client();
  const ticket = (await signInAtProvider(browser, code)).searchParams.get('access_ticket')!;
  const complement = (body: Record<string, unknown>) =>
    browser.post<LoginAnswer>(`/api/interaction/idp/${code}/authorize/after/user/complement?access_ticket=${ticket}`, body);
  return { idp, complement };
}

test('a third-party sign-in of a linked person with an authenticator app still asks for its code', async () => {
  const { idp, viaProvider } = await linkedThroughProvider('tpcarol', 'tp-carol');
  try {
    // Carol turns her authenticator app on (setting one up takes a password: an administrator
    // gives her one first); a later sign-in through the provider must still ask for it.
    await withAuthenticatorOfPasswordless(server, admin, 'tp-carol', PASSWORD);
    const later = await viaProvider();
    assert.equal(later.answer.status, 200, JSON.stringify(later.answer.body));
    assert.notEqual(later.answer.body.data?.loginSuccess, true, `signed in without the authenticator app: ${JSON.stringify(later.answer.body)}`);
    assert.equal(later.answer.body.data?.nextStep, 'TOTP', JSON.stringify(later.answer.body));
  } finally {
    await idp.stop();
  }
});

test('a disabled person linked to a provider is refused at the third-party sign-in, not answered "Login success" and audited as signed in', async () => {
  const { idp, viaProvider, userId } = await linkedThroughProvider('tpgone', 'tp-gone-eve');
  try {
    await bulk('disable', userId);
    const since = server.clock.now();
    const { answer } = await viaProvider();
    const audited = await server.app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'success'])
      .where('targetId', '=', userId)
      .where('action', '=', 'login.third_party')
      .where('at', '>=', since)
      .execute();
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.notEqual(answer.body.data?.loginSuccess, true, `a disabled person was answered: ${JSON.stringify(answer.body)}`);
    assert.equal(audited.length, 0, `a disabled person's third-party sign-in is in the audit log as a success: ${JSON.stringify(audited)}`);
  } finally {
    await idp.stop();
  }
});

test('a step ticket of a third-party sign-in stops working once the administrator disables that provider', async () => {
  const { idp, viaProvider } = await linkedThroughProvider('tpcut', 'tp-cut-fay');
  try {
    // Set up with a password an administrator gives (the provider's person has none; setting up takes one).
    const code = await withAuthenticatorOfPasswordless(server, admin, 'tp-cut-fay', PASSWORD);
    const later = await viaProvider();
    assert.equal(later.answer.body.data?.nextStep, 'TOTP', JSON.stringify(later.answer.body));
    // The provider turns out to be compromised: the administrator switches it off.
    const off = await admin.put('/api/idps/tpcut', { enabled: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const done = await later.browser.post<LoginAnswer>('/api/authc/login/step', { stepTicket: later.answer.body.data.stepTicket, code: code() });
    assert.equal(done.status, 401, JSON.stringify(done.body));
    assert.notEqual(
      done.body.data?.loginSuccess,
      true,
      `the provider is disabled (its own tickets answer 404), yet a sign-in it vouched for went on: ${JSON.stringify(done.body)}`,
    );
  } finally {
    await idp.stop();
  }
});

test("a first-time third-party sign-in giving another account's email or phone gets a field error and keeps its ticket (not a 500 that used it up)", async () => {
  const holder = await person({ email: 'tp-holder@corp.example' });
  const { idp, complement } = await firstTimeAtProvider('tpnew', 'tp-newbie');
  try {
    const taken = await complement({ username: 'tp-newbie', realName: 'Newbie', email: 'TP-Holder@corp.example' });
    assert.equal(taken.status, 400, `another account's email at the complement: ${taken.status} ${JSON.stringify(taken.body)}`);
    const takenPhone = await complement({ username: 'tp-newbie', realName: 'Newbie', mobilePhone: holder.phone });
    assert.equal(takenPhone.status, 400, `another account's phone at the complement: ${takenPhone.status} ${JSON.stringify(takenPhone.body)}`);
    const done = await complement({ username: 'tp-newbie', realName: 'Newbie' });
    assert.equal(done.body.data?.loginSuccess, true, `the refusals used the ticket up: ${JSON.stringify(done.body)}`);
  } finally {
    await idp.stop();
  }
});

test("an email typed at the first-time third-party complement (neither the one the provider vouched for nor proven by a code) does not become the account's address", async () => {
  const { idp, complement } = await firstTimeAtProvider('tptyped', 'tp-typist');
  try {
    const unproven = 'tp-someone-else@corp.example';
    const done = await complement({ username: 'tp-typist', realName: 'Typist', email: unproven });
    assert.equal(done.body.data?.loginSuccess, true, JSON.stringify(done.body));
    const row = await server.app.ctx.db.selectFrom('users').select('email').where('username', '=', 'tp-typist').executeTakeFirstOrThrow();
    assert.notEqual(
      row.email,
      unproven,
      "anyone with an account at the provider stores an address they never proved as the account's sign-in and reset address (a person changing their own address in the console proves it first; the address is then taken for its real owner)",
    );
  } finally {
    await idp.stop();
  }
});
