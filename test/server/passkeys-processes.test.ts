// Passkeys across two server processes on one database: a ceremony begun on one process is
// finished on the other (the challenges are rows, not process memory), and one assertion sent to
// both at once signs in once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, Client, transform } from './harness';
import { startProcessPair, type ProcessPair } from './crash-process';
import { SoftwareAuthenticator } from './software-authenticator';

const RP_ID = 'localhost';
const PAGE = 'http://localhost:5173';

let pair: ProcessPair | undefined;
before(async () => {
  pair = await startProcessPair({ IAM_WEBAUTHN_RP_ID: RP_ID, IAM_WEBAUTHN_ORIGINS: PAGE });
});
after(async () => {
  await pair?.stop();
});

type Options = Parameters<SoftwareAuthenticator['create']>[0];

test('a ceremony begun on one process finishes on the other; one assertion sent to both signs in once', async () => {
  const { servers, admins } = pair!;
  const [first, second] = admins as [Client, Client];
  const authenticator = new SoftwareAuthenticator(PAGE, RP_ID);

  // Registration: the options from process 1, the answer to process 2 (the same session, shared).
  const options = await first.post<Options>('/api/user/passkeys/options', { password: transform(ADMIN.password) });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const shared = new Client(servers[1]!.base, servers[1]!.base);
  shared.cookies = first.cookies;
  const added = await shared.post('/api/user/passkeys', { name: 'Key', credential: authenticator.create(options.body.data) });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  assert.equal((await second.get<unknown[]>('/api/user/passkeys')).body.data.length, 1);

  // Sign-in: the options from process 2, the assertion to process 1.
  const browser = new Client(servers[1]!.base, servers[1]!.base);
  const signIn = await browser.post<{ challenge: string }>('/api/authc/passkey/options');
  const answer = await new Client(servers[0]!.base, servers[0]!.base).post<{ loginSuccess: boolean }>('/api/authc/passkey/login', {
    credential: authenticator.get(signIn.body.data),
  });
  assert.equal(answer.body.data.loginSuccess, true, JSON.stringify(answer.body));

  // One assertion, eight requests spread over both processes at once: one session.
  const burst = authenticator.get((await browser.post<{ challenge: string }>('/api/authc/passkey/options')).body.data);
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, n) => new Client(servers[n % 2]!.base, servers[n % 2]!.base).post('/api/authc/passkey/login', { credential: burst })),
  );
  assert.equal(answers.filter((reply) => reply.status === 200).length, 1, answers.map((reply) => `${reply.status} ${reply.body.message}`).join('; '));
});
