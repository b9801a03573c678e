// Reading a token's grant, provider session and person together with the token. After finding an
// access token, refresh token or authorization code, oidc-provider reads its Grant (by id), for a
// token that ends with the provider session that Session (by uid), and the person (findAccount,
// provider.ts: whether they may still sign in), one statement each. Here one statement answers all
// four; the other rows wait in the request's own read-ahead (a value scoped to the request, server/async-scope.ts, that the
// provider's mount opens for each request, routes/sso.ts) for the provider to ask for them, once.
// What is answered is the same rows a moment earlier, read together: a revoked grant, an ended
// session or a disabled person is absent from that read just as from a later one. Any write
// through the adapter empties the read-ahead, so a request never reads back older rows than it wrote.
// The same request state holds the request's new tokens until its answer (adapter.ts, heldWrites).
import { ScopedValue } from '../async-scope';
import { sql, type CompiledQuery, type Kysely, type Selectable } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import type { Engine } from '../db/connect';
import { compiledStatement } from '../db/statement';
import type { OidcDatabase, OidcPayloadTable } from './tables';
import type { UserTable } from '../db/tables';
import { clientMetadata, clientRows } from './clients';
import { Status } from '../../src/core/enums';

export type PayloadRow = { payload: string; expiresAt: number | null; consumedAt: number | null };

/** One row as the adapter writes it (an upsert by model and id): every column but the consume mark. */
export type PayloadWrite = Omit<OidcPayloadTable, 'consumedAt'>;

/** The models whose rows carry a grant id and, some, a session uid. */
export const READ_AHEAD_MODELS = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']);

/** The person's columns the provider's findAccount uses (provider.ts; extraProp says whether the email is verified). */
export const PERSON_COLUMNS = [
  'id',
  'username',
  'realName',
  'email',
  'extraProp',
  'mobilePhone',
  'avatar',
  'availabilityStatus',
  'tenantId',
  'userType',
] as const;

type PersonColumn = (typeof PERSON_COLUMNS)[number];
/** The person's columns in the joined row (camelCase: the database's CamelCasePlugin maps names). */
const personAlias = <C extends PersonColumn>(column: C) => `person${column[0]!.toUpperCase()}${column.slice(1)}` as `person${Capitalize<C>}`;

/** The rows of one request, and how many writes it made (a read that a write overtook keeps nothing). */
type ReadAhead = {
  rows: Map<string, PayloadRow | null>;
  people: Map<string, PersonRow | null>;
  /** Clients read with the token their request presents, by client id (clientWithTokenStatement). */
  clients: Map<string, AdapterPayload>;
  /** Access token reads under way, by token value: whether the token was found. */
  accessTokens: Map<string, Promise<boolean>>;
  writes: number;
  /** Token writes held until the request's answer, by model and id (the last write of a row wins). */
  held: Map<string, PayloadWrite>;
};

const store = new ScopedValue<ReadAhead>('provider read-ahead');

/** Runs `work` (one request to the provider) with its own read-ahead. */
export const withReadAhead = <T>(work: () => T): T =>
  store.run({ rows: new Map(), people: new Map(), clients: new Map(), accessTokens: new Map(), writes: 0, held: new Map() }, work);

const keyOf = (model: string, column: string, value: string) => `${model}\u0000${column}\u0000${value}`;

/** The row read ahead for this lookup, once: undefined when none was read ahead; null when the
 *  read found none. */
export function takeReadAhead(model: string, column: string, value: string): PayloadRow | null | undefined {
  const rows = store.getStore()?.rows;
  const key = keyOf(model, column, value);
  if (!rows?.has(key)) return undefined;
  const row = rows.get(key)!;
  rows.delete(key);
  return row;
}

/** The person read ahead with this request's token, once: undefined when none was read ahead; null
 *  when the read found no such person. */
export function takePersonReadAhead(id: string): PersonRow | null | undefined {
  const people = store.getStore()?.people;
  if (!people?.has(id)) return undefined;
  const person = people.get(id)!;
  people.delete(id);
  return person;
}

