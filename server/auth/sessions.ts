// Sessions in the database: the client holds a 256-bit random secret (cookie or token); the row
// keeps only its SHA-256, a public id, and the idle/absolute deadlines of the login settings.
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Database, UserTable } from '../db/tables';
import type { SettingsStore } from '../settings';
import { digest, newId, newSecret } from './secrets';
import type { UserRow } from './actor';
import type { OwnedApp } from '../../src/core/types';
import { preparedOnPostgres, type Db, type Engine } from '../db/connect';
import { Status } from '../../src/core/enums';

export type AuthMode = 'cookie' | 'token';

/** A live session with what its caller's actor is made of (server/auth/actor.ts). */
export interface ResolvedSession {
  sessionId: string;
  user: UserRow;
  /** The path of the user's tenant (null without one). */
  tenantPath: string | null;
  ownedApps: OwnedApp[];
}

export interface NewSession {
  id: string;
  secret: string;
  expiresAt: number;
}

/** lastSeenAt is written at most this often (a write per request would be wasteful): the idle
 *  timeout therefore counts from a last activity known to within this granularity. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The user's columns as the session statement answers them and as its actor holds them. The
 * statement's rows come as the driver answers them (Db.readRows): each column under its SQL
 * name, and this builds the user in one object literal, where the plugin's generic key-by-key copy
 * of all 26 columns and then a rest copy leaving out the session's cost every signed-in request
 * two objects built one property at a time.
 */
