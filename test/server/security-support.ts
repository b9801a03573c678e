// Shared by the fuzz and security tests: the operations of the OpenAPI document, and a snapshot
// of the stored data to prove that a refused request changed nothing.
import { LDAP_PRESET_SETTINGS } from '../../src/core/ldap-presets';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import type { App } from '../../server/app';
import { CROSS_SITE_DOC } from '../../server/http/route';
import { ADMIN_PROOF, transform, type Client, type TestServer } from './harness';

export interface Operation {
  method: string;
  /** OpenAPI path with {param} placeholders, e.g. /api/user/{id}. */
  path: string;
  signedIn: boolean;
  /** The permission code the call needs ('0' self-service … '4'), or 'public'. */
  permission: string;
  params: string[];
  query: string[];
  /** Top-level properties of a JSON body (empty when the call takes none or it is not an object). */
  bodyProps: string[];
  hasBody: boolean;
  multipart: boolean;
  /** Its success answer is something other than the JSON envelope (a file, a page, XML metadata). */
  rawAnswer: boolean;
  /** A protocol binding other sites' pages reach by design (server/http/route.ts bindingRoute): no CSRF check. */
  crossSite: boolean;
}

interface OpenApiOperation {
  security?: unknown[];
  description?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  consumes?: string[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
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
        // server/http/route.ts documents the access rule as "Needs permission code N."
        permission: /permission code (\d)/.exec(operation.description ?? '')?.[1] ?? 'public',
        params: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodyProps: Object.keys(content['application/json']?.schema?.properties ?? {}),
        hasBody: Object.keys(content).length > 0,
        multipart,
        rawAnswer: Object.values(operation.responses ?? {}).some(({ content }) => content !== undefined && !('application/json' in content)),
        crossSite: (operation.description ?? '').startsWith(CROSS_SITE_DOC),
      });
    }
  }
  return operations;
}

export const changesState = (operation: Operation) => !['GET', 'HEAD', 'OPTIONS'].includes(operation.method);

/** The path with each {param} replaced (values are URL-encoded here). */
export function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(value(name)));
}

/** Tables whose rows change on any call, refused or not: sessions touched, failures and rate-limit
 *  hits counted, captchas issued, the audit trail (and the webhook deliveries derived from it), provider state. */
const VOLATILE =
  /^(sessions|captchas|login_throttle|login_challenges|rate_limits|audit_log|webhook_deliveries|webhook_attempts|oidc_payloads|oidc_keys|kysely_)/;

/** The tables a snapshot reads, per server: its schema does not change while it runs, so it is
 *  introspected once, not before every read of the rows. */
const tablesOf = new WeakMap<App, Promise<string[]>>();

function storedTables(app: App): Promise<string[]> {
  let tables = tablesOf.get(app);
  if (!tables) {
    tables = app.ctx.db.introspection.getTables().then((found) =>
      found
        .map((table) => table.name)
        .filter((name) => !VOLATILE.test(name))
        .sort(),
    );
    tablesOf.set(app, tables);
  }
  return tables;
}

/**
 * Every stored row, table by table, as text lines in a sorted order (engines' row order does not
 * matter): on SQLite each row as JSON, read table by table; on PostgreSQL each row's text form, all
 * tables in one statement (a statement a table cost the fuzz test's thousand snapshots 45,000
 * round trips).
 */
async function storedLines(app: App): Promise<[string, string[]][]> {
  const tables = await storedTables(app);
  const byTable = new Map<string, string[]>(tables.map((table) => [table, []]));
  if (app.ctx.engine === 'postgres') {
    const everyRow = sql.join(
      tables.map((table) => sql`select ${sql.lit(table)} as stored_in, stored_row::text as line from ${sql.table(table)} as stored_row`),
      sql` union all `,
    );
    const { rows } = await sql<{ storedIn: string; line: string }>`${everyRow}`.execute(app.ctx.db);
    for (const { storedIn, line } of rows) byTable.get(storedIn)!.push(line);
  } else {
    for (const table of tables) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(app.ctx.db);
      byTable.set(
        table,
        rows.map((row) => JSON.stringify(row, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value))),
      );
    }
  }
  return tables.map((table) => [table, byTable.get(table)!.sort()]);
}

