// A removal sent several times at once (a double click, a client's retry, two administrators) removes
// one thing once: one caller hears 200, the others 404 (or the idempotent answer of a revoke), and the
// audit log holds ONE record of it, with one webhook event. On PostgreSQL the rows are read before
// the change and the delete does not look at what it deleted, so every caller of a burst hears 200
// and writes its own record (and its own user.deleted delivery, each with a new webhook-id a
// receiver cannot deduplicate). Every other DELETE of the API is in one table below: a removal
// answers 200 once and 404 to the rest; an unlock or a sign-out, which may be asked again, answers
// 200 to every caller, and only the one that ended something records it. Also: two secret
// rotations at once leave every answered secret signing (as the current or the previous one), not
// one the console showed and nothing accepts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook as Verifier } from 'standardwebhooks';
import { ADMIN_PROOF, lastAuditId, ok, startServer, transform, type Answer, type Client, type TestServer } from './harness';
import { startWebhookReceiver, until, type WebhookReceiver } from './receivers';
import { createTenant, rootTenantId } from './scim-support';
import { openLdapSettings } from './ldap-support';
import { SoftwareAuthenticator } from './software-authenticator';
import type { WebhookEvent } from '../../src/core/schemas/webhooks';

const BURST = 8;
/** The page origin passkeys are made for (the server's IAM_WEBAUTHN_ORIGINS). */
const PASSKEY_PAGE = 'http://localhost:5173';
let server: TestServer;
let admin: Client;
let second: Client;
let receiver: WebhookReceiver;
let hookId: string;
let serial = 0;

