// One tenant's directory against another's, attacked from outside with a real OpenLDAP
// (test/server/slapd.ts). A tenant administrator may point their tenant's connection at any
// directory the operator allows, and that directory's owner sees every bind it receives. A person of
// another tenant's directory who signs in for the first time (nobody here has their username yet)
// must not hand their password to it, and a directory that never answers must not hold the other
// tenants' first sign-ins for the length of its timeouts.
//
// The design (docs/ldap.md, "What a directory vouches for"; server/ldap/lookup.ts): every directory
// is first asked, at once and by its own reader account, whether it holds an entry of exactly the
// typed name; only a name held by exactly one directory has its password sent, there. A name held
// by several is refused like a wrong password and audited as directory_ambiguous (for the platform)
// and as ldap.sign_in_ambiguous in each holding tenant's own audit log, until the right tenant's
// synchronisation creates the person. A directory that does not answer within the bound
// is left out (and left out of the next sign-ins for a while).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { SUFFIX, type Slapd } from './slapd';
import { openLdapSettings, READER, startDirectory } from './ldap-support';
import type { LdapSettings } from '../../src/core/schemas/ldap';

const PEOPLE = `ou=people,${SUFFIX}`;
const STAFF = `ou=staff,${SUFFIX}`;
const ROGUE = `ou=rogue,${SUFFIX}`;
const entry = (uid: string, ou: string, password: string) =>
  [`dn: uid=${uid},${ou}`, 'objectClass: inetOrgPerson', `uid: ${uid}`, `cn: ${uid}`, `sn: ${uid}`, `userPassword: ${password}`].join('\n');

let server: TestServer;
let slapd: Slapd;
let admin: Client;

before(async () => {
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'] }),
    startDirectory({
      ldif: [
        // The victim tenant's people.
        entry('nora', PEOPLE, 'Nora-Own-Pass-1'),
        `dn: ${STAFF}\nobjectClass: organizationalUnit\nou: staff`,
        entry('omar', STAFF, 'Omar-Own-Pass-1'),
        // What the rogue tenant's administrator put in the directory they run: entries named like
        // people of other tenants, with passwords of their choosing.
        `dn: ${ROGUE}\nobjectClass: organizationalUnit\nou: rogue`,
        entry('nora', ROGUE, 'rogue-chosen-1'),
      ].join('\n\n'),
    }),
  ]);
  admin = await server.admin();
});

after(async () => {
  await Promise.all([server?.stop(), slapd?.destroy()]);
});

/** A tenant with its own administrator (not the platform administrator), signed in. */
async function tenantWithAdministrator(name: string): Promise<{ tenantId: string; administrator: Client }> {
  const tenantId = (await createTenant(admin, name)).id;
  const username = `${name.toLowerCase()}-admin`;
  const created = await admin.post('/api/user', { username, realName: name, password: transform('Secret123'), tenantId, isAdmin: true });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const administrator = server.client();
  assert.equal((await administrator.login(username, 'Secret123')).status, 200);
  return { tenantId, administrator };
}

