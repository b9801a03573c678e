// A provisioning client that is not our code: the requests Okta's SCIM 2.0 provisioning sends with
// its default settings (Okta's "SCIM 2.0 protocol reference" and "Test your SCIM API": the connection
// test's list, the lookup by userName with startIndex=1&count=100 before a create, create, get,
// PUT with the whole user on a profile push, PATCH {"op":"replace","value":{"active":false}} to
// deactivate and back), replayed in order with plain fetch and literal JSON. Okta's default userName is
// the e-mail address; under the console's default username rule the replay maps it to the part before
// the @ (docs/scim.md, Connecting Okta).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PROOF, startServer, type Client, type TestServer } from './harness';

let server: TestServer;
let admin: Client;
let token = '';

interface Answer {
  status: number;
  location: string | null;
  // Okta's answers are read as the untyped JSON they are (this test names no schema of ours).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** What Okta sends: Authorization with the token, application/scim+json. */
async function okta(method: string, path: string, json?: string): Promise<Answer> {
  const response = await fetch(`${server.base}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/scim+json', ...(json ? { 'content-type': 'application/scim+json; charset=utf-8' } : {}) },
    body: json,
  });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text ? JSON.parse(text) : undefined };
}

before(async () => {
  server = await startServer();
  admin = await server.admin();
  const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!;
  const tenantId = (await admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Okta_Org', type: 'company' })).body.data.id;
  token = (await admin.post<{ secret: string }>('/api/scim-tokens', { tenantId, name: 'Okta', ...ADMIN_PROOF })).body.data.secret;
});
after(async () => {
  await server.stop();
});

const user = (active: boolean, givenName: string) => `{
  "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
  "userName": "okta_dana",
  "name": {"givenName": "${givenName}", "familyName": "Lee"},
  "emails": [{"primary": true, "value": "dana.lee@okta.example", "type": "work"}],
  "displayName": "${givenName}Lee",
  "locale": "en-US",
  "externalId": "00ujl29u0le5T6Aj10h7",
  "groups": [],
  "password": "1mH@ppy!Dana",
  "active": ${active}
}`;

describe("Okta's SCIM 2.0 provisioning requests", () => {
  test('connection test, lookup before create, create, get, PUT profile push, deactivate and reactivate by PATCH', async () => {
    const connection = await okta('GET', '/Users?startIndex=1&count=1');
    assert.equal(connection.status, 200);
    assert.deepEqual(connection.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    assert.equal((await okta('GET', '/Users/010101-random-id')).status, 404);

    const lookup = await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "okta_dana"')}&startIndex=1&count=100`);
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.totalResults, 0);