before(async () => {
  [server, receiver] = await Promise.all([
    startServer({ outboundAllowPrivate: true, webauthn: { rpId: 'localhost', origins: [PASSKEY_PAGE] } }),
    startWebhookReceiver(),
  ]);
  admin = await server.admin();
  second = await server.admin();
  // Removing a passkey re-checks the password, and each re-check holds a place in the account's
  // failure count while it runs (server/auth/recheck.ts): a burst must not take the places of a lock.
  const { version } = await server.app.ctx.settings.get('login');
  await server.app.ctx.settings.update('login', version, (value) => ({ ...value, maxFailures: 2 * BURST }));
  const events: WebhookEvent[] = ['user.deleted', 'tenant.deleted', 'app.deleted', 'app.updated', 'user.unlocked'];
  hookId = (await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/removals`, events }))).id;
});
after(async () => {
  await Promise.all([server.stop(), new Promise((resolve) => receiver.server.close(resolve))]);
});

const recordsOf = (action: string, targetId: string) =>
  server.app.ctx.db.selectFrom('auditLog').select('id').where('action', '=', action).where('targetId', '=', targetId).execute();
const deliveriesAbout = async (eventType: string, targetId: string) =>
  (
    await server.app.ctx.db.selectFrom('webhookDeliveries').select('payload').where('webhookId', '=', hookId).where('eventType', '=', eventType).execute()
  ).filter((row) => row.payload.includes(targetId));

/** The same call sent BURST times at once, from two administrators' sessions. */
const burst = (call: (client: Client) => Promise<Answer>) => Promise.all(Array.from({ length: BURST }, (_, at) => call(at % 2 ? second : admin)));

/** One record (and one webhook delivery, when counted) of the burst; one 200 and 404s, or, for a call
 *  that may be asked again (`repeatable`), 200 to every caller. */
function assertOneRemoval(answers: Answer[], records: unknown[], what: string, deliveries?: unknown[], repeatable = false) {
  const statuses = answers.map((answer) => answer.status).join(',');
  const events = deliveries ? `, ${deliveries.length} webhook deliveries` : '';
  assert.equal(records.length, 1, `${what}: ${records.length} audit records of one removal${events} (answers ${statuses})`);
  if (deliveries) assert.equal(deliveries.length, 1, `${what}: ${deliveries.length} webhook deliveries of one removal`);
  if (repeatable) {
    assert.ok(
      answers.every((answer) => answer.status === 200),
      `${what}: answers ${statuses}`,
    );
    return;
  }
  assert.equal(answers.filter((answer) => answer.status === 200).length, 1, `${what}: answers ${statuses}`);
  assert.ok(
    answers.every((answer) => answer.status === 200 || answer.status === 404),
    `${what}: answers ${statuses}`,
  );
}

describe(`a burst of ${BURST} removals of one thing`, () => {
  test('DELETE /api/user/{id}: one 200, one user.delete record, one user.deleted delivery', async () => {
    const user = await ok(
      admin.post<{ id: string }>('/api/user', { username: `removal-${++serial}`, realName: 'Removal_User', password: transform('Secret123') }),
    );
    const answers = await burst((client) => client.delete(`/api/user/${user.id}`));
    assertOneRemoval(answers, await recordsOf('user.delete', user.id), 'user', await deliveriesAbout('user.deleted', user.id));
  });

  test('DELETE /api/tenants/{id}: one 200, one tenant.delete record, one tenant.deleted delivery', async () => {
    const tenant = await createTenant(admin, `Removal_Tenant_${++serial}`);
    const answers = await burst((client) => client.delete(`/api/tenants/${tenant.id}`));
    assertOneRemoval(answers, await recordsOf('tenant.delete', tenant.id), 'tenant', await deliveriesAbout('tenant.deleted', tenant.id));
  });

  test('DELETE /api/apps/{id}: one 200, one app.delete record, one app.deleted delivery', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_App_${++serial}`, entrypoint: '/removal' }));
    const answers = await burst((client) => client.delete(`/api/apps/${app.id}`));
    assertOneRemoval(answers, await recordsOf('app.delete', app.id), 'app', await deliveriesAbout('app.deleted', app.id));
  });

  test('DELETE /api/webhooks/{id}: one 200, one webhook.delete record', async () => {
    const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/gone-${++serial}`, events: ['user.created'] }));
    const answers = await burst((client) => client.delete(`/api/webhooks/${hook.id}`));
    assertOneRemoval(answers, await recordsOf('webhook.delete', hook.id), 'webhook endpoint');
  });

  test('DELETE /api/scim-tokens/{id}: one scim_token.revoke record (a repeated revoke answers the revoked token)', async () => {
    const { token } = await ok(
      admin.post<{ token: { id: string } }>('/api/scim-tokens', { tenantId: await rootTenantId(admin), name: `Removal token ${++serial}`, ...ADMIN_PROOF }),
    );
    const answers = await burst((client) => client.delete(`/api/scim-tokens/${token.id}`));
    assert.ok(
      answers.every((answer) => answer.status === 200),
      answers.map((answer) => answer.status).join(','),
    );
    const records = await recordsOf('scim_token.revoke', token.id);
    assert.equal(records.length, 1, `${records.length} scim_token.revoke records of one revocation`);
  });
});

describe(`a burst of ${BURST} removals of one thing (more kinds)`, () => {
  test('DELETE /api/apps/{appId}/roles/{id}: one 200, one role.delete record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_Roles_${++serial}`, entrypoint: '/roles' }));
    const role = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/roles`, { name: `Removal_Role_${serial}`, description: 'Removal role' }));
    const answers = await burst((client) => client.delete(`/api/apps/${app.id}/roles/${role.id}`));
    assertOneRemoval(answers, await recordsOf('role.delete', role.id), 'role');
  });

  test('DELETE /api/menu-plans/{id}: one 200, one menu.delete record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_Menu_${++serial}`, entrypoint: '/menu' }));
    const plan = await ok(admin.post<{ id: string }>('/api/menu-plans', { appId: app.id, name: `Removal menu ${serial}`, items: [] }));
    const answers = await burst((client) => client.delete(`/api/menu-plans/${plan.id}`));
    assertOneRemoval(answers, await recordsOf('menu.delete', plan.id), 'menu plan');
  });

  test('DELETE /api/cas/sessions/{id} (a person ends one of their other sessions): one 200, one session.revoke record', async () => {
    const username = `removal-sessions-${++serial}`;
    await ok(admin.post('/api/user', { username, realName: 'Removal_Sessions', password: transform('Secret123') }));
    const [mine, other] = [server.client(), server.client()];
    await mine.login(username, 'Secret123');
    await other.login(username, 'Secret123');
    const target = (await ok(mine.get<{ id: string; current: boolean }[]>('/api/cas/sessions'))).find((session) => !session.current)!;
    const answers = await Promise.all(Array.from({ length: BURST }, () => mine.delete(`/api/cas/sessions/${target.id}`)));
    assertOneRemoval(answers, await recordsOf('session.revoke', target.id), 'session');
  });
});

/** A new person signed in `sessions` times (one client each). */
async function person(sessions: number, password = 'Secret123') {
  const username = `removal-person-${++serial}`;
  const user = await ok(admin.post<{ id: string }>('/api/user', { username, realName: 'Removal_Person', password: transform(password) }));
  const clients: Client[] = [];
  for (let n = 0; n < sessions; n += 1) {
    const client = server.client();
    assert.equal((await client.login(username, password)).body.data?.loginSuccess, true);
    clients.push(client);
  }
  return { id: user.id, username, clients };
}

