// Shared by the fuzz and security tests: the operations of the OpenAPI document, and a snapshot
// of the stored data to prove that a refused request changed nothing.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { App } from '../../server/app';

export interface Operation {
  method: string;
  /** OpenAPI path with {param} placeholders, e.g. /api/user/{id}. */
  path: string;
  signedIn: boolean;
  params: string[];
  query: string[];
  /** Top-level properties of a JSON body (empty when the call takes none or it is not an object). */
  bodyProps: string[];
  hasBody: boolean;
  multipart: boolean;
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  consumes?: string[];
}

/** Every operation `/api/openapi.json` lists. */
export async function readOperations(base: string): Promise<Operation[]> {
  const document = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const multipart = 'multipart/form-data' in content;
      operations.push({
        method: method.toUpperCase(),
        path,
        signedIn: Array.isArray(operation.security),
        params: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodyProps: Object.keys(content['application/json']?.schema?.properties ?? {}),
        hasBody: Object.keys(content).length > 0,
        multipart,
      });
    }
  }
  return operations;
}

/** The path with each {param} replaced (values are URL-encoded here). */
export function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(value(name)));
}

/** Tables whose rows change on any call, refused or not: sessions touched, failures counted,
 *  captchas issued, the audit trail, provider state. */
const VOLATILE = /^(sessions|captchas|login_throttle|login_challenges|audit_log|oidc_payloads|oidc_keys|kysely_)/;

/** One digest per table of everything stored (rows sorted, so engines' row order does not matter). */
export async function snapshot(app: App): Promise<Record<string, string>> {
  const db = app.ctx.db;
  const tables = (await db.introspection.getTables()).map((table) => table.name).filter((name) => !VOLATILE.test(name)).sort();
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    const lines = rows.map((row) => JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value))).sort();
    digests[table] = `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return digests;
}

/** The ids of every stored record the caller may want to address (users, tenants, apps …). */
export async function storedIds(app: App): Promise<string[]> {
  const db = app.ctx.db;
  const ids = new Set<string>();
  const tables = ['users', 'tenants', 'apps', 'privileges', 'roles', 'menu_plans', 'channels', 'messages'];
  for (const table of tables) {
    const { rows } = await sql<{ id: unknown }>`select id from ${sql.table(table)}`.execute(db);
    for (const row of rows) ids.add(String(row.id));
  }
  return [...ids];
}
