// Sessions in the database: the client holds a 256-bit random secret (cookie or token); the row
// keeps only its SHA-256, a public id, and the idle/absolute deadlines of the login settings.
import { sql, type Kysely } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';
import type { Database, UserTable } from '../db/tables';
import type { SettingsStore } from '../settings';
import { digest, newId, newSecret } from './secrets';
import type { UserRow } from './actor';
import type { OwnedApp } from '../../src/core/types';
import { preparedOnPostgres, type Engine } from '../db/connect';
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
    const bound: SessionBySecret = { ...this.sessionBySecret, parameters: [digest(secret)] };
    const [row] = (await this.db.executeQuery(bound)).rows;
    if (!row) return undefined;
    this.settings.adoptVersions({ login: row.loginSettingsVersion, config: row.configSettingsVersion });
    if (row.authMode !== mode) return undefined;
    const { value: policy } = await this.settings.get('login');
    const now = this.now();
    const idle = now - row.lastSeenAt > policy.sessionIdleMinutes * 60_000;
    // A password change after the session began ends it (revocation also deletes the rows).
    const stale = row.passwordChangedAt > row.sessionCreatedAt;
    if (now >= row.expiresAt || idle || stale || row.availabilityStatus !== Status.Enable) {
      await this.revoke(row.sessionId);
      return undefined;
    }
    if (now - row.lastSeenAt > TOUCH_EVERY_MS) {
      await this.db.updateTable('sessions').set({ lastSeenAt: now }).where('id', '=', row.sessionId).execute();
    }
    const {
      sessionId,
      tenantPath,
      ownedApps,
      lastSeenAt: _seen,
      expiresAt: _expires,
      authMode: _mode,
      sessionCreatedAt: _created,
      loginSettingsVersion: _login,
      configSettingsVersion: _config,
      ...user
    } = row;
    return { sessionId, user, tenantPath, ownedApps: toOwnedApps(ownedApps) };
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