/** One thing to remove, made ready: the DELETE, who sends it, and the record (and webhook event) it makes. */
interface Ready {
  call: (client: Client) => Promise<Answer>;
  /** The sessions the burst comes from, in turn (default: two administrators' sessions). */
  callers?: Client[];
  action: string;
  targetId: string;
  event?: WebhookEvent;
}

/** Every DELETE of the API not covered above, by what it removes. `repeatable`: asked again it is no
 *  error (the person is unlocked, or signed out, already). */
const REMOVALS: { what: string; repeatable?: true; prepare: () => Promise<Ready> }[] = [
  {
    what: 'DELETE /api/apps/{appId}/privileges/{id}',
    prepare: async () => {
      const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_Privileges_${++serial}`, entrypoint: '/privileges' }));
      const privilege = await ok(admin.post<{ id: string }>(`/api/apps/${app.id}/privileges`, { name: 'Removal privilege', key: `removal${serial}` }));
      return { call: (client) => client.delete(`/api/apps/${app.id}/privileges/${privilege.id}`), action: 'privilege.delete', targetId: privilege.id };
    },
  },
  {
    what: 'DELETE /api/idps/{idpCode}',
    prepare: async () => {
      const code = `removal${++serial}`;
      await ok(admin.post('/api/idps', { code, name: 'Removal SSO', type: 'OIDC', config: { issuer: 'https://sso.example.com', clientSecret: 'hidden' } }));
      return { call: (client) => client.delete(`/api/idps/${code}`), action: 'settings.update', targetId: code };
    },
  },
  {
    what: 'DELETE /api/tenants/{id}/ldap',
    prepare: async () => {
      const tenant = await createTenant(admin, `Removal_Directory_${++serial}`);
      const settings = openLdapSettings('ldap://127.0.0.1:9', '', { startTls: false });
      const connection = await ok(
        admin.put<{ id: string }>(`/api/tenants/${tenant.id}/ldap`, { name: 'Removal directory', enabled: false, settings, bindSecret: 'reader-secret' }),
      );
      return { call: (client) => client.delete(`/api/tenants/${tenant.id}/ldap`), action: 'settings.update', targetId: connection.id };
    },
  },
  {
    what: 'DELETE /api/channels/{id}',
    prepare: async () => {
      const config = { host: '127.0.0.1', port: '9', security: 'none', username: 'mailer', password: 'smtp-pass-42', from: 'iam@example.com' };
      const channel = await ok(admin.post<{ id: string }>('/api/channels', { name: `Removal mail ${++serial}`, serviceType: 'EMAIL', vendor: 'smtp', config }));
      return { call: (client) => client.delete(`/api/channels/${channel.id}`), action: 'channel.delete', targetId: channel.id };
    },
  },
  {
    what: 'DELETE /api/messages/{id}',
    prepare: async () => {
      const reader = await person(2);
      const title = `Removal notice ${serial}`;
      await ok(admin.post('/api/messages', { title, content: 'To be removed', userIds: [reader.id] }));
      const inbox = await ok(reader.clients[0]!.get<{ list: { id: string; title: string }[] }>('/api/messages'));
      const message = inbox.list.find((row) => row.title === title)!;
      return { call: (client) => client.delete(`/api/messages/${message.id}`), callers: reader.clients, action: 'message.delete', targetId: message.id };
    },
  },
  {
    what: 'DELETE /api/user/passkeys/{id}',
    prepare: async () => {
      const owner = await person(2);
      const [client] = owner.clients;
      const proof = { password: transform('Secret123') };
      const options = await ok(client!.post<Parameters<SoftwareAuthenticator['create']>[0]>('/api/user/passkeys/options', proof));
      const credential = new SoftwareAuthenticator(PASSKEY_PAGE, 'localhost').create(options);
      const passkey = await ok(client!.post<{ id: string }>('/api/user/passkeys', { name: 'Removal laptop', credential }));
      return {
        call: (caller) => caller.request('DELETE', `/api/user/passkeys/${passkey.id}`, proof),
        callers: owner.clients,
        action: 'passkey.delete',
        targetId: passkey.id,
      };
    },
  },
  {
    what: 'DELETE /api/apps/{appId}/saml-provider',
    prepare: async () => {
      const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Removal_SAML_${++serial}`, entrypoint: 'https://ledger.example.test/' }));
      const acsUrls = [{ url: 'https://ledger.example.test/acs', binding: 'HTTP-POST' }];
      await ok(admin.put(`/api/apps/${app.id}/saml-provider`, { entityId: `https://ledger.example.test/saml/${serial}`, acsUrls }));
      return { call: (client) => client.delete(`/api/apps/${app.id}/saml-provider`), action: 'app.update', targetId: app.id, event: 'app.updated' };
    },
  },
  {
    what: 'DELETE /api/user/{id}/sessions/{sessionId} (an administrator ends one session of a person)',
    prepare: async () => {
      const someone = await person(1);
      const [session] = await ok(admin.get<{ id: string }[]>(`/api/user/${someone.id}/sessions`));
      return { call: (client) => client.delete(`/api/user/${someone.id}/sessions/${session!.id}`), action: 'session.revoke', targetId: someone.id };
    },
  },
  {
    what: 'DELETE /api/authc/user/{id}/login/unlock',
    repeatable: true,
    prepare: async () => {
      const someone = await person(0);
      assert.equal((await server.client().login(someone.username, 'Wrong-password-1')).status, 401);
      return {
        call: (client) => client.delete(`/api/authc/user/${someone.id}/login/unlock`),
        action: 'user.unlock',
        targetId: someone.id,
        event: 'user.unlocked',
      };
    },
  },
  {
    what: 'DELETE /api/user/{id}/sessions (an administrator signs a person out everywhere)',
    repeatable: true,
    prepare: async () => {
      const someone = await person(2);
      return { call: (client) => client.delete(`/api/user/${someone.id}/sessions`), action: 'session.revoke', targetId: someone.id };
    },
  },
  {
    what: 'DELETE /api/cas/sessions (a person ends their other sessions)',
    repeatable: true,
    prepare: async () => {
      const someone = await person(3);
      return { call: (client) => client.delete('/api/cas/sessions'), callers: [someone.clients[0]!], action: 'session.revoke', targetId: someone.id };
    },
  },
];

