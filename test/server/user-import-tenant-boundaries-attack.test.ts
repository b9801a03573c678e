// The CSV import (POST /api/user/import) by a tenant administrator: a row may not place anyone in a
// tenant they do not administer (a sibling's id, the root's id, the sibling's name or path in the
// tenantId column), nor update a person of another tenant named by username (in any letter case),
// nor make anyone an administrator with an extra column; another administrator cannot read the job.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { until } from './receivers';
import { createTenant, rootTenantId } from './scim-support';

let server: TestServer;
let admin: Client;
let importer: Client;
let own: { id: string };
let sibling: { id: string; name: string };

const PASSWORD = 'Import1pass';

before(async () => {
  server = await startServer();
  admin = await server.admin();
  own = await createTenant(admin, 'Import_Own');
  sibling = await createTenant(admin, 'Import_Sibling');
  for (const [username, tenantId, isAdmin] of [
    ['import-boss', own.id, true],
    ['import-victim', sibling.id, false],
    ['import-other-boss', sibling.id, true],
  ] as const) {
    const made = await admin.post('/api/user', {
      username,
      realName: username.replace(/-/g, '_'),
      password: transform(PASSWORD),
      tenantId,
      isAdmin,
      email: `${username}@corp.example`,
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  }
  importer = server.client();
  assert.equal((await importer.login('import-boss', PASSWORD)).body.data?.loginSuccess, true);
});
after(async () => {
  await server.stop();
});

interface Job {
  id: string;
  status: string;
}

async function runImport(client: Client, text: string): Promise<Job> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'users.csv');
  const started = await client.request<Job>('POST', '/api/user/import?mode=apply', form);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  return until(
    async () => {
      const job = (await client.get<Job>(`/api/user/import/${started.body.data.id}`)).body.data;
      return job.status === 'running' ? undefined : job;
    },
    'the import job',
    30_000,
  );
}

const rowOf = (username: string) =>
  server.app.ctx.db.selectFrom('users').select(['id', 'tenantId', 'isAdmin', 'realName', 'username']).where('username', '=', username).executeTakeFirst();

test("rows naming another tenant (its id, the root's id, its name, its path) or another tenant's person place nobody outside the importer's tenant", async () => {
  const root = await rootTenantId(admin);
  const csv = [
    'username,realName,tenantId,isAdmin,userType,isMaster',
    `imp-a1,Imp_A1,${sibling.id},1,0,1`,
    `imp-a2,Imp_A2,${root},true,0,1`,
    `imp-a3,Imp_A3,${sibling.name},,,`,
    `imp-a4,Imp_A4,/${root}/${sibling.id}/,,,`,
    `import-victim,Imp_Moved,${own.id},,,`,
    `IMPORT-VICTIM,Imp_Twin,${sibling.id},,,`,
    `imp-a5,Imp_A5,,1,0,1`,
  ].join('\n');
  const job = await runImport(importer, csv);
  assert.notEqual(job.status, 'running');
  for (const name of ['imp-a1', 'imp-a2', 'imp-a3', 'imp-a4', 'imp-a5', 'IMPORT-VICTIM']) {
    const row = await rowOf(name);
    if (row) {
      assert.equal(row.tenantId, own.id, `${name} was placed in ${row.tenantId}`);
      assert.equal(row.isAdmin, 0, `${name} was made an administrator`);
    }
  }
  assert.equal((await rowOf('imp-a5'))?.tenantId, own.id, 'the plain row was imported (the file was read)');
  const victim = await rowOf('import-victim');
  assert.equal(victim?.tenantId, sibling.id, "another tenant's person was moved");
  assert.equal(victim?.realName, 'import_victim', "another tenant's person was changed");
  const siblingPeople = await server.app.ctx.db.selectFrom('users').select('username').where('tenantId', '=', sibling.id).execute();
  assert.deepEqual(siblingPeople.map((row) => row.username).sort(), ['import-other-boss', 'import-victim']);
});

test("another tenant's administrator cannot read the importer's job (404)", async () => {
  const job = await runImport(importer, 'username,realName\nimp-b1,Imp_B1');
  const other = server.client();
  assert.equal((await other.login('import-other-boss', PASSWORD)).body.data?.loginSuccess, true);
  assert.equal((await other.get(`/api/user/import/${job.id}`)).status, 404);
  assert.equal((await admin.get(`/api/user/import/${job.id}`)).status, 404, 'even the platform administrator reads only their own jobs');
});