async function saveAs(client: Client, tenantId: string, settings: LdapSettings, name: string) {
  const saved = await client.put(`/api/tenants/${tenantId}/ldap`, { name, enabled: true, settings, bindSecret: READER.secret });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

/** A TCP relay in front of slapd that keeps what clients send (the directory's owner sees its binds). */
async function recordingRelay(target: number) {
  let sent = Buffer.alloc(0);
  const sockets = new Set<Socket>();
  const relay = createServer((client: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => (sent = Buffer.concat([sent, chunk])));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await listen(relay);
  const stop = () => {
    for (const socket of sockets) socket.destroy();
    return close(relay);
  };
  return { port: (relay.address() as { port: number }).port, sent: () => sent, close: stop };
}

/** A "directory" that accepts connections and never answers a byte (a slow or hostile one). */
async function silentDirectory() {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const silent = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await listen(silent);
  return {
    port: (silent.address() as { port: number }).port,
    accepted: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return close(silent);
    },
  };
}

const listen = (listener: Server) => new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
const close = (listener: Server) => new Promise<void>((resolve) => listener.close(() => resolve()));

const sessionTenant = async (client: Client) => (await client.get<{ tenantId?: string; user?: { tenantId?: string } }>('/api/cas/session')).body;

test("a person signing in for the first time does not hand their password to another tenant's directory that claims their username", async () => {
  // The rogue tenant's administrator saves their connection first: their directory is asked first.
  const rogue = await tenantWithAdministrator('RogueDir');
  const relay = await recordingRelay(slapd.port);
  try {
    await saveAs(rogue.administrator, rogue.tenantId, openLdapSettings(`ldap://127.0.0.1:${relay.port}`, '', { startTls: false, baseDn: ROGUE }), 'rogue');
    const victim = await tenantWithAdministrator('VictimDir');
    await saveAs(victim.administrator, victim.tenantId, openLdapSettings(slapd.url, slapd.caPem, { baseDn: PEOPLE }), 'victim-corp');

    const nora = server.client();
    const started = Date.now();
    const answer = await nora.login('nora', 'Nora-Own-Pass-1', { directoryPassword: 'Nora-Own-Pass-1' });
    assert.equal(
      relay.sent().includes(Buffer.from('Nora-Own-Pass-1')),
      false,
      `the victim tenant's person's password was sent to the rogue tenant's directory (sign-in answered ${answer.status} after ${Date.now() - started} ms)`,
    );
    // Both directories hold a "nora": the password goes to neither and the sign-in is refused like
    // a wrong password (the attack test first expected the victim's directory to be bound; which
    // directory is nora's is not for a sign-in to guess: the rogue's entry is as real as hers).
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    const failures = await admin.get<{ list: { detail: { username?: string; reason?: string; directories?: { connection: string; tenantId: string }[] } }[] }>(
      '/api/audit?action=login.failure&size=20',
    );
    const ambiguous = failures.body.data.list.find((row) => row.detail.username === 'nora');
    assert.equal(ambiguous?.detail.reason, 'directory_ambiguous', JSON.stringify(failures.body.data.list.slice(0, 3)));
    assert.deepEqual(ambiguous?.detail.directories?.map((row) => row.tenantId).sort(), [rogue.tenantId, victim.tenantId].sort());
    // Each holding tenant's administrators read it in their own audit log, about their own
    // connection: the victim's learn to synchronise; neither learns the other tenant's connection.
    for (const [holder, connection, other] of [
      [victim, 'victim-corp', rogue],
      [rogue, 'rogue', victim],
    ] as const) {
      const seen = await holder.administrator.get<{ list: { tenantId: string; targetName: string; success: boolean; detail: Record<string, unknown> }[] }>(
        '/api/audit?action=ldap.sign_in_ambiguous',
      );
      assert.equal(seen.status, 200, JSON.stringify(seen.body));
      assert.deepEqual(
        seen.body.data.list.map(({ tenantId, targetName, success, detail }) => ({ tenantId, targetName, success, detail })),
        [{ tenantId: holder.tenantId, targetName: connection, success: false, detail: { username: 'nora', entries: 1, otherDirectories: 1 } }],
        `what ${connection}'s tenant administrator reads`,
      );
      assert.ok(!JSON.stringify(seen.body).includes(other.tenantId), "another tenant's id in a tenant administrator's audit log");
    }
    // The victim tenant's synchronisation makes nora theirs: from then on her own directory decides.
    const synced = await victim.administrator.post(`/api/tenants/${victim.tenantId}/ldap/sync`);
    assert.equal(synced.status, 200, JSON.stringify(synced.body));
    const again = await nora.login('nora', 'Nora-Own-Pass-1', { directoryPassword: 'Nora-Own-Pass-1' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.match(JSON.stringify(await sessionTenant(nora)), new RegExp(victim.tenantId));
    assert.equal(relay.sent().includes(Buffer.from('Nora-Own-Pass-1')), false, "nora's password reached the rogue directory after the sync");
  } finally {
    await relay.close();
  }
});

test("a directory that never answers, in another tenant, does not hold a directory person's first sign-in for its timeouts", async () => {
  const silent = await silentDirectory();
  const slow = await tenantWithAdministrator('SilentDir');
  try {
    // Saved before the other tenants' connections are asked? Connections are asked oldest first;
    // delete and re-save the earlier ones so the silent one is first in line.
    await saveAs(slow.administrator, slow.tenantId, openLdapSettings(`ldap://127.0.0.1:${silent.port}`, '', { startTls: false }), 'silent');
    const tenants = (await admin.get<{ id: string; name: string }[]>('/api/tenants/tree')).body.data;
    for (const name of ['RogueDir', 'VictimDir']) {
      const tenant = tenants.find((row) => row.name === name);
      if (tenant) assert.equal((await admin.delete(`/api/tenants/${tenant.id}/ldap`)).status, 200);
    }
    const victim = tenants.find((row) => row.name === 'VictimDir')!;
    await saveAs(admin, victim.id, openLdapSettings(slapd.url, slapd.caPem, { baseDn: STAFF }), 'victim-corp');

    const started = Date.now();
    const answer = await server.client().login('omar', 'Omar-Own-Pass-1', { directoryPassword: 'Omar-Own-Pass-1' });
    const elapsed = Date.now() - started;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(elapsed < 6_000, `omar's sign-in waited ${elapsed} ms on another tenant's silent directory`);
    // The silent directory ran out its bound once: it is left out of the next first sign-ins (not
    // even connected to), so an unknown name answers as a known name's wrong password does, without
    // waiting for it.
    const refusedAs = async (username: string) => {
      const refused = await server.client().login(username, 'Wrong-Pass-1', { directoryPassword: 'Wrong-Pass-1' });
      return { status: refused.status, message: refused.body.message };
    };
    const connectionsBefore = silent.accepted();
    const unknown = await refusedAs('nobody-signed-in-yet');
    assert.equal(silent.accepted(), connectionsBefore, 'the silent directory was asked again (and waited for)');
    assert.deepEqual(unknown, await refusedAs('omar'));
    assert.equal(unknown.status, 401);
  } finally {
    await silent.close();
    assert.equal((await admin.delete(`/api/tenants/${slow.tenantId}/ldap`)).status, 200);
  }
});

test('a directory that cannot be reached, in any tenant, does not tell an anonymous caller which usernames exist here', async () => {
  // A tenant whose directory is down (or whose administrator points it at a closed port).
  const closed = await silentDirectory();
  const port = closed.port;
  await closed.close();
  const down = await tenantWithAdministrator('DownDir');
  await saveAs(down.administrator, down.tenantId, openLdapSettings(`ldap://127.0.0.1:${port}`, '', { startTls: false }), 'down');
  try {
    // The same wrong password for a name that exists here (a local person) and one that does not.
    const existing = await server.client().login('downdir-admin', 'Wrong-Pass-1', { directoryPassword: 'Wrong-Pass-1' });
    const unknown = await server.client().login('nobody-has-this-name', 'Wrong-Pass-1', { directoryPassword: 'Wrong-Pass-1' });
    assert.equal(existing.status, 401, JSON.stringify(existing.body));
    assert.equal(
      unknown.status,
      existing.status,
      `an unknown name answers ${unknown.status}, an existing one ${existing.status}: ${JSON.stringify(unknown.body)}`,
    );
    assert.deepEqual(unknown.body, existing.body);
  } finally {
    assert.equal((await admin.delete(`/api/tenants/${down.tenantId}/ldap`)).status, 200);
  }
});
