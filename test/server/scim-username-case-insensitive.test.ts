// SCIM's userName is not case-exact (RFC 7643 §4.1.1: caseExact false, uniqueness server), and the
// server's own filter compares it without letter case (docs/scim.md). A provisioning client that
// matches people by userName (Entra ID's default matching attribute) must therefore never find two
// people for one name: a second userName differing only in letter case is a 409 uniqueness, and
// `userName eq` answers at most one person. Otherwise the client's "alice" matches the console's
// "Alice" (another person) and its updates (e-mail, phone: where her password reset goes) land on her.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, transform, type Client, type TestServer } from './harness';
import { assertScimError, provisionedTenant, USER_SCHEMA, type Scim } from './scim-support';

let server: TestServer;
let admin: Client;
let scim: Scim;
let tenantId: string;

before(async () => {
  server = await startServer();
  admin = await server.admin();
  ({
    scim,
    tenant: { id: tenantId },
  } = await provisionedTenant(server, admin, 'Case_Tenant'));
});
after(async () => {
  await server.stop();
});

test('a SCIM create of a userName differing only in letter case from an existing person answers 409 uniqueness', async () => {
  const first = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'Case_Alice', name: { formatted: 'Case_Alice' } });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const twin = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'case_alice', name: { formatted: 'Case_Twin' } });
  assertScimError(twin, 409, 'uniqueness');
});

test("userName eq finds one person: the console's twin in other letter case is not a second match for the provisioning client", async () => {
  const made = await admin.post('/api/user', { username: 'Case_Bob', realName: 'Case_Bob', password: transform('Case1234pass'), tenantId });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const twin = await admin.post('/api/user', { username: 'case_bob', realName: 'Case_Bob2', password: transform('Case1234pass'), tenantId });
  const listed = await scim<{ totalResults: number; Resources: { userName: string }[] }>(
    'GET',
    `/Users?filter=${encodeURIComponent('userName eq "case_bob"')}`,
  );
  assert.equal(listed.status, 200);
  assert.ok(
    listed.body.totalResults <= 1,
    `the console made a twin (${twin.status}) and userName eq "case_bob" answers ${listed.body.totalResults} people: ${listed.body.Resources.map((r) => r.userName).join(', ')}`,
  );
});
