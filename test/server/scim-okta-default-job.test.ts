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