    const created = await okta('POST', '/Users', user(true, 'Dana'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    assert.equal(created.location, `${server.base}/scim/v2/Users/${id}`);
    assert.equal(created.body.active, true);
    assert.equal(created.body.name.formatted, 'DanaLee', 'without name.formatted: the displayName');
    assert.equal(created.body.password, undefined, 'a password is never answered');

    const again = await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "OKTA_DANA"')}&startIndex=1&count=100`);
    assert.equal(again.body.totalResults, 1, 'one person whatever the case');
    assert.equal(again.body.Resources[0].id, id);
    assert.equal((await okta('GET', `/Users/${id}`)).body.userName, 'okta_dana');

    // A profile push: the whole user by PUT (Okta leaves `password` out of a PUT unless it syncs passwords).
    const pushed = await okta('PUT', `/Users/${id}`, user(true, 'Danielle').replace(/\s*"password": "[^"]*",/, ''));
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    assert.equal(pushed.body.displayName, 'DanielleLee');

    const deactivated = await okta(
      'PATCH',
      `/Users/${id}`,
      `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`,
    );
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    assert.equal(deactivated.body.active, false);
    assert.equal((await admin.get<{ availabilityStatus: number }>(`/api/user/${id}`)).body.data.availabilityStatus, 2);
    // A later profile push without `active` keeps the person deactivated.
    const withoutActive = await okta(
      'PUT',
      `/Users/${id}`,
      user(false, 'Danielle')
        .replace(/\s*"password": "[^"]*",/, '')
        .replace(/,\s*"active": false/, ''),
    );
    assert.equal(withoutActive.status, 200, JSON.stringify(withoutActive.body));
    assert.equal(withoutActive.body.active, false);

    const reactivated = await okta(
      'PATCH',
      `/Users/${id}`,
      `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":true}}]}`,
    );
    assert.equal(reactivated.body.active, true);
    assert.equal((await admin.get<{ availabilityStatus: number }>(`/api/user/${id}`)).body.data.availabilityStatus, 1);
  });

  test('push groups: create (Location), add a member, rename, remove the member', async () => {
    const member = (await okta('GET', `/Users?filter=${encodeURIComponent('userName eq "okta_dana"')}&startIndex=1&count=100`)).body.Resources[0].id as string;
    const created = await okta('POST', '/Groups', `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Okta_Engineering","members":[]}`);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    assert.equal(created.location, `${server.base}/scim/v2/Groups/${id}`);
    const patch = (operations: string) =>
      okta('PATCH', `/Groups/${id}`, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":${operations}}`);
    assert.equal((await patch(`[{"op":"add","path":"members","value":[{"value":"${member}","display":"okta_dana"}]}]`)).status, 204);
    assert.equal((await patch(`[{"op":"replace","value":{"id":"${id}","displayName":"Okta_Eng"}}]`)).status, 204);
    const group = await okta('GET', `/Groups/${id}`);
    assert.equal(group.body.displayName, 'Okta_Eng');
    assert.deepEqual(
      group.body.members.map((entry: { value: string }) => entry.value),
      [member],
    );
    assert.equal((await patch(`[{"op":"remove","path":"members[value eq \\"${member}\\"]"}]`)).status, 204);
    assert.deepEqual((await okta('GET', `/Groups/${id}`)).body.members ?? [], []);
  });
});

// Okta's "SCIM 2.0 Spec Test" (the Runscope suite its "Test your SCIM API" guide hands out, which an
// integration must pass before it is listed), its requests in its order with its assertions; then a
// profile push by PUT that deactivates, read back through SCIM and the console. Okta's users have
// e-mail logins and names with spaces: the international field rules, and a tenant of its own.
describe("Okta's SCIM 2.0 spec test, in order", () => {
  let specToken = '';
  const spec = async (method: string, path: string, json?: string, authorization = `Bearer ${specToken}`) => {
    const response = await fetch(`${server.base}/scim/v2${path}`, {
      method,
      headers: {
        authorization,
        accept: 'application/scim+json',
        'accept-charset': 'utf-8',
        'user-agent': 'OKTA SCIM Integration',
        ...(json ? { 'content-type': 'application/json' } : {}),
      },
      body: json,
    });
    const text = await response.text();
    // Okta's answers are read as the untyped JSON they are (JSON.parse's any).
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const realistic = (email: string) =>
    `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"runscope0417@atko.example","name":{"givenName":"Mireille","familyName":"Dubois-Ng"},"emails":[{"primary":true,"value":"${email}","type":"work"}],"displayName":"Mireille Dubois-Ng","active":true}`;

  before(async () => {
    const login = await admin.get<{ version: number }>('/api/settings/login');
    assert.equal((await admin.put('/api/settings/login', { version: login.body.data.version, fieldRules: 'international' })).status, 200);
    const root = (await admin.get<{ id: string; parentId: string | null }[]>('/api/tenants/tree')).body.data.find((row) => row.parentId === null)!;
    const tenantId = (await admin.post<{ id: string }>('/api/tenants', { parentId: root.id, name: 'Okta Spec Org', type: 'company' })).body.data.id;
    specToken = (await admin.post<{ secret: string }>('/api/scim-tokens', { tenantId, name: 'Okta spec', ...ADMIN_PROOF })).body.data.secret;
  });

  test('create with realistic values, the users endpoint, get by id, lookups, 409 on a recreate, 401, 404; a PUT that deactivates is kept', async () => {
    const created = await spec('POST', '/Users', realistic('mireille@atko.example'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.active, true);
    assert.equal(created.body.name.familyName, 'Dubois-Ng', 'Okta asserts name.familyName is answered as sent');
    assert.equal(created.body.name.givenName, 'Mireille');
    assert.ok(created.body.schemas.includes('urn:ietf:params:scim:schemas:core:2.0:User'));
    assert.equal(created.body.userName, 'runscope0417@atko.example');
    const id: string = created.body.id;

    const listed = await spec('GET', '/Users?count=1&startIndex=1');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:ListResponse'));
    for (const number of ['itemsPerPage', 'startIndex', 'totalResults']) assert.equal(typeof listed.body[number], 'number', number);
    const [first] = listed.body.Resources;
    assert.deepEqual(
      [first.id, first.name.familyName, first.name.givenName, first.userName, first.active, first.emails[0].value],
      [id, 'Dubois-Ng', 'Mireille', 'runscope0417@atko.example', true, 'mireille@atko.example'],
    );

    const got = await spec('GET', `/Users/${id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(
      [got.body.id, got.body.name.familyName, got.body.name.givenName, got.body.userName],
      [id, 'Dubois-Ng', 'Mireille', 'runscope0417@atko.example'],
    );

    for (const userName of ['invalid-user@atko.example', 'mireille@atko.example']) {
      const none = await spec('GET', `/Users?filter=userName eq "${userName}"`);
      assert.equal(none.status, 200);
      assert.equal(none.body.totalResults, 0, userName);
    }
    const missing = await spec('GET', '/Users/010101-random-id');
    assert.equal(missing.status, 404);
    assert.ok(missing.body.detail);
    assert.ok(missing.body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error'));

    // The recreate sends the userName as the e-mail: here one the e-mail rule refuses. The userName
    // is taken, and Okta expects to be told so (409), not about the e-mail.
    const again = await spec('POST', '/Users', realistic('runscope0417'));
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.equal(again.body.scimType, 'uniqueness');
    assert.equal((await spec('GET', `/Users?filter=userName eq "RUNSCOPE0417@ATKO.EXAMPLE"`)).body.totalResults, 1);
    assert.equal((await spec('GET', '/Groups')).status, 200);
    const unauthorized = await spec('GET', '/Users?filter=userName eq "runscope0417@atko.example"', undefined, 'non-token');
    assert.deepEqual([unauthorized.status, unauthorized.body.status, Boolean(unauthorized.body.detail)], [401, '401', true]);
    const notFound = await spec('GET', '/Users/00919288221112222');
    assert.deepEqual([notFound.status, notFound.body.status], [404, '404']);

    // Okta's profile push replaces the whole user; this one also deactivates.
    const pushed = await spec(
      'PUT',
      `/Users/${id}`,
      `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"${id}","userName":"runscope0417@atko.example","name":{"givenName":"Mira","familyName":"Dubois"},"emails":[{"primary":true,"value":"mira@atko.example","type":"work"}],"displayName":"Mira Dubois","locale":"fr-FR","title":"Analyst","active":false}`,
    );
    assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
    const read = (await spec('GET', `/Users/${id}`)).body;
    assert.deepEqual(
      [read.active, read.name.givenName, read.name.familyName, read.displayName, read.emails[0].value, read.locale, read.title],
      [false, 'Mira', 'Dubois', 'Mira Dubois', 'mira@atko.example', 'fr-FR', 'Analyst'],
    );
    const inConsole = (await admin.get<{ realName: string; email: string; availabilityStatus: number }>(`/api/user/${id}`)).body.data;
    assert.deepEqual([inConsole.realName, inConsole.email, inConsole.availabilityStatus], ['Mira Dubois', 'mira@atko.example', 2]);
  });
});
