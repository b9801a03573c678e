// The audit log screen's calls: filters (time range, actor, event type, tenant subtree) and server
// paging; the CSV export streamed in batches with formula cells neutralised; and a tenant
// administrator's reach (their subtree only, in the list and in the export, whatever they ask for).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { PROBE_PASSWORD, seedTwoSides, type TwoSides } from './security-support';

interface Entry {
  id: number;
  at: number;
  action: string;
  actorName: string | null;
  tenantId: string | null;
}
interface Page {
  list: Entry[];
  pager: { total: number };
}

let server: TestServer;
let admin: Client;
let tenantAdminA: Client;
let sides: TwoSides;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  sides = await seedTwoSides(server, admin);
  tenantAdminA = server.client();
  assert.equal((await tenantAdminA.login('side-a-admin', PROBE_PASSWORD)).body.data?.loginSuccess, true);
  // Events a spreadsheet would run as formulas: names and addresses that came from outside.
  const { audit } = server.app.ctx;
  await audit.standalone({
    action: 'user.update',
    actor: { id: 'hostile', username: "=cmd|' /C calc'!A0" },
    tenantId: sides.tenantA.id,
    ip: '@SUM(1+1)',
    detail: { note: 'a "quoted", multi\nline note' },
  });
  await audit.standalone({ action: 'user.update', actor: { id: 'hostile', username: '+1+1' }, tenantId: sides.tenantB.id, ip: '-2+3' });
});
after(async () => {
  await server.stop();
});

const page = async (client: Client, query: string): Promise<Page> => {
  const answer = await client.get<Page>(`/api/audit?${query}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
};

const exported = async (client: Client, query = ''): Promise<{ status: number; type: string | null; lines: string[] }> => {
  const response = await client.raw('GET', `/api/audit/export?${query}`);
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    lines: text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean),
  };
};

test('the list filters by event type, actor, time range and tenant subtree, paged on the server', async () => {
  const created = await page(admin, 'action=tenant.create&size=100');
  assert.ok(created.list.length >= 2 && created.list.every((entry) => entry.action === 'tenant.create'));
  const byActor = await page(admin, 'actor=CMD&size=100');
  assert.deepEqual(
    byActor.list.map((entry) => entry.actorName),
    ["=cmd|' /C calc'!A0"],
  );
  const ofB = await page(admin, `tenantId=${sides.tenantB.id}&size=100`);
  assert.ok(ofB.list.length >= 2 && ofB.list.every((entry) => entry.tenantId === sides.tenantB.id));

  const all = await page(admin, 'size=100');
  const times = all.list.map((entry) => entry.at);
  assert.deepEqual(
    [...times].sort((a, b) => b - a),
    times,
    'newest first',
  );
  const later = server.clock.now() + 60_000;
  server.clock.advance(120_000);
  const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((tenant) => tenant.parentId === null)!;
  assert.equal((await admin.post('/api/tenants', { parentId: root.id, name: 'Later_Tenant', type: 'company' })).status, 200);
  const recent = await page(admin, `from=${later}&size=100`);
  assert.ok(recent.list.length >= 1 && recent.list.every((entry) => entry.at >= later));
  const before = await page(admin, `to=${later}&size=100`);
  assert.equal(before.pager.total + recent.pager.total, (await page(admin, 'size=1')).pager.total);

  const now = await page(admin, 'size=100');
  const first = await page(admin, 'size=3&page=1');
  const second = await page(admin, 'size=3&page=2');
  assert.equal(first.list.length, 3);
  assert.equal(first.pager.total, now.pager.total);
  assert.deepEqual(
    second.list.map((entry) => entry.id),
    now.list.slice(3, 6).map((entry) => entry.id),
  );
});

test('bad filters are refused with the field named', async () => {
  const answer = await admin.get<{ fields: { field: string }[] }>('/api/audit?action=drop.tables&from=yesterday');
  assert.equal(answer.status, 400);
  assert.deepEqual(answer.body.data.fields.map((field) => field.field).sort(), ['action', 'from']);
});

test("a tenant administrator reads only their subtree's events, whatever tenant they ask for", async () => {
  const theirs = await page(tenantAdminA, 'size=100');
  assert.ok(theirs.list.length >= 2);
  assert.ok(
    theirs.list.every((entry) => entry.tenantId === sides.tenantA.id),
    JSON.stringify(theirs.list),
  );
  assert.equal((await page(tenantAdminA, `tenantId=${sides.tenantB.id}`)).pager.total, 0);
  assert.equal((await page(tenantAdminA, 'actor=%2B1')).pager.total, 0, "an actor search does not reach tenant B's events");
  const csv = await exported(tenantAdminA, `tenantId=${sides.tenantB.id}`);
  assert.equal(csv.status, 200);
  assert.equal(csv.lines.length, 1, 'only the header');
  const own = await exported(tenantAdminA);
  assert.equal(own.lines.length, theirs.pager.total + 1);
  assert.ok(
    own.lines.every((line) => !line.includes('Zeta')),
    own.lines.join('\n'),
  );
});

test('the export is CSV with formula cells neutralised, in batches, as many rows as the list counts', async () => {
  const csv = await exported(admin, 'actor=cmd');
  assert.equal(csv.status, 200);
  assert.match(csv.type ?? '', /^text\/csv/);
  assert.equal(csv.lines[0], 'time,actor,event,success,target type,target,target name,tenant,ip,detail,id,part of');
  // The actor's name and the address start with an apostrophe; the quoted note keeps its line break.
  const record = csv.lines.slice(1).join('\r\n');
  assert.match(record, /,'=cmd\|' \/C calc'!A0,user\.update,yes,/);
  assert.match(record, /,'@SUM\(1\+1\),"\{""note"":""a \\""quoted\\"", multi\\nline note""\}",\d+,$/);
  const plus = await exported(admin, 'actor=%2B1');
  assert.match(plus.lines[1]!, /,'\+1\+1,.*,'-2\+3,,\d+,$/);

  // Over a thousand events, many at the same millisecond: every one exported exactly once.
  const at = server.clock.now();
  await server.app.ctx.db
    .insertInto('auditLog')
    .values(
      Array.from({ length: 1200 }, (_, index) => ({
        at: at + (index % 3),
        actorId: null,
        actorName: `bulk-${index}`,
        action: 'file.upload',
        targetType: null,
        targetId: null,
        tenantId: null,
        ip: null,
        success: 1,
        detail: '{}',
      })),
    )
    .execute();
  const many = await exported(admin, 'action=file.upload');
  const names = many.lines.slice(1).map((line) => line.split(',')[1]);
  assert.equal(names.length, 1200);
  assert.equal(new Set(names).size, 1200);
  assert.equal((await page(admin, 'action=file.upload')).pager.total, 1200);
});