/** The client read ahead with the token of this request, once: undefined when none was read ahead. */
export function takeClientReadAhead(id: string): AdapterPayload | undefined {
  const clients = store.getStore()?.clients;
  const client = clients?.get(id);
  clients?.delete(id);
  return client;
}

/**
 * An opaque token's kind is not in its value, so oidc-provider's introspection and revocation look a
 * value up as an access token and as a machine (client_credentials) token at once, and take the
 * access token when both are found (helpers/token_find.js: the first found of [AccessToken,
 * ClientCredentials, …]). The machine-token lookup therefore waits for the access-token read of the
 * same value in this request: when that found a live token, the machine row could not change the
 * answer (values are 256-bit random: two kinds never share one) and is not read. Answers whether
 * it may be skipped.
 */
export async function foundAsAccessToken(value: string): Promise<boolean> {
  const read = store.getStore()?.accessTokens.get(value);
  return read ? read : false;
}

/** Records the access-token read of `value` under way in this request: whether it finds a live
 *  token (see foundAsAccessToken). */
export function noteAccessTokenRead(value: string, found: Promise<boolean>): void {
  store.getStore()?.accessTokens.set(
    value,
    found.catch(() => false),
  );
}

/** Holds `row` until the request's answer, when inside a provider request (answers whether it did). */
export function holdWrite(row: PayloadWrite): boolean {
  const held = store.getStore()?.held;
  if (!held) return false;
  held.set(keyOf(row.model, 'id', row.id), row);
  return true;
}

/** The writes held so far in this request, in order; none are held any more. */
export function takeHeldWrites(): PayloadWrite[] {
  const held = store.getStore()?.held;
  if (!held?.size) return [];
  const rows = [...held.values()];
  held.clear();
  return rows;
}

/** After a write: nothing read before it is answered any more. */
export function forgetReadAhead(): void {
  const ahead = store.getStore();
  if (!ahead) return;
  ahead.rows.clear();
  ahead.people.clear();
  ahead.writes++;
}

/** The token `model` `id` with its grant, its session (matched by the uid in the token's payload) and its person. */
function tokenWithGrant(db: Kysely<OidcDatabase>, engine: Engine, model: string, id: string) {
  const sessionUid =
    engine === 'postgres' ? sql<string | null>`(t.payload::json ->> 'sessionUid')` : sql<string | null>`json_extract(t.payload, '$.sessionUid')`;
  return (
    db
      .selectFrom('oidcPayloads as t')
      .leftJoin('oidcPayloads as g', (join) => join.on('g.model', '=', 'Grant').onRef('g.id', '=', 't.grantId'))
      .leftJoin('oidcPayloads as s', (join) => join.on('s.model', '=', 'Session').on('s.uid', '=', sessionUid))
      .leftJoin('users as u', 'u.id', 't.accountId')
      .select(['t.payload', 't.expiresAt', 't.consumedAt', 't.grantId', 't.accountId'])
      .select(sessionUid.as('sessionUid'))
      .select(['g.payload as grantPayload', 'g.expiresAt as grantExpiresAt', 'g.consumedAt as grantConsumedAt'])
      .select(['s.payload as sessionPayload', 's.expiresAt as sessionExpiresAt', 's.consumedAt as sessionConsumedAt'])
      // u.id null: no such person (the token's person was deleted).
      .select(PERSON_COLUMNS.map((column) => `u.${column} as ${personAlias(column)}` as const))
      .where('t.model', '=', model)
      .where('t.id', '=', id)
      .limit(1)
  );
}

/** The token with its grant, its session and its person, by model and id. */
export function tokenWithGrantStatement(db: Kysely<OidcDatabase>, engine: Engine) {
  return compiledStatement<{ model: string; id: string }>({ preparedOnPostgres: true })((slot) => tokenWithGrant(db, engine, slot('model'), slot('id')));
}

