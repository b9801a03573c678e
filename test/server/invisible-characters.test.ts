// Names people type and the audit log shows hold no invisible characters: a control (Cc) or format
// (Cf) character — U+202E RIGHT-TO-LEFT OVERRIDE, the isolates U+2066-U+2069, the zero-width
// U+200B-U+200F, U+FEFF — would make "adm\u202Enimda" read as another name in the log
// (src/core/validation/visible-text.ts). Refused with 400 and the field's rule at sign-in, for a
// SCIM token's name, a webhook's description and a menu plan's name; plain text is still taken.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, startServer, type Client, type TestServer } from './harness';
import { hasInvisibleCharacters } from '../../src/core/validation/visible-text';

const INVISIBLE = ['\u202E', '\u202A', '\u2066', '\u2069', '\u200B', '\u200E', '\u200F', '\uFEFF', '\u0000', '\u001B', '\u0085', '\u00AD', '\u061C'];

let server: TestServer;
let admin: Client;
let tenantId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const tree = await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree');
  tenantId = tree.body.data.find((row) => row.parentId === null)!.id;
});
after(async () => {
  await server.stop();
});

test('the predicate finds every control and format character, and nothing in plain or Chinese text', () => {
  for (const character of INVISIBLE) assert.ok(hasInvisibleCharacters(`a${character}b`), character.codePointAt(0)!.toString(16));
  for (const plain of ['admin', '张三', 'Zoë O’Brien', 'token-1 (sync)', 'مرحبا']) assert.equal(hasInvisibleCharacters(plain), false, plain);
});

test('a typed sign-in name with a bidirectional override is refused before the sign-in is tried', async () => {
  for (const character of ['\u202E', '\u2066', '\u200B', '\uFEFF']) {
    const answer = await server.client().login(`adm${character}in`, 'Admin123!');
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.deepEqual((answer.body.data as { fields: unknown[] }).fields, [{ field: 'username', rule: 'rule.loginUsername' }]);
  }
  assert.equal((await server.client().login('admin', 'Admin123!')).body.data?.loginSuccess, true);
});

test("a SCIM token's name, a webhook's description and a menu plan's name refuse invisible characters", async () => {
  // (NUL is refused earlier, in any JSON body: server/http/json-body.ts.)
  for (const character of INVISIBLE.filter((character) => character !== '\u0000')) {
    const token = await admin.post('/api/scim-tokens', { tenantId, name: `Entra${character}sync`, ...ADMIN_PROOF });
    assert.equal(token.status, 400, `token ${JSON.stringify(token.body)}`);
    assert.deepEqual((token.body.data as { fields: unknown[] }).fields, [{ field: 'name', rule: 'rule.scimTokenName' }]);
    const hook = await admin.post('/api/webhooks', { url: 'https://hooks.example/x', events: ['user.created'], description: `Sync${character}job` });
    assert.equal(hook.status, 400, `webhook ${JSON.stringify(hook.body)}`);
    assert.deepEqual(
      (hook.body.data as { fields: unknown[] } | null)?.fields,
      [{ field: 'description', rule: 'rule.visibleCharacters' }],
      JSON.stringify(hook.body),
    );
    const plan = await admin.post('/api/menu-plans', { name: `Plan${character}x`, items: [{ name: 'Home', path: '/home' }] });
    assert.equal(plan.status, 400, `plan ${JSON.stringify(plan.body)}`);
  }
  assert.equal((await admin.post('/api/scim-tokens', { tenantId, name: 'Entra sync', ...ADMIN_PROOF })).status, 200);
  assert.equal((await admin.post('/api/menu-plans', { name: 'Plain plan', items: [{ name: 'Home', path: '/home' }] })).status, 200);
});
