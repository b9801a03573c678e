// One tenant's directory against another's, attacked from outside with a real OpenLDAP
// (test/server/slapd.ts). A tenant administrator may point their tenant's connection at any
// directory the operator allows, and that directory's owner sees every bind it receives. A person of
// another tenant's directory who signs in for the first time (nobody here has their username yet)
// must not hand their password to it, and a directory that never answers must not hold the other
// tenants' first sign-ins for the length of its timeouts.
//
// The design (docs/ldap.md, "What a directory vouches for"; server/ldap/lookup.ts): only the
// directories the platform administrator allowed for first sign-ins take part (a tenant
// administrator can neither allow theirs nor move an allowed one elsewhere and keep it allowed).
// Each is first asked, at once and by its own reader account, whether it holds an entry of exactly
// the typed name; only a name held by exactly one directory has its password sent, there. A name
// held by several is refused like a wrong password and audited as directory_ambiguous (for the
// platform) and as ldap.sign_in_ambiguous in each holding tenant's own audit log, until the right
// tenant's synchronisation creates the person. A directory that does not answer within the
// bound is left out (and left out of the next sign-ins for a while); a name held by the only one
// that answered is then refused with 503 and audited as directory_unasked, not bound there: the
// silent one may be the person's own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { startServer, transform, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';
import { SUFFIX, type Slapd } from './slapd';
import { openLdapSettings, READER, recordingRelay, startDirectory } from './ldap-support';
import type { LdapConnection, LdapSettings } from '../../src/core/schemas/ldap';

const PEOPLE = `ou=people,${SUFFIX}`;
const STAFF = `ou=staff,${SUFFIX}`;
const ROGUE = `ou=rogue,${SUFFIX}`;
const entry = (uid: string, ou: string, password: string) =>
  [`dn: uid=${uid},${ou}`, 'objectClass: inetOrgPerson', `uid: ${uid}`, `cn: ${uid}`, `sn: ${uid}`, `userPassword: ${password}`].join('\n');

let server: TestServer;
let slapd: Slapd;
let admin: Client;
let rogue: { tenantId: string; administrator: Client };
let victim: { tenantId: string; administrator: Client };
let relay: Awaited<ReturnType<typeof recordingRelay>>;

before(async () => {
  [server, slapd] = await Promise.all([
    startServer({ outboundAllow: ['127.0.0.1'] }),
    startDirectory({
      ldif: [
        // The victim tenant's people.
        entry('nora', PEOPLE, 'Nora-Own-Pass-1'),
        entry('nell', PEOPLE, 'Nell-Own-Pass-1'),
        `dn: ${STAFF}\nobjectClass: organizationalUnit\nou: staff`,
        entry('omar', STAFF, 'Omar-Own-Pass-1'),
        entry('olga', STAFF, 'Olga-Own-Pass-1'),
        // What the rogue tenant's administrator put in the directory they run: entries named like
        // people of other tenants, with passwords of their choosing.
        `dn: ${ROGUE}\nobjectClass: organizationalUnit\nou: rogue`,
        entry('nora', ROGUE, 'rogue-chosen-1'),
        entry('nell', ROGUE, 'rogue-chosen-1'),
      ].join('\n\n'),
    }),
  ]);
  admin = await server.admin();
  // The rogue tenant's administrator points their connection at a directory they run (through a
  // relay that keeps what it receives). The victim tenant's administrator connects theirs, and the
  // platform administrator lets it take part in first sign-ins.
  rogue = await tenantWithAdministrator('RogueDir');
  relay = await recordingRelay(slapd.port);
  await saveAs(rogue.administrator, rogue.tenantId, openLdapSettings(`ldap://127.0.0.1:${relay.port}`, '', { startTls: false, baseDn: ROGUE }), 'rogue');
  victim = await tenantWithAdministrator('VictimDir');
  await saveAs(victim.administrator, victim.tenantId, openLdapSettings(slapd.url, slapd.caPem, { baseDn: PEOPLE }), 'victim-corp');
  await allowFirstSignIns(victim.tenantId);
});

