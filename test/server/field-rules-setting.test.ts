// The field rules login setting switches the API and the CSV import at once: under the default
// rules "Alice Smith", alice@contoso.com and +44 numbers are refused with the default rule keys;
// after a switch to the international rules they are taken (the phone stored normalised), hostile
// names (bidi override, NUL) are still refused, and after a switch back the stored person stays
// readable while editing the old name says which rule it breaks. Stored values are never
// re-validated: after a switch back, SCIM can still disable a person stored under the international
// rules, the console save their unchanged name, and the CSV import take their unchanged row.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, startServer, transform, type Client, type TestServer } from './harness';
import { assertScimError, PATCH_SCHEMA, provisionedTenant, USER_SCHEMA } from './scim-support';
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
  // "Forgot password" by phone reads a mainland number only.
  const reset = await server.client().post('/api/user/password/reset-code', { identifier: '+44 20 7946 0958' });
  assert.equal(reset.status, 400);
  assert.deepEqual(refusedFields(reset.body), [{ field: 'identifier', rule: 'rule.emailOrPhone' }]);
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

  const reset = await server.client().post('/api/user/password/reset-code', { identifier: '+44 20 7946 0958' });
  assert.equal(reset.status, 200, JSON.stringify(reset.body));

  const job = await importFile('username;realName;mobilePhone\r\nbob@contoso.com;Bob Smith;+1 (415) 555-0100\r\n');
  assert.equal(job.created, 1, JSON.stringify(job.problems));

  await switchTo('default');
  const read = await admin.get<User>(`/api/user/${created.body.data.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.username, 'alice@contoso.com');
  const edited = await admin.put(`/api/user/${created.body.data.id}`, { realName: "José O'Neil", version: read.body.data.version });
  assert.equal(edited.status, 400);
  assert.deepEqual(refusedFields(edited.body), [{ field: 'realName', rule: 'rule.realName' }]);
});

test('after a switch back only what a request changes is checked: SCIM disables, the console edits, an unchanged row re-imports', async () => {
  await switchTo('international');
  const { scim } = await provisionedTenant(server, admin, 'EntraTenant');
  const entra = { schemas: [USER_SCHEMA], userName: 'grace.hopper@contoso.com', name: { formatted: 'Grace Hopper' }, active: true };
  const phone = [{ type: 'mobile', value: '+44 20 7946 0001' }];
  const made = await scim<{ id: string }>('POST', '/Users', { ...entra, phoneNumbers: phone });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  await switchTo('default');

  // Entra's default job switches her off (a string boolean): nothing but `active` changes.
  const off = await scim<{ active: boolean }>('PATCH', `/Users/${made.body.id}`, {
    schemas: [PATCH_SCHEMA],
    Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  assert.equal(off.body.active, false);
  // A whole PUT carrying the stored name and the stored number as Entra formats it: no change to check.
  const put = await scim('PUT', `/Users/${made.body.id}`, { ...entra, active: false, phoneNumbers: phone });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  // A changed name is checked by the rules in force.
  const renamed = await scim('PATCH', `/Users/${made.body.id}`, {
    schemas: [PATCH_SCHEMA],
    Operations: [{ op: 'replace', path: 'name.formatted', value: 'Grace B. Hopper' }],
  });
  assertScimError(renamed, 400, 'invalidValue');

  // The console's user dialog sends every field, changed or not.
  const grace = (await admin.get<User>(`/api/user/${made.body.id}`)).body.data;
  assert.equal(grace.realName, 'Grace Hopper');
  assert.equal(grace.mobilePhone, '+442079460001');
  const full = { realName: grace.realName, mobilePhone: grace.mobilePhone, email: '', description: 'Rear admiral', tenantId: grace.tenantId };
  const saved = await admin.put<User>(`/api/user/${grace.id}`, { ...full, availabilityStatus: 1, version: grace.version });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(saved.body.data.availabilityStatus, 1);
  const basic = await admin.put(`/api/user/${grace.id}/basic_info`, {
    realName: grace.realName,
    mobilePhone: grace.mobilePhone,
    description: 'Admiral',
    version: saved.body.data.version,
  });
  assert.equal(basic.status, 200, JSON.stringify(basic.body));
  const phoneChanged = await admin.put(`/api/user/${grace.id}`, {
    ...full,
    mobilePhone: '+44 20 7946 0002',
    ...ADMIN_PROOF,
    version: saved.body.data.version + 1,
  });
  assert.equal(phoneChanged.status, 400);
  assert.deepEqual(refusedFields(phoneChanged.body), [{ field: 'mobilePhone', rule: 'rule.phone' }]);

  // Her row as the export writes it imports as unchanged; a new person's row follows the rules in force.
  const job = await importFile(`username,realName,mobilePhone\r\ngrace.hopper@contoso.com,Grace Hopper,+442079460001\r\nada@contoso.com,Ada Lovelace,\r\n`);
  assert.equal(job.unchanged, 1, JSON.stringify(job.problems));
  assert.deepEqual(
    job.problems.map(({ row, field, rule }) => `${row}:${field}:${rule}`),
    ['3:username:rule.username', '3:realName:rule.realName'],
  );
});
