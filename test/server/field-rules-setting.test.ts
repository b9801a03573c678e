// The field rules login setting switches the API and the CSV import at once: under the default
// rules "Alice Smith", alice@contoso.com and +44 numbers are refused with the default rule keys;
// after a switch to the international rules they are taken (the phone stored normalised), hostile
// names (bidi override, NUL) are still refused, and after a switch back the stored person stays
// readable while editing the old name says which rule it breaks.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { until } from './receivers';
import type { LoginSettings } from '../../src/core/schemas/settings';
import type { ImportJob } from '../../src/core/schemas/user-import';
import type { User } from '../../src/core/types';

let server: TestServer;
let admin: Client;
before(async () => {
  server = await startServer();
  admin = await server.admin();
});
after(() => server.stop());

async function switchTo(fieldRules: LoginSettings['fieldRules']) {
  const current = await admin.get<{ version: number }>('/api/settings/login');
  const saved = await admin.put('/api/settings/login', { fieldRules, version: current.body.data.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

const alice = { username: 'alice@contoso.com', realName: "José O'Neil-Ünal", mobilePhone: '+44 20 7946 0958', password: transform('Secret123') };
const refusedFields = (body: unknown) => (body as { data: { fields: { field: string; rule: string }[] } }).data.fields;

async function importFile(text: string): Promise<ImportJob> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'users.csv');
  const started = await admin.request<ImportJob>('POST', '/api/user/import?mode=apply', form);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  return until(async () => {
    const job = (await admin.get<ImportJob>(`/api/user/import/${started.body.data.id}`)).body.data;
    return job.status === 'running' ? undefined : job;
  }, 'the import');
}

test('the default rules refuse international names, usernames and phones with their rule keys', async () => {
  const refused = await admin.post('/api/user', alice);
  assert.equal(refused.status, 400);
  assert.deepEqual(
    refusedFields(refused.body).map(({ field, rule }) => `${field}:${rule}`),
    ['realName:rule.realName', 'mobilePhone:rule.phone', 'username:rule.username'],
  );
});

test('after the switch the API and the import take them, hostile names still refused, and a switch back keeps people readable', async () => {
  await switchTo('international');
  const created = await admin.post<User>('/api/user', alice);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.data.realName, "José O'Neil-Ünal");
  assert.equal(created.body.data.mobilePhone, '+442079460958', 'stored normalised');

  for (const realName of ['Alice\u202eecilA', 'Alice\u0000Smith', 'Ali\u200bce']) {
    const hostile = await admin.post('/api/user', { ...alice, username: 'mallory@contoso.com', mobilePhone: undefined, realName });
    assert.equal(hostile.status, 400, JSON.stringify(realName));
    // A NUL is refused by the JSON body guard before the rules (no field list); the others by the rule.
    if (!realName.includes('\u0000')) assert.deepEqual(refusedFields(hostile.body), [{ field: 'realName', rule: 'rule.visibleCharacters' }]);
  }

  const job = await importFile('username;realName;mobilePhone\r\nbob@contoso.com;Bob Smith;+1 (415) 555-0100\r\n');
  assert.equal(job.created, 1, JSON.stringify(job.problems));

  await switchTo('default');
  const read = await admin.get<User>(`/api/user/${created.body.data.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.username, 'alice@contoso.com');
  const edited = await admin.put(`/api/user/${created.body.data.id}`, { realName: "José O'Neil-Ünal", version: read.body.data.version });
  assert.equal(edited.status, 400);
  assert.deepEqual(refusedFields(edited.body), [{ field: 'realName', rule: 'rule.realName' }]);
});
