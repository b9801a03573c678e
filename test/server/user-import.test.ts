// Users as CSV: a check lists every refused row with its field and rule and writes nothing; the
// import creates what the check said, refuses the same rows, and a second run changes nothing
// (matched by username); edits in the file update people; malformed files are refused whole with a
// clear rule (encoding, columns, syntax, even far into the file); a tenant administrator's import and export
// stay within their subtree; the export follows the list's filter and order, neutralises
// formula-like cells, and can be imported again unchanged; the tenant column takes a name or a path
// (the example of docs/webhooks.md, run as written).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { startServer, transform, type Client, type TestServer } from './harness';
import { until } from './receivers';
import { createTenant } from './scim-support';
import { AMBIGUOUS_TENANT, UNKNOWN_TENANT } from '../../server/services/user-import-tenants';
import { readFileSync } from 'node:fs';
import type { ImportJob } from '../../src/core/schemas/user-import';
import type { PagedList, User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
let rootId: string;

async function ok<T>(answer: Promise<{ status: number; body: { data: T } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data;
}

const upload = (client: Client, text: string | Uint8Array, mode: 'check' | 'apply', headers?: Record<string, string>) => {
  const form = new FormData();
  form.append('file', new Blob([text as BlobPart], { type: 'text/csv' }), 'users.csv');
  return client.request<ImportJob & { fields?: { field: string; rule: string }[] }>('POST', `/api/user/import?mode=${mode}`, form, headers);
};

/** Runs a check or an import to its end; answers the finished job. */
async function run(client: Client, text: string, mode: 'check' | 'apply'): Promise<ImportJob> {
  const started = await upload(client, text, mode);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  return until(
    async () => {
      const job = await ok(client.get<ImportJob>(`/api/user/import/${started.body.data.id}`), 'job');
      return job.status === 'running' ? undefined : job;
    },
    `the ${mode} job`,
    30_000,
  );
}

const rootTenant = async (client: Client) =>
  (await ok(client.get<{ id: string; name: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!;

const userNamed = async (client: Client, username: string) =>
  (await ok(client.get<PagedList<User>>(`/api/user?searchProp=username&searchValue=${username}`), username)).list.find((user) => user.username === username);

const exported = async (client: Client, query = '') => {
  const response = await client.raw('GET', `/api/user/export${query}`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  return { text, bytes, rows: parse<Record<string, string>>(text, { bom: true, columns: true }) };
};

before(async () => {
  server = await startServer();
  admin = await server.admin();
  rootId = (await ok(admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!.id;
});
after(() => server.stop());

const FILE = [
  '\uFEFFusername,realName,email,mobilePhone,description,availabilityStatus,notes',
  'csv-ada,Ada_Lovelace,ada@example.com,13800000001,First programmer,enabled,ignored column',
  'csv-bob,Bob_Builder,,,,disabled,',
  'csv-cy,Cy_Young,cy@example.com,13800000003,"Pitcher, retired",,',
  'csv-bad,X,not-an-email,123,,sometimes,',
  'csv-ada,Ada_Again,ada2@example.com,,,,',
  'a,Short_Name,,,,,',
].join('\r\n');

describe('import', () => {
  test('a check reports every row’s problems and writes nothing', async () => {
    const job = await run(admin, FILE, 'check');
    assert.equal(job.status, 'done');
    assert.deepEqual(
      { total: job.total, processed: job.processed, created: job.created, updated: job.updated, failed: job.failed },
      { total: 6, processed: 6, created: 3, updated: 0, failed: 3 },
    );
    assert.deepEqual(job.problems, [
      { row: 5, username: 'csv-bad', field: 'realName', rule: 'rule.realName' },
      { row: 5, username: 'csv-bad', field: 'email', rule: 'rule.email' },
      { row: 5, username: 'csv-bad', field: 'mobilePhone', rule: 'rule.phone' },
      { row: 5, username: 'csv-bad', field: 'availabilityStatus', rule: 'rule.availabilityStatus' },
      { row: 6, username: 'csv-ada', field: 'username', rule: 'rule.duplicate' },
      { row: 7, username: 'a', field: 'username', rule: 'rule.username' },
    ]);
    assert.equal(await userNamed(admin, 'csv-ada'), undefined, 'a check writes nothing');
  });

  test('the import creates the good rows, refuses the others, and a second run changes nothing', async () => {
    const first = await run(admin, FILE, 'apply');
    assert.deepEqual([first.status, first.created, first.updated, first.unchanged, first.failed], ['done', 3, 0, 0, 3]);
    assert.equal(first.problems.length, 6);
    const ada = (await userNamed(admin, 'csv-ada'))!;
    assert.deepEqual(
      [ada.realName, ada.email, ada.mobilePhone, ada.description, ada.availabilityStatus, ada.tenantId],
      ['Ada_Lovelace', 'ada@example.com', '13800000001', 'First programmer', 1, rootId],
    );
    assert.equal((await userNamed(admin, 'csv-bob'))!.availabilityStatus, 2);
    assert.equal((await userNamed(admin, 'csv-cy'))!.description, 'Pitcher, retired');
    // No usable password: signing in with anything fails.
    assert.notEqual((await server.client().login('csv-ada', '')).body.data?.loginSuccess, true);
    const audit = await ok(admin.get<PagedList<{ targetId: string; detail: { import?: string } }>>('/api/audit?action=user.create&size=100'), 'audit');
    assert.ok(
      audit.list.some((entry) => entry.targetId === ada.id && entry.detail.import === first.id),
      'each created person is in the audit log',
    );

    const again = await run(admin, FILE, 'apply');
    assert.deepEqual([again.created, again.updated, again.unchanged, again.failed], [0, 0, 3, 3]);
    assert.deepEqual(again.problems, first.problems);
    const page = await ok(admin.get<PagedList<User>>('/api/user?searchProp=username&searchValue=csv-'), 'list');
    assert.equal(page.pager.total, 3, 'nobody twice');
  });

  test('edits in the file update people; an empty cell of a column in the file clears it, a column left out keeps it', async () => {
    const file = 'username,realName,email,description\ncsv-ada,Ada_King,ada@example.com,\ncsv-cy,Cy_Young,cy@example.com,"Pitcher, retired"\n';
    const job = await run(admin, file, 'apply');
    assert.deepEqual([job.created, job.updated, job.unchanged, job.failed], [0, 1, 1, 0]);
    const ada = (await userNamed(admin, 'csv-ada'))!;
    assert.deepEqual([ada.realName, ada.email, ada.mobilePhone, ada.description], ['Ada_King', 'ada@example.com', '13800000001', undefined]);
  });

  test("an existing person's phone or email (the importer's own included) is not changed by an import: the row is refused, pointing to the dialog that asks for the password", async () => {
    const me = (await ok(admin.get<{ user: { id: string; username: string } }>('/api/cas/session'), 'session')).user;
    const own = await ok(admin.get<User>(`/api/user/${me.id}`), 'own record');
    const file = `username,realName,email,mobilePhone\ncsv-ada,Ada_King,,13800000009\n${own.username},${own.realName},owner-${Date.now()}@example.com,${own.mobilePhone ?? ''}\n`;
    for (const mode of ['check', 'apply'] as const) {
      const job = await run(admin, file, mode);
      assert.deepEqual([job.updated, job.failed], [0, 2], mode);
      const others = "An import does not change an existing person's phone or email: change it in their user dialog (it asks for your password)";
      assert.deepEqual(job.problems, [
        { row: 2, username: 'csv-ada', field: 'email', rule: others },
        { row: 2, username: 'csv-ada', field: 'mobilePhone', rule: others },
        { row: 3, username: own.username, field: 'email', rule: 'An import does not change your own phone or email: change it in your profile' },
      ]);
    }
    const ada = (await userNamed(admin, 'csv-ada'))!;
    assert.deepEqual([ada.email, ada.mobilePhone], ['ada@example.com', '13800000001'], 'unchanged');
    assert.equal((await ok(admin.get<User>(`/api/user/${me.id}`), 'own record')).email, own.email);
  });

  test('an address another account holds is refused on its row', async () => {
    const job = await run(admin, 'username,realName,email\ncsv-dan,Dan_Brown,CY@example.com\ncsv-eve,Eve_Online,eve@example.com\n', 'apply');
    assert.deepEqual([job.created, job.failed], [1, 1]);
    assert.deepEqual(job.problems, [{ row: 2, username: 'csv-dan', field: 'email', rule: 'rule.emailTaken' }]);
  });

  test("the tenant column takes a tenant's name or path (docs/webhooks.md's example, run as written), and names what it expects", async () => {
    const sales = await createTenant(admin, 'Sales');
    const emea = await createTenant(admin, 'EMEA', sales.id);
    await createTenant(admin, 'EMEA', (await createTenant(admin, 'Support')).id);
    const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const example = /<!-- import-example:start -->\s*```csv\n([\s\S]*?)```\s*<!-- import-example:end -->/.exec(doc)?.[1];
    assert.ok(example, 'docs/webhooks.md has the import example between its markers');
    const job = await run(admin, example, 'apply');
    assert.deepEqual([job.created, job.failed], [2, 1], JSON.stringify(job.problems));
    assert.equal((await userNamed(admin, 'li_lei'))?.tenantId, emea.id);
    assert.equal((await userNamed(admin, 'han_meimei'))?.tenantId, sales.id);
    assert.deepEqual(job.problems, [{ row: 4, username: 'wang_fang', field: 'tenantId', rule: AMBIGUOUS_TENANT }]);
    // The root's name may lead the path; an unknown name is refused with what the column expects.
    const more = await run(
      admin,
      `username,realName,tenantId\nzhao_lei,Zhao_Lei,${(await rootTenant(admin)).name}/Support/EMEA\nqian_li,Qian_Li,Marketing\n`,
      'check',
    );
    assert.deepEqual([more.created, more.failed], [1, 1]);
    assert.deepEqual(more.problems, [{ row: 3, username: 'qian_li', field: 'tenantId', rule: UNKNOWN_TENANT }]);
  });

  test('malformed files are refused whole, each with its rule', async () => {
    const latin1 = Uint8Array.from([...Buffer.from('username,realName\ncsv-zoe,Zo'), 0xe9, 0x0a]);
    const cases: [string | Uint8Array, string][] = [
      [latin1, 'rule.csvEncoding'],
      [Buffer.from('username,realName\n\u0000\u0001', 'utf8'), 'rule.csvEncoding'],
      ['username,email\ncsv-x,x@example.com\n', 'rule.csvColumns?columns=realName'],
      ['name,mail\n', 'rule.csvColumns?columns=username,realName'],
      ['username,realName,username\n', 'rule.csvColumns?columns=username'],
      ['', 'rule.csvEmpty'],
      ['username,realName\ncsv-q,"unterminated\n', 'rule.csvSyntax?line=2'],
      // Refused whatever comes before: a bad byte or a syntax error far into the file.
      [`username,realName\n${'csv-row,Row_Name\n'.repeat(3000)}csv-q,"unterminated\n`, 'rule.csvSyntax?line=3002'],
      [Buffer.concat([Buffer.from(`username,realName\n${'csv-row,Row_Name\n'.repeat(3000)}`), Buffer.from([0xe9, 0x0a])]), 'rule.csvEncoding'],
    ];
    for (const [text, rule] of cases) {
      const answer = await upload(admin, text, 'check');
      assert.equal(answer.status, 400, rule);
      assert.deepEqual(answer.body.data.fields, [{ field: 'file', rule }]);
    }
    assert.equal((await admin.request('POST', '/api/user/import?mode=check', new FormData())).status, 400, 'no file');
    assert.equal((await admin.request('POST', '/api/user/import?mode=delete', new FormData())).status, 400, 'unknown mode');
  });

  test('10 000 rows: progress is reported while the import runs', async () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => `csv-bulk-${index},Bulk_User,bulk${index}@example.com`);
    const started = await upload(admin, `username,realName,email\n${rows.join('\n')}\n`, 'apply');
    assert.equal(started.status, 200);
    const seen = new Set<number>();
    const job = await until(
      async () => {
        const current = await ok(admin.get<ImportJob>(`/api/user/import/${started.body.data.id}`), 'job');
        seen.add(current.processed);
        return current.status === 'running' ? undefined : current;
      },
      'the large import',
      120_000,
    );
    assert.deepEqual([job.status, job.created, job.failed, job.processed], ['done', 10_000, 0, 10_000]);
    assert.ok(
      [...seen].some((processed) => processed > 0 && processed < 10_000),
      `progress between: ${[...seen].join(', ')}`,
    );
  });
});

describe('tenant scope and export', () => {
  test('a tenant administrator imports and exports within their subtree only', async () => {
    const tenant = (name: string) => ok(admin.post<{ id: string }>('/api/tenants', { parentId: rootId, name, type: 'company' }), name);
    const north = await tenant('Csv_North');
    const south = await tenant('Csv_South');
    await ok(
      admin.post('/api/user', { username: 'csv-north-admin', realName: 'North_Admin', password: transform('Csv12345'), tenantId: north.id, isAdmin: true }),
      'north admin',
    );
    await ok(
      admin.post('/api/user', { username: 'csv-south-user', realName: 'South_User', password: transform('Csv12345'), tenantId: south.id }),
      'south user',
    );
    const northAdmin = server.client();
    await northAdmin.login('csv-north-admin', 'Csv12345');

    const file = [
      'username,realName,tenantId,description',
      "csv-north-1,North_One,,=cmd|' /C calc'!A0",
      `csv-north-2,North_Two,${south.id},`,
      'csv-south-user,Taken_Over,,',
      'csv-ada,Taken_Over,,',
      `csv-north-3,North_Three,${north.id},@SUM(A1)`,
    ].join('\n');
    const job = await run(northAdmin, file, 'apply');
    assert.deepEqual([job.created, job.updated, job.failed], [2, 0, 3]);
    assert.deepEqual(
      job.problems.map(({ row, field, rule }) => [row, field, rule]),
      [
        [3, '', 'The tenant is outside your scope'],
        [4, 'username', 'rule.usernameTaken'],
        [5, 'username', 'rule.usernameTaken'],
      ],
    );
    assert.equal((await userNamed(admin, 'csv-north-1'))!.tenantId, north.id, 'placed in their own tenant');
    assert.equal((await userNamed(admin, 'csv-south-user'))!.realName, 'South_User', 'out of reach: unchanged');
    // Another administrator's job is not found.
    assert.equal((await admin.get(`/api/user/import/${job.id}`)).status, 404);

    const { text, bytes, rows } = await exported(northAdmin);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a byte order mark for spreadsheets');
    assert.deepEqual(rows.map((row) => row.username).sort(), ['csv-north-1', 'csv-north-3', 'csv-north-admin']);
    assert.ok(text.startsWith('username,realName,email,mobilePhone,description,tenantId,availabilityStatus,tenantName,locked,createdAt\r\n'));
    assert.ok(text.includes(`csv-north-1,North_One,,,'=cmd|' /C calc'!A0,${north.id},enabled,Csv_North,no,`), text);
    assert.ok(text.includes(",'@SUM(A1),"), 'every formula start is neutralised');
    // The export imports again as it is: nothing changes (the apostrophes come off again).
    const again = await run(northAdmin, text, 'apply');
    assert.deepEqual([again.created, again.updated, again.unchanged, again.failed], [0, 0, 3, 0]);
    assert.equal((await userNamed(admin, 'csv-north-1'))!.description, "=cmd|' /C calc'!A0");
  });

  test("the export follows the list's search, tenant filter and order", async () => {
    const byName = await exported(admin, '?searchProp=username&searchValue=csv-&sort=username&order=asc');
    const names = byName.rows.map((row) => String(row.username));
    assert.ok(names.length > 10_000, `${names.length} rows`);
    assert.ok(names.every((name) => name.startsWith('csv-')));
    assert.deepEqual(
      names,
      [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      'in the order asked, across batches',
    );
    assert.equal(new Set(names).size, names.length, 'no row twice across batches');
    const desc = await exported(admin, '?searchProp=username&searchValue=csv-&sort=username&order=desc');
    assert.deepEqual(
      desc.rows.map((row) => row.username),
      [...names].reverse(),
    );
    const member = server.client();
    await member.login('csv-south-user', 'Csv12345');
    assert.equal((await member.raw('GET', '/api/user/export')).status, 403);
  });
});