export type JoinedRow = ReturnType<ReturnType<typeof tokenWithGrantStatement>> extends CompiledQuery<infer Row> ? Row : never;

/** An app's client (clients.ts) with a token its request presents, that token's grant, session and
 *  person (the token's columns null when there is no such token; no row when there is no such client). */
export function clientWithTokenStatement(db: Kysely<OidcDatabase>, engine: Engine) {
  return compiledStatement<{ appId: string; model: string; id: string }>({ preparedOnPostgres: true })((slot) =>
    clientRows(db)
      .leftJoin(tokenWithGrant(db, engine, slot('model'), slot('id')).as('token'), (join) => join.onTrue())
      .selectAll('token')
      .where('apps.id', '=', slot('appId')),
  );
}

type ClientWithToken = ReturnType<ReturnType<typeof clientWithTokenStatement>> extends CompiledQuery<infer Row> ? Row : never;
export type PersonRow = Pick<Selectable<UserTable>, PersonColumn>;

/** Whether the person may still use what they were given (the provider's findAccount, provider.ts). */
export const maySignIn = (person: PersonRow | null | undefined): person is PersonRow => person?.availabilityStatus === Status.Enable;

/** The person's columns of a joined row; null when the token's person no longer exists. */
export function personOf(row: JoinedRow): PersonRow | null {
  if (row.personId === null) return null;
  return Object.fromEntries(PERSON_COLUMNS.map((column) => [column, row[personAlias(column)]])) as PersonRow;
}

/** Keeps the grant, session and person of a token's joined row for the request's next lookups. */
function keepJoined(ahead: ReadAhead, row: JoinedRow): void {
  const keep = (key: string, payload: string | null, expiresAt: number | null, consumedAt: number | null) =>
    ahead.rows.set(key, payload === null ? null : { payload, expiresAt, consumedAt });
  if (row.grantId) keep(keyOf('Grant', 'id', row.grantId), row.grantPayload, row.grantExpiresAt, row.grantConsumedAt);
  if (row.sessionUid) keep(keyOf('Session', 'uid', row.sessionUid), row.sessionPayload, row.sessionExpiresAt, row.sessionConsumedAt);
  if (row.accountId) ahead.people.set(row.accountId, personOf(row));
}

/** Inside a provider request, runs the joined `read` and keeps the grant and session of its row for
 *  the request's next lookups (unless a write of the request came in between); answers the token's
 *  row. Outside one, answers undefined: the caller reads the token alone. */
export async function readWithGrant(read: () => Promise<JoinedRow | undefined>): Promise<{ row: PayloadRow | undefined } | undefined> {
  const ahead = store.getStore();
  if (!ahead) return undefined;
  const writes = ahead.writes;
  const row = await read();
  if (!row) return { row: undefined };
  if (ahead.writes === writes) keepJoined(ahead, row);
  return { row: { payload: row.payload, expiresAt: row.expiresAt, consumedAt: row.consumedAt } };
}

/** Inside a provider request, runs the joined `read` of a client with the token `model` `id` that its
 *  request presents (clientWithTokenStatement), and keeps the client, the token, its grant, session
 *  and person for the request's next lookups; answers the client as the provider sees it (clients.ts),
 *  undefined when there is no such client. */
export async function readClientWithToken(model: string, id: string, read: () => Promise<ClientWithToken | undefined>): Promise<AdapterPayload | undefined> {
  const ahead = store.getStore();
  if (!ahead) throw new Error('readClientWithToken: outside a provider request');
  const writes = ahead.writes;
  const row = await read();
  const client = clientMetadata(row);
  if (!row || !client || ahead.writes !== writes) return client;
  ahead.clients.set(row.id, client);
  if (row.payload === null) ahead.rows.set(keyOf(model, 'id', id), null);
  else {
    ahead.rows.set(keyOf(model, 'id', id), { payload: row.payload, expiresAt: row.expiresAt, consumedAt: row.consumedAt });
    keepJoined(ahead, row as JoinedRow);
  }
  return client;
}