function userOf(row: SessionRow): UserRow {
  return {
    id: row.id,
    username: row.username,
    realName: row.real_name,
    email: row.email,
    mobilePhone: row.mobile_phone,
    description: row.description,
    availabilityStatus: row.availability_status,
    avatar: row.avatar,
    extraProp: row.extra_prop,
    userType: row.user_type,
    tenantId: row.tenant_id,
    isAdmin: row.is_admin,
    isMaster: row.is_master,
    passwordHash: row.password_hash,
    passwordChangedAt: row.password_changed_at,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The user's columns, listed (the statement is prepared on PostgreSQL: see preparedOnPostgres). */
const USER_COLUMNS = [
  'id',
  'username',
  'realName',
  'email',
  'mobilePhone',
  'description',
  'availabilityStatus',
  'avatar',
  'extraProp',
  'userType',
  'tenantId',
  'isAdmin',
  'isMaster',
  'passwordHash',
  'passwordChangedAt',
  'version',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof UserTable)[];

/** The query of every authenticated request, compiled once (Kysely would build and compile its SQL
 *  again per call); its one parameter, bound at each run, is the secret's digest. ONE statement
 *  answers everything the request's actor needs: session, user, the user's tenant path and the
 *  apps they administer (each by its index: sessions.secret_hash, the primary keys, app_admins_user). */
function sessionBySecretQuery(db: Kysely<Database>, engine: Engine) {
  return (
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .leftJoin('tenants', 'tenants.id', 'users.tenantId')
      .select(USER_COLUMNS.map((column) => `users.${column}` as const))
      .select([
        'sessions.id as sessionId',
        'sessions.lastSeenAt',
        'sessions.expiresAt',
        'sessions.authMode',
        'sessions.createdAt as sessionCreatedAt',
        'tenants.path as tenantPath',
      ])
      .select((eb) => {
        // The apps the user administers, as one JSON array column ([{id, name, entrypoint}] by name).
        const apps = eb
          .selectFrom('appAdmins')
          .innerJoin('apps', 'apps.id', 'appAdmins.appId')
          .select(['apps.id', 'apps.name', 'apps.entrypoint'])
          .whereRef('appAdmins.userId', '=', 'users.id')
          .orderBy('apps.name')
          .orderBy('apps.id');
        return (engine === 'postgres' ? postgresJsonArray(apps) : sqliteJsonArray(apps)).as('ownedApps');
      })
      // The settings documents' stored versions, read with the session (the same snapshot), so the
      // request's settings reads need no version query (SettingsStore.adoptVersions). Literal keys:
      // the secret's digest stays the statement's only parameter.
      .select((eb) => [
        eb.selectFrom('settings').select('version').where('key', '=', sql.lit('login')).as('loginSettingsVersion'),
        eb.selectFrom('settings').select('version').where('key', '=', sql.lit('config')).as('configSettingsVersion'),
      ])
      .where('sessions.secretHash', '=', '')
      .compile()
  );
}

type SessionBySecret = ReturnType<typeof sessionBySecretQuery>;

/** `camelCase` as SQL names it (`snake_case`): the camel-case plugin's mapping, as a type. */
type SqlName<S extends string> = S extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SqlName<Tail>}` : S;
/** A row of the session statement under its columns' SQL names (Db.readRows maps no names). */
type SessionRow = { [K in keyof InferRow<SessionBySecret> as SqlName<K & string>]: InferRow<SessionBySecret>[K] };
type InferRow<Q> = Q extends CompiledQuery<infer R> ? R : never;

type OwnedAppJson = { id: string; name: string; entrypoint: string | null };

/** SQLite answers the JSON array as text, PostgreSQL (json_agg) as parsed values. */
function toOwnedApps(column: OwnedAppJson[] | string): OwnedApp[] {
  const apps = typeof column === 'string' ? (JSON.parse(column) as OwnedAppJson[]) : column;
  return apps.map(({ id, name, entrypoint }) => ({ id, name, ...(entrypoint ? { entrypoint } : {}) }));
}

/** When the session `sessionId` began (its sign-in), on the console's clock; undefined once it ended. */
export async function sessionCreatedAt(db: Kysely<Database>, sessionId: string): Promise<number | undefined> {
  return (await db.selectFrom('sessions').select('createdAt').where('id', '=', sessionId).executeTakeFirst())?.createdAt;
}

export class SessionService {
  private readonly sessionBySecret: SessionBySecret;

  constructor(
    private readonly db: Kysely<Database>,
    engine: Engine,
    private readonly settings: SettingsStore,
    private readonly now: () => number,
    /** The session statement's rows as the driver answers them (see Db.readRows). */
    private readonly readRows: Db['readRows'],
  ) {
    this.sessionBySecret = sessionBySecretQuery(db, engine);
    preparedOnPostgres(this.sessionBySecret.sql);
  }

  async create(userId: string, mode: AuthMode, client: { ip: string | null; userAgent: string | null }): Promise<NewSession> {
    const { value: policy } = await this.settings.get('login');
    const secret = newSecret();
    const id = newId();
    const now = this.now();
    const expiresAt = now + policy.sessionAbsoluteHours * 3_600_000;
    await this.db
      .insertInto('sessions')
      .values({
        id,
        secretHash: digest(secret),
        userId,
        authMode: mode,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
      })
      .execute();
    return { id, secret, expiresAt };
  }

  /** The live session and its user for `secret`, or undefined (unknown, expired, idle, or the
   *  user disabled); dead sessions are deleted on sight. */
  async resolve(secret: string, mode: AuthMode): Promise<ResolvedSession | undefined> {
    const bound = { ...this.sessionBySecret, parameters: [digest(secret)] } as unknown as CompiledQuery<SessionRow>;
    const [row] = await this.readRows(bound);
    if (!row) return undefined;
    this.settings.adoptVersions({ login: row.login_settings_version, config: row.config_settings_version });
    if (row.auth_mode !== mode) return undefined;
    const { value: policy } = await this.settings.get('login');
    const now = this.now();
    const idle = now - row.last_seen_at > policy.sessionIdleMinutes * 60_000;
    // The absolute life as the policy says now: a limit lowered (an incident) ends older sessions too.
    const pastLife = now >= row.expires_at || now - row.session_created_at >= policy.sessionAbsoluteHours * 3_600_000;
    // A password change after the session began ends it (revocation also deletes the rows).
    const stale = row.password_changed_at > row.session_created_at;
    if (pastLife || idle || stale || row.availability_status !== Status.Enable) {
      await this.revoke(row.session_id);
      return undefined;
    }
    if (now - row.last_seen_at > TOUCH_EVERY_MS) {
      await this.db.updateTable('sessions').set({ lastSeenAt: now }).where('id', '=', row.session_id).execute();
    }
    return { sessionId: row.session_id, user: userOf(row), tenantPath: row.tenant_path, ownedApps: toOwnedApps(row.owned_apps) };
  }

  /** Ends one session; answers whether this call ended it (a parallel one may have). */
  async revoke(id: string): Promise<boolean> {
    const { numDeletedRows } = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return numDeletedRows > 0n;
  }

  async revokeSecret(secret: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('secretHash', '=', digest(secret)).execute();
  }

  /** Signs a user out everywhere, or everywhere but `keepId`. */
  async revokeUser(userId: string, keepId?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('userId', '=', userId);
    if (keepId) query = query.where('id', '!=', keepId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  list(userId: string) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'authMode', 'ip', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt'])
      .where('userId', '=', userId)
      .orderBy('lastSeenAt', 'desc')
      .orderBy('id')
      .execute();
  }
}
