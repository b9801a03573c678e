// Shared by the SCIM tests: a tenant with a SCIM token made through the console's API, and a
// client that speaks SCIM to /scim/v2 with it (application/scim+json, as a provisioning client does).
import assert from 'node:assert/strict';
import { ADMIN_PROOF, type Client, type TestServer } from './harness';

const SCIM_JSON = 'application/scim+json';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export interface ScimAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export type Scim = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ScimAnswer<T>>;

/** A SCIM client of `base` holding `token`; bodies are sent as given (a string as is). */
export function scimClient(base: string, token: string): Scim {
  return async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: SCIM_JSON, ...(body === undefined ? {} : { 'content-type': SCIM_JSON }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };
}

async function data<T>(answer: Promise<{ status: number; body: { data: unknown } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  assert.equal(status, 200, `${what}: ${JSON.stringify(body)}`);
  return body.data as T;
}

export const rootTenantId = async (admin: Client) =>
  (await data<{ id: string; parentId: string | null }[]>(admin.get('/api/tenants/tree'), 'tree')).find((row) => row.parentId === null)!.id;

export const createTenant = async (admin: Client, name: string, parentId?: string) =>
  data<{ id: string; name: string }>(
    admin.post('/api/tenants', { parentId: parentId ?? (await rootTenantId(admin)), name, type: 'company' }),
    `tenant ${name}`,
  );

/** A SCIM token of `tenantId` made by `admin`, who proves it is them with `proof` (their current password). */
export const createToken = async (admin: Client, tenantId: string, name = 'Entra provisioning', proof = ADMIN_PROOF) =>
  data<{ token: { id: string; name: string }; secret: string }>(admin.post('/api/scim-tokens', { tenantId, name, ...proof }), `token ${name}`);

/** A tenant under the root and a SCIM client of it. */
export async function provisionedTenant(server: TestServer, admin: Client, name: string) {
  const tenant = await createTenant(admin, name);
  const { token, secret } = await createToken(admin, tenant.id);
  return { tenant, token, secret, scim: scimClient(server.base, secret) };
}

export function assertScimError(answer: ScimAnswer, status: number, scimType?: string): void {
  const where = JSON.stringify(answer.body);
  assert.equal(answer.status, status, where);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/scim\+json/, where);
  assert.deepEqual((answer.body as { schemas?: unknown }).schemas, [ERROR_SCHEMA], where);
  assert.equal((answer.body as { status?: unknown }).status, String(status), where);
  if (scimType) assert.equal((answer.body as { scimType?: unknown }).scimType, scimType, where);
}