after(async () => {
  await relay?.close();
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
  const saved = await client.put<LdapConnection>(`/api/tenants/${tenantId}/ldap`, { name, enabled: true, settings, bindSecret: READER.secret });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  return saved.body.data;
}

/** The tenant's stored connection saved again by `client`, with `change`. */
async function resave(client: Client, tenantId: string, change: { firstSignIn?: boolean; settings?: Partial<LdapSettings> }, headers?: Record<string, string>) {
  const { name, enabled, settings } = (await admin.get<LdapConnection>(`/api/tenants/${tenantId}/ldap`)).body.data;
  const body = {
    name,
    enabled,
    settings: { ...settings, ...change.settings },
    bindSecret: READER.secret,
    ...('firstSignIn' in change ? { firstSignIn: change.firstSignIn } : {}),
  };
  return client.put<LdapConnection>(`/api/tenants/${tenantId}/ldap`, body, headers);
}

/** The platform administrator lets the tenant's directory take part in first sign-ins. */
async function allowFirstSignIns(tenantId: string) {
  const allowed = await resave(admin, tenantId, { firstSignIn: true });
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  assert.equal(allowed.body.data.firstSignIn, true);
}

const firstSignInOf = async (tenantId: string) => (await admin.get<LdapConnection>(`/api/tenants/${tenantId}/ldap`)).body.data.firstSignIn;

interface LoginFailure {
  detail: {
    username?: string;
    reason?: string;
    directories?: { connection: string; tenantId: string }[];
    holder?: { tenantId: string };
    unasked?: { tenantId: string }[];
  };
}
const lastLoginFailureOf = async (username: string) =>
  (await admin.get<{ list: LoginFailure[] }>('/api/audit?action=login.failure&size=20')).body.data.list.find((row) => row.detail.username === username);

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
const directoryLogin = (client: Client, username: string, password: string) => client.login(username, password, { directoryPassword: password });

test('a tenant administrator cannot let their directory take part in first sign-ins, and a directory that does not take part is not asked', async () => {
  const saved = await saveAs(
    rogue.administrator,
    rogue.tenantId,
    openLdapSettings(`ldap://127.0.0.1:${relay.port}`, '', { startTls: false, baseDn: ROGUE }),
    'rogue',
  );
  assert.equal(saved.firstSignIn, false, 'a new connection takes part in first sign-ins only once the platform administrator allows it');
  const refused = await resave(rogue.administrator, rogue.tenantId, { firstSignIn: true });
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.equal(refused.body.message, 'Only the platform administrator decides which directories are asked at first sign-ins');
  const inChinese = await resave(rogue.administrator, rogue.tenantId, { firstSignIn: true }, { 'accept-language': 'zh-CN' });
  assert.equal(inChinese.status, 403, JSON.stringify(inChinese.body));
  assert.equal(inChinese.body.message, '只有平台管理员可以决定首次登录时询问哪些目录');
  assert.equal(await firstSignInOf(rogue.tenantId), false);

  // nell is in both directories: the victim's, which takes part, alone is asked, and signs her in.
  const nell = server.client();
  const answer = await directoryLogin(nell, 'nell', 'Nell-Own-Pass-1');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.match(JSON.stringify(await sessionTenant(nell)), new RegExp(victim.tenantId));
  assert.equal(relay.sent().length, 0, 'the directory the platform administrator did not allow was asked at a first sign-in');
});

test("a person signing in for the first time does not hand their password to another tenant's directory that claims their username", async () => {
  // The hardest case: the platform administrator allowed the rogue tenant's directory too.
  await allowFirstSignIns(rogue.tenantId);
  const nora = server.client();
  const started = Date.now();
  const answer = await directoryLogin(nora, 'nora', 'Nora-Own-Pass-1');
  assert.equal(
    relay.sent().includes(Buffer.from('Nora-Own-Pass-1')),
    false,
    `the victim tenant's person's password was sent to the rogue tenant's directory (sign-in answered ${answer.status} after ${Date.now() - started} ms)`,
  );
  // Both directories hold a "nora": the password goes to neither and the sign-in is refused like
  // a wrong password (the attack test first expected the victim's directory to be bound; which
  // directory is nora's is not for a sign-in to guess: the rogue's entry is as real as hers).
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  const ambiguous = await lastLoginFailureOf('nora');
  assert.equal(ambiguous?.detail.reason, 'directory_ambiguous', JSON.stringify(ambiguous));
  assert.deepEqual(ambiguous.detail.directories?.map((row) => row.tenantId).sort(), [rogue.tenantId, victim.tenantId].sort());
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
  const again = await directoryLogin(nora, 'nora', 'Nora-Own-Pass-1');
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.match(JSON.stringify(await sessionTenant(nora)), new RegExp(victim.tenantId));
  assert.equal(relay.sent().includes(Buffer.from('Nora-Own-Pass-1')), false, "nora's password reached the rogue directory after the sync");
});

test('a tenant administrator who points an allowed connection at another directory takes it out of first sign-ins; their other saves keep it', async () => {
  await allowFirstSignIns(rogue.tenantId);
  const kept = await resave(rogue.administrator, rogue.tenantId, { settings: { syncIntervalMinutes: 60 } });
  assert.equal(kept.status, 200, JSON.stringify(kept.body));
  assert.equal(kept.body.data.firstSignIn, true, "a tenant administrator's save that leaves the setting out keeps it");
  const unchanged = await resave(rogue.administrator, rogue.tenantId, { firstSignIn: true });
  assert.equal(unchanged.status, 200, JSON.stringify(unchanged.body));
  // The platform allowed the directory at that address, not whichever one the connection names next.
  const moved = await resave(rogue.administrator, rogue.tenantId, { settings: { url: `ldap://127.0.0.1:${slapd.port}` } });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.equal(moved.body.data.firstSignIn, false);
  assert.equal(await firstSignInOf(rogue.tenantId), false);
});

test("a silent directory the platform did not allow holds nobody's first sign-in; while an allowed one is silent, a name only another holds is refused, not bound", async () => {
  const silent = await silentDirectory();
  const slow = await tenantWithAdministrator('SilentDir');
  try {
    await saveAs(slow.administrator, slow.tenantId, openLdapSettings(`ldap://127.0.0.1:${silent.port}`, '', { startTls: false }), 'silent');
    // Beside it only the victim's directory, now reading the staff (omar and olga).
    assert.equal((await admin.delete(`/api/tenants/${rogue.tenantId}/ldap`)).status, 200);
    assert.equal((await resave(admin, victim.tenantId, { settings: { baseDn: STAFF } })).status, 200);

    assert.equal((await directoryLogin(server.client(), 'omar', 'Omar-Own-Pass-1')).status, 200);
    assert.equal(silent.accepted(), 0, 'a directory the platform administrator did not allow was asked (and waited for)');

    // Allowed by the platform, the silent directory may be olga's own: her password goes nowhere.
    await allowFirstSignIns(slow.tenantId);
    const started = Date.now();
    const olga = await directoryLogin(server.client(), 'olga', 'Olga-Own-Pass-1');
    const elapsed = Date.now() - started;
    assert.equal(olga.status, 503, JSON.stringify(olga.body));
    assert.equal(olga.body.message, 'A directory could not be asked whether it holds this name; try again shortly');
    assert.ok(elapsed < 6_000, `olga's sign-in waited ${elapsed} ms on a silent directory`);
    const unasked = await lastLoginFailureOf('olga');
    assert.equal(unasked?.detail.reason, 'directory_unasked', JSON.stringify(unasked));
    assert.equal(unasked.detail.holder?.tenantId, victim.tenantId);
    assert.deepEqual(
      unasked.detail.unasked?.map((row) => row.tenantId),
      [slow.tenantId],
    );
    // The silent directory ran out its bound once: it is left out of the next first sign-ins (not
    // even connected to), so an unknown name answers as a known name's wrong password does, without
    // waiting for it.
    const refusedAs = async (username: string) => {
      const refused = await directoryLogin(server.client(), username, 'Wrong-Pass-1');
      return { status: refused.status, message: refused.body.message };
    };
    const connectionsBefore = silent.accepted();
    const unknown = await refusedAs('nobody-signed-in-yet');
    assert.equal(silent.accepted(), connectionsBefore, 'the silent directory was asked again (and waited for)');
    assert.deepEqual(unknown, await refusedAs('omar'));
    assert.equal(unknown.status, 401);
    // The platform's to fix: with the silent directory out of first sign-ins, olga signs in.
    assert.equal((await resave(admin, slow.tenantId, { firstSignIn: false })).status, 200);
    const fixed = await directoryLogin(server.client(), 'olga', 'Olga-Own-Pass-1');
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
  } finally {
    await silent.close();
    assert.equal((await admin.delete(`/api/tenants/${slow.tenantId}/ldap`)).status, 200);
  }
});

test('a directory that cannot be reached, in any tenant, does not tell an anonymous caller which usernames exist here', async () => {
  // A tenant whose directory, allowed at first sign-ins, is down.
  const closed = await silentDirectory();
  const port = closed.port;
  await closed.close();
  const down = await tenantWithAdministrator('DownDir');
  await saveAs(down.administrator, down.tenantId, openLdapSettings(`ldap://127.0.0.1:${port}`, '', { startTls: false }), 'down');
  await allowFirstSignIns(down.tenantId);
  try {
    // The same wrong password for a name that exists here (a local person) and one that does not.
    const existing = await directoryLogin(server.client(), 'downdir-admin', 'Wrong-Pass-1');
    const unknown = await directoryLogin(server.client(), 'nobody-has-this-name', 'Wrong-Pass-1');
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