/** The audit records of `action` about `targetId` written after the record `since`. */
const recordsSince = (since: number, action: string, targetId: string) =>
  server.app.ctx.db.selectFrom('auditLog').select('id').where('id', '>', since).where('action', '=', action).where('targetId', '=', targetId).execute();

describe(`a burst of ${BURST} of every other DELETE: one 200 (or 200 to all where asking again is no error), one record, one webhook event`, () => {
  for (const removal of REMOVALS) {
    test(removal.what, async () => {
      const ready = await removal.prepare();
      const callers = ready.callers ?? [admin, second];
      const since = await lastAuditId(server);
      const delivered = ready.event ? (await deliveriesAbout(ready.event, ready.targetId)).length : 0;
      const answers = await Promise.all(Array.from({ length: BURST }, (_, at) => ready.call(callers[at % callers.length]!)));
      const deliveries = ready.event ? (await deliveriesAbout(ready.event, ready.targetId)).slice(delivered) : undefined;
      assertOneRemoval(answers, await recordsSince(since, ready.action, ready.targetId), removal.what, deliveries, removal.repeatable);
    });
  }
});

describe(`a burst of ${BURST} creates of what there is one of`, () => {
  test('POST /api/menu-plans for one app: one plan (the others 400 rule.duplicate), one menu.create record', async () => {
    const app = await ok(admin.post<{ id: string }>('/api/apps', { name: `Burst_Menu_${++serial}`, entrypoint: '/burst' }));
    const answers = await burst((client) => client.post('/api/menu-plans', { appId: app.id, name: `Burst menu ${serial}`, items: [] }));
    const plans = await server.app.ctx.db.selectFrom('menuPlans').select('id').where('appId', '=', app.id).execute();
    assert.equal(
      plans.length,
      1,
      `${plans.length} menu plans for one app (answers ${answers.map((answer) => answer.status).join(',')}): which one the app gets is left to chance`,
    );
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 400));
  });
});

describe('two secret rotations at once', () => {
  test('POST /api/webhooks/{id}/secret twice at once: each answered secret still signs (current or previous)', async () => {
    const hook = await ok(admin.post<{ id: string }>('/api/webhooks', { url: `${receiver.url}/rotated-${++serial}`, events: ['user.created'] }));
    const path = `/rotated-${serial}`;
    const answers = await Promise.all([admin, second].map((client) => ok(client.post<{ secret: string }>(`/api/webhooks/${hook.id}/secret`))));
    await ok(admin.post(`/api/webhooks/${hook.id}/test`));
    const post = await until(() => receiver.posts.find((item) => item.path === path), 'the test post');
    for (const { secret } of answers) {
      assert.doesNotThrow(
        () => new Verifier(secret).verify(post.body, post.headers as Record<string, string>),
        `a rotation answered ${secret.slice(0, 12)}…, which signs nothing: the console showed a secret the receiver can never verify`,
      );
    }
  });
});
