// Moving a tenant (PUT /tenants/{id}/parent) checks "not under itself or one of its descendants"
// on paths read before the change's transaction (server/services/tenants.ts, changeParent), and the
// version guards only the moved tenant, not the new parent. Two parallel moves, X under Y and Y under
// X, each pass the check: X and Y then name each other as parent (a cycle cut off from the root)
// and their materialised paths no longer match the parent chain. The tree must stay a tree.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Client, type TestServer } from './harness';
import { createTenant } from './scim-support';

let server: TestServer;
let admin: Client;

before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(async () => {
  await server.stop();
});

/** Problems of the tenant tree: a parent chain that does not reach the root, or a path that is not the chain. */
async function treeProblems(): Promise<string[]> {
  const rows = await server.app.ctx.db.selectFrom('tenants').select(['id', 'parentId', 'path']).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const problems: string[] = [];
  for (const row of rows) {
    const chain: string[] = [];
    let at: (typeof rows)[number] | undefined = row;
    while (at && chain.length <= rows.length) {
      chain.unshift(at.id);
      at = at.parentId ? byId.get(at.parentId) : undefined;
    }
    if (chain.length > rows.length) problems.push(`${row.id}: its parent chain is a cycle`);
    else if (row.path !== `/${chain.join('/')}/`) problems.push(`${row.id}: path ${row.path} is not its chain /${chain.join('/')}/`);
  }
  return problems;
}

test('two parallel moves, X under Y and Y under X, leave a tree (one is refused), for 5 bounded tries', async () => {
  for (let round = 0; round < 5; round += 1) {
    const x = await createTenant(admin, `Race_X${round}`);
    const y = await createTenant(admin, `Race_Y${round}`);
    const versionOf = async (id: string) => (await admin.get<{ version: number }>(`/api/tenants/${id}`)).body.data.version;
    const [vx, vy] = [await versionOf(x.id), await versionOf(y.id)];
    const answers = await Promise.all([
      admin.put(`/api/tenants/${x.id}/parent`, { parentId: y.id, version: vx }),
      admin.put(`/api/tenants/${y.id}/parent`, { parentId: x.id, version: vy }),
    ]);
    const problems = await treeProblems();
    assert.deepEqual(problems, [], `round ${round}: moves answered ${answers.map((answer) => answer.status).join(' and ')}; the tree is broken`);
  }
});
