// An outside attacker's view of the CSV import's tenant column (a tenant named by id, name or path
// of names, server/services/user-import-tenants.ts), as a tenant administrator: the same name inside
// and outside their subtree, an ambiguous name, a path that starts above their tenant, letter case,
// spaces and hostile cells. Nobody lands outside the importer's subtree or in a tenant they did not
// name unambiguously.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { until } from './receivers';
import { createTenant } from './scim-support';

const PASSWORD = 'Import1pass';
let server: TestServer;
let admin: Client;
let importer: Client;
const tenants: Record<string, string> = {};

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const own = await createTenant(admin, 'Names_Own');
  const other = await createTenant(admin, 'Names_Other');
  // The same names inside the importer's subtree (twice) and outside it.
  tenants.own = own.id;
  tenants.ownSales = (await createTenant(admin, 'Sales', own.id)).id;
  tenants.ownSalesEmea = (await createTenant(admin, 'EMEA', tenants.ownSales)).id;
  tenants.ownSupport = (await createTenant(admin, 'Support', own.id)).id;
  tenants.ownSupportEmea = (await createTenant(admin, 'EMEA', tenants.ownSupport)).id;
  tenants.other = other.id;
  tenants.otherSales = (await createTenant(admin, 'Sales', other.id)).id;
  tenants.otherSalesEmea = (await createTenant(admin, 'EMEA', tenants.otherSales)).id;
  tenants.otherOnly = (await createTenant(admin, 'Only_There', other.id)).id;
  const made = await admin.post('/api/user', { username: 'names-boss', realName: 'Boss', password: transform(PASSWORD), tenantId: own.id, isAdmin: true });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  importer = server.client();
  assert.equal((await importer.login('names-boss', PASSWORD)).body.data?.loginSuccess, true);
});
after(() => server.stop());

async function runImport(text: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'users.csv');
  const started = await importer.request<{ id: string; status: string }>('POST', '/api/user/import?mode=apply', form);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  await until(
    async () => {
      const job = (await importer.get<{ status: string }>(`/api/user/import/${started.body.data.id}`)).body.data;
      return job.status === 'running' ? undefined : job;
    },
    'the import job',
    30_000,
  );
}

const tenantOf = async (username: string) =>
  (await server.app.ctx.db.selectFrom('users').select('tenantId').where('username', '=', username).executeTakeFirst())?.tenantId ?? null;

test('names and paths resolve inside the importer’s subtree only; an ambiguous or outside name places nobody', async () => {
  const rows: [string, string, string | null][] = [
    ['names-ambiguous', 'EMEA', null],
    ['names-path', 'Sales/EMEA', tenants.ownSalesEmea!],
    ['names-case-space', ' sales / emea ', tenants.ownSalesEmea!],
    ['names-from-top', 'Names_Own/Support/EMEA', tenants.ownSupportEmea!],
    ['names-outside-path', 'Names_Other/Sales/EMEA', null],
    ['names-outside-only', 'Only_There', null],
    ['names-sales', 'Sales', tenants.ownSales!],
    ['names-above', 'Names_Own/../Names_Other', null],
    ['names-formula', '=HYPERLINK("http://evil.example/","x")', null],
  ];
  await runImport(['username,realName,tenantId', ...rows.map(([username, cell]) => `${username},Names_Person,"${cell.replace(/"/g, '""')}"`)].join('\n'));
  const placed: Record<string, string | null> = {};
  for (const [username] of rows) placed[username] = await tenantOf(username);
  assert.deepEqual(placed, Object.fromEntries(rows.map(([username, , expected]) => [username, expected])));
  const outside = await server.app.ctx.db
    .selectFrom('users')
    .select('username')
    .where('tenantId', 'in', [tenants.other!, tenants.otherSales!, tenants.otherSalesEmea!, tenants.otherOnly!])
    .execute();
  assert.deepEqual(outside, [], 'nobody was placed in the other tenant');
});