const digestOf = (lines: [string, string[]][]): Record<string, string> =>
  Object.fromEntries(lines.map(([table, rows]) => [table, `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex')}`]));

/** The digest of the rows that mention one of `ids`. */
function digestOfMentions(lines: [string, string[]][], ids: string[]): string {
  const hash = createHash('sha256');
  for (const [table, rows] of lines) hash.update(`${table}\n${rows.filter((line) => ids.some((id) => line.includes(id))).join('\n')}\n`);
  return hash.digest('hex');
}

/** One digest per table of everything stored. */
export async function snapshot(app: App): Promise<Record<string, string>> {
  return digestOf(await storedLines(app));
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

/** Digest of every stored row that mentions one of `ids` (a refused or self-service call must
 *  leave the other side's records exactly as they were). */
export async function snapshotOf(app: App, ids: string[]): Promise<string> {
  return digestOfMentions(await storedLines(app), ids);
}

/** snapshot and snapshotOf from one read of the stored rows (a probe takes both before and after its call). */
export async function snapshots(app: App, ids: string[]): Promise<{ whole: Record<string, string>; theirs: string }> {
  const lines = await storedLines(app);
  return { whole: digestOf(lines), theirs: digestOfMentions(lines, ids) };
}

export const PROBE_PASSWORD = 'Probe1234';

interface Created {
  id: string;
  version?: number;
}

/** Two sides of one installation, made by the platform administrator: tenant A with its
 *  administrator and a plain member, app X with its administrator; and the other side — tenant B
 *  with a user (signed in once, so a session of theirs exists) and a message to them, app Y with a
 *  privilege, a role and a menu plan, a channel and an identity provider (platform records). */
export interface TwoSides {
  tenantA: Created;
  tenantB: Created;
  appX: Created;
  appY: Created;
  userB: Created & { username: string };
  privilegeY: Created;
  roleY: Created;
  planY: Created;
  channel: Created;
  messageB: Created;
  /** Tenant B's SCIM provisioning token. */
  scimTokenB: Created;
  /** Outbound webhook endpoints of tenants A and B. */
  webhookA: Created;
  webhookB: Created;
  sessionB: string;
  idpCode: string;
  /** Usernames of the callers (password PROBE_PASSWORD). */
  tenantAdmin: string;
  appAdmin: string;
  member: string;
  /** Texts and ids of tenant B's records and of app Y's administration (roles, privileges,
   *  channel secret): none may reach a caller of side A. App Y's name and menu plan are not among
   *  them: every signed-in user sees the apps' portal menus (GET …/multi_app_menu/list). */
  markers: string[];
}

async function created<T = Created>(answer: Promise<{ status: number; body: { data: unknown; message: string } }>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body.data as T;
}

export async function seedTwoSides(server: TestServer, admin: Client): Promise<TwoSides> {
  const root = (await created<{ id: string; parentId: string | null }[]>(admin.get('/api/tenants/tree'), 'tenant tree')).find((row) => row.parentId === null)!;
  const tenant = (name: string) => created(admin.post('/api/tenants', { parentId: root.id, name, type: 'company' }), name);
  const user = (username: string, fields: Record<string, unknown>) =>
    created(admin.post('/api/user', { username, realName: 'Probe_User', password: transform(PROBE_PASSWORD), ...fields }), username);
  const tenantA = await tenant('Side_A_Tenant');
  const tenantB = await tenant('Zeta_Hidden_Tenant');
  await user('side-a-admin', { tenantId: tenantA.id, isAdmin: true });
  await user('side-a-member', { tenantId: tenantA.id });
  const appAdminUser = await user('side-x-admin', { tenantId: tenantA.id });
  const userB = await user('zeta-hidden-user', { tenantId: tenantB.id, description: 'Zeta hidden description' });
  const appX = await created(admin.post('/api/apps', { name: 'Side_X_App' }), 'app X');
  const appY = await created(admin.post('/api/apps', { name: 'Zeta_Hidden_App', detail: 'Zeta hidden detail' }), 'app Y');
  await created(admin.put(`/api/apps/${appX.id}/admins`, { userIds: [appAdminUser.id] }), 'app X admins');
  const privilegeY = await created(
    admin.post(`/api/apps/${appY.id}/privileges`, { name: 'Zeta hidden privilege', key: 'zetahidden', parentId: null }),
    'privilege',
  );
  const roleY = await created(admin.post(`/api/apps/${appY.id}/roles`, { name: 'Zeta_Hidden_Role', description: 'Zeta hidden role' }), 'role');
  const planY = await created(
    admin.post('/api/menu-plans', { appId: appY.id, name: 'Zeta hidden plan', items: [{ name: 'Zeta', path: '/zeta' }] }),
    'menu plan',
  );
  const channel = await created(
    admin.post('/api/channels', {
      name: 'Zeta hidden channel',
      serviceType: 'EMAIL',
      vendor: 'smtp',
      config: { host: '127.0.0.1', port: '2525', password: 'zeta-smtp-secret' },
    }),
    'channel',
  );
  await created(admin.post('/api/messages', { title: 'Zeta hidden message', content: 'Zeta hidden content', userIds: [userB.id] }), 'message');
  const b = server.client();
  const signedIn = await b.login('zeta-hidden-user', PROBE_PASSWORD);
  if (signedIn.body.data?.loginSuccess !== true) throw new Error(`user B sign-in: ${JSON.stringify(signedIn.body)}`);
  const messageB = (await created<{ list: Created[] }>(b.get('/api/messages'), 'B messages')).list[0]!;
  const sessionB = (await created<{ id: string }[]>(b.get('/api/cas/sessions'), 'B sessions'))[0]!.id;
  const scimTokenB = (
    await created<{ token: Created }>(admin.post('/api/scim-tokens', { tenantId: tenantB.id, name: 'Zeta hidden token', ...ADMIN_PROOF }), 'SCIM token')
  ).token;
  // A public address: saving needs no allow setting for private targets (nothing is ever sent to it here).
  const webhookA = await created(
    admin.post('/api/webhooks', { url: 'https://93.184.216.34/side-a-hook', events: ['user.created'], tenantId: tenantA.id }),
    'webhook A',
  );
  const webhookB = await created(
    admin.post('/api/webhooks', { url: 'https://93.184.216.34/zeta-hidden-hook', events: ['user.created'], tenantId: tenantB.id }),
    'webhook B',
  );
  const idpCode = 'zetaidp';
  await created(
    admin.post('/api/idps', {
      code: idpCode,
      name: 'Zeta hidden IdP',
      type: 'OIDC',
      config: { issuer: 'https://sso.example.com', clientSecret: 'zeta-idp-secret' },
    }),
    'idp',
  );
  const ids = [tenantB.id, userB.id, privilegeY.id, roleY.id, messageB.id, scimTokenB.id, webhookB.id];
  return {
    tenantA,
    tenantB,
    appX,
    appY,
    userB: { ...userB, username: 'zeta-hidden-user' },
    privilegeY,
    roleY,
    planY,
    channel,
    messageB,
    scimTokenB,
    webhookA,
    webhookB,
    sessionB,
    idpCode,
    tenantAdmin: 'side-a-admin',
    appAdmin: 'side-x-admin',
    member: 'side-a-member',
    markers: [
      'Zeta_Hidden_Tenant',
      'Zeta_Hidden_Role',
      'zeta-hidden-user',
      'Zeta hidden description',
      'Zeta hidden privilege',
      'Zeta hidden role',
      'Zeta hidden message',
      'Zeta hidden content',
      'zeta-smtp-secret',
      'zeta-idp-secret',
      'Zeta hidden token',
      'zeta-hidden-hook',
      ...ids,
    ],
  };
}

/** A path parameter filled with the other side's record of the right kind. */
export function otherSideParam(sides: TwoSides, path: string, name: string): string {
  if (name === 'appId') return sides.appY.id;
  if (name === 'idpCode') return sides.idpCode;
  if (name === 'name') return `${'0'.repeat(64)}.png`;
  if (name !== 'id') return `probe-${name}-0123456789`;
  const kinds: [RegExp, string][] = [
    [/\/privileges\/\{id\}/, sides.privilegeY.id],
    [/\/roles\/\{id\}/, sides.roleY.id],
    [/^\/api\/(user|authc\/user)\//, sides.userB.id],
    [/^\/api\/cas\/sessions\//, sides.sessionB],
    [/^\/api\/tenants\//, sides.tenantB.id],
    [/^\/api\/apps\//, sides.appY.id],
    [/^\/api\/menu-plans\//, sides.planY.id],
    [/^\/api\/channels\//, sides.channel.id],
    [/^\/api\/messages\//, sides.messageB.id],
    [/^\/api\/scim-tokens\//, sides.scimTokenB.id],
    [/^\/api\/webhooks\//, sides.webhookB.id],
    // A SAML sign-in waiting for a person belongs to no one until answered: a made-up one.
    [/^\/api\/saml\/requests\//, 'probe-saml-request-0123456789'],
  ];
  const kind = kinds.find(([pattern]) => pattern.test(path));
  if (!kind) throw new Error(`no fixture for {id} of ${path}: add its kind to otherSideParam`);
  return kind[1];
}

/** Query values that aim a search at the other side (e.g. the member lookup, the user list). */
export function otherSideQuery(operation: Operation): string {
  const values: Record<string, string> = { searchValue: 'zeta-hidden' };
  const query = new URLSearchParams(operation.query.filter((name) => name in values).map((name) => [name, values[name]!]));
  return query.size ? `?${query.toString()}` : '';
}

/** A body that passes validation where it can, every reference pointing at the other side, so
 *  that a refusal comes from the scope check and not from the input rules. */
export function otherSideBody(sides: TwoSides, operation: Operation, callerPassword: string): Record<string, unknown> {
  const appScoped = operation.path.startsWith('/api/apps/');
  const values: Record<string, unknown> = {
    id: sides.userB.id,
    loginUserId: sides.userB.id,
    username: sides.userB.username,
    realName: 'Probe_Name',
    name: 'Probe_Name',
    description: 'Probe description',
    title: 'Probe title',
    content: 'Probe content',
    password: transform(PROBE_PASSWORD),
    opUserPassword: transform(callerPassword),
    tenantId: sides.tenantB.id,
    parentId: appScoped ? sides.privilegeY.id : sides.tenantB.id,
    appId: sides.appY.id,
    userIds: [sides.userB.id],
    roleIds: [sides.roleY.id],
    privilegeIds: [sides.privilegeY.id],
    ids: [sides.privilegeY.id],
    channelId: sides.channel.id,
    type: 'company',
    key: 'probekey',
    items: [],
    allow: true,
    version: 1,
    postLogoutRedirectUris: ['https://probe.example/after-logout'],
    // A directory connection (PUT /api/tenants/{id}/ldap), mapping a group to the other side's role.
    enabled: true,
    bindSecret: 'probe-bind-secret',
    settings: {
      url: 'ldap://127.0.0.1:1',
      startTls: false,
      caCertificate: '',
      bindDn: 'cn=probe,dc=example,dc=org',
      baseDn: 'dc=example,dc=org',
      ...LDAP_PRESET_SETTINGS.openLdap,
      preset: 'openLdap',
      groupRoles: [{ groupDn: 'cn=probe,dc=example,dc=org', roleId: sides.roleY.id }],
      syncIntervalMinutes: 0,
      allowLocalPasswords: true,
    },
  };
  // A body the document cannot spell out (a union, e.g. the admin/self password reset): every field.
  if (!operation.bodyProps.length) return values;
  return Object.fromEntries(operation.bodyProps.filter((name) => name in values).map((name) => [name, values[name]]));
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with exactly these headers (fetch would replace Host): forged Host and X-Forwarded-*. */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      base + path,
      { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
