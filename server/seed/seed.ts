// Fills a database with realistic sample data for demos and benchmarks (`npm run seed`): the
// tenant tree, apps with privileges and roles, and any number of users spread over the tenants.
// Fast: batched inserts, a transaction per few thousand users, and ONE Argon2id hash of the seed
// password shared by every seeded user. Re-runnable: a marker in the settings table records how
// many users the seed made; a later run with a larger --users tops up, a smaller one does nothing;
// a database holding data the seed did not make is refused.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { AppAdminTable, Database, RoleMemberTable } from '../db/tables';
import { openDatabase } from '../db/connect';
import { resolveConfig } from '../config';
import { bootstrap } from '../bootstrap';
import { SettingsStore } from '../settings';
import { hashPassword } from '../auth/kdf';
import { transformNewPassword } from '../../src/core/password';
import { UserType } from '../../src/core/enums';
import { Random } from './random';
import { planApps, planTenants, type RoleName, type Workplace } from './organisation';
import { PeopleFactory, type Placement, type UserRow } from './people';

/** The password of every seeded user unless told otherwise: sample data, printed on every run. */
export const DEFAULT_SEED_PASSWORD = 'Seed@2024';
const MARKER_KEY = 'seed';
/** Same seed number, same people (see random.ts); a top-up continues with a different stream. */
const RANDOM_SEED = 20_240_601;
const USERS_PER_TRANSACTION = 5_000;
/** Rows per INSERT: well under SQLite's 32 766 and PostgreSQL's 65 535 bound parameters. */
const ROWS_PER_INSERT = { users: 500, links: 2_000 } as const;

interface Marker {
  users: number;
  workplaces: Workplace[];
  firstRunAt: number;
  lastRunAt: number;
}

export class SeedRefused extends Error {
  override readonly name = 'SeedRefused';
}

export interface SeedRequest {
  /** How many seeded users the database should hold in the end. */
  users: number;
  passwordHash: string;
  now: number;
  log?: (line: string) => void;
}

export interface SeedSummary {
  added: number;
  seededUsers: number;
  totalUsers: number;
  tenants: number;
  apps: number;
  roles: number;
  seconds: number;
  /** A few enabled seeded login names (to try signing in). */
  examples: string[];
}

async function insertRows<T extends keyof Database>(db: Kysely<Database>, table: T, rows: Insertable<Database[T]>[], perInsert: number): Promise<void> {
  for (let at = 0; at < rows.length; at += perInsert) {
    // Kysely cannot check values() against a table chosen by a type parameter; the callers' rows are typed.
    await db
      .insertInto(table)
      .values(rows.slice(at, at + perInsert))
      .execute();
  }
}

async function countOf(db: Kysely<Database>, table: 'users' | 'tenants' | 'apps' | 'roles'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

function readMarker(raw: string | undefined): Marker | undefined {
  if (!raw) return undefined;
  const marker = JSON.parse(raw) as Partial<Marker>;
  if (typeof marker.users !== 'number' || !Array.isArray(marker.workplaces)) throw new SeedRefused(`the "${MARKER_KEY}" setting is not a seed marker`);
  return marker as Marker;
}

/** First run: refuses a database with data of its own, then writes the tenants and the apps. */
async function firstRun(db: Kysely<Database>, root: { id: string; path: string }, now: number): Promise<{ marker: Marker; specials: Placement[] }> {
  const [users, tenants] = [await countOf(db, 'users'), await countOf(db, 'tenants')];
  if (users > 1 || tenants > 1) {
    throw new SeedRefused(`the database already holds ${users} users and ${tenants} tenants that the seed did not create; seed an empty data dir or database`);
  }
  const tenantPlan = planTenants(root, now);
  const appPlan = planApps(now);
  const marker: Marker = { users: 0, workplaces: tenantPlan.workplaces, firstRunAt: now, lastRunAt: now };
  await db.transaction().execute(async (trx) => {
    await insertRows(trx, 'tenants', tenantPlan.rows, ROWS_PER_INSERT.links);
    await insertRows(trx, 'apps', appPlan.apps, ROWS_PER_INSERT.links);
    await insertRows(trx, 'privileges', appPlan.privileges, ROWS_PER_INSERT.links);
    await insertRows(trx, 'roles', appPlan.roles, ROWS_PER_INSERT.links);
    await insertRows(trx, 'rolePrivileges', appPlan.rolePrivileges, ROWS_PER_INSERT.links);
    await new SettingsStore(trx, () => now).setRaw(MARKER_KEY, JSON.stringify(marker));
  });
  // The people who run things come first: platform staff, then two administrators per organisation.
  const platform = { tenantId: root.id, domain: 'iam.example.com', userType: UserType.Platform };
  const specials: Placement[] = [
    { ...platform, isAdmin: true, isMaster: true, description: '平台管理员' },
    { ...platform, isAdmin: true, isMaster: true, description: '平台管理员' },
    ...Array.from({ length: 3 }, () => ({ ...platform, description: '平台运营' })),
    ...tenantPlan.organisations.flatMap((organisation) => Array.from({ length: 2 }, () => ({ ...organisation, isAdmin: true, description: '租户管理员' }))),
  ];
  return { marker, specials };
}

interface RoleRef {
  id: string;
  appId: string;
  name: RoleName;
  master: boolean;
}

/** Roles and app administration for one user: everyone uses the portal; some use more apps. */
function accessOf(random: Random, user: UserRow, roles: RoleRef[]): { members: RoleMemberTable[]; admins: AppAdminTable[] } {
  const role = (name: RoleName, master: boolean) => random.pick(roles.filter((r) => r.name === name && r.master === master));
  const granted = new Set<RoleRef>([role('普通用户', true)]);
  const admins: AppAdminTable[] = [];
  if (user.isAdmin === 1) {
    granted.add(role('管理员', true));
    const app = role('管理员', false);
    granted.add(app);
    if (user.userType === UserType.Tenant) admins.push({ appId: app.appId, userId: user.id });
  } else {
    if (random.chance(0.5)) granted.add(role('普通用户', false));
    if (random.chance(0.02)) granted.add(role('审计员', false));
  }
  return { members: [...granted].map((r) => ({ roleId: r.id, userId: user.id })), admins };
}

export async function seedDatabase(db: Kysely<Database>, request: SeedRequest): Promise<SeedSummary> {
  const started = performance.now();
  const log = request.log ?? (() => {});
  const { now } = request;
  const root = await db.selectFrom('tenants').select(['id', 'path']).where('parentId', 'is', null).executeTakeFirstOrThrow();
  let marker = readMarker(await new SettingsStore(db, () => now).getRaw(MARKER_KEY));
  let specials: Placement[] = [];
  if (!marker) ({ marker, specials } = await firstRun(db, root, now));
  const seededBefore = marker.users;

  if (seededBefore < request.users) {
    log(`Seeding ${request.users - seededBefore} users (${seededBefore} seeded before) …`);
    const roles = (
      await db.selectFrom('roles').innerJoin('apps', 'apps.id', 'roles.appId').select(['roles.id', 'roles.appId', 'roles.name', 'apps.isMaster']).execute()
    ).map((row) => ({ id: row.id, appId: row.appId, name: row.name as RoleName, master: row.isMaster === 1 }));
    const usernames = new Set((await db.selectFrom('users').select('username').execute()).map((row) => row.username));
    const phones = new Set(
      (await db.selectFrom('users').select('mobilePhone').where('mobilePhone', 'is not', null).execute()).map((row) => row.mobilePhone as string),
    );
    const random = new Random(RANDOM_SEED + seededBefore);
    const people = new PeopleFactory(random, request.passwordHash, usernames, phones, marker.workplaces);

    for (let done = seededBefore; done < request.users;) {
      const count = Math.min(USERS_PER_TRANSACTION, request.users - done);
      const users: UserRow[] = [];
      const members: RoleMemberTable[] = [];
      const admins: AppAdminTable[] = [];
      for (let index = done; index < done + count; index++) {
        const placement = specials[index - seededBefore] ?? people.workplace();
        const user = people.person(placement, index / request.users, now);
        const access = accessOf(random, user, roles);
        users.push(user);
        members.push(...access.members);
        admins.push(...access.admins);
      }
      done += count;
      const next: Marker = { ...marker, users: done, lastRunAt: now };
      await db.transaction().execute(async (trx) => {
        await insertRows(trx, 'users', users, ROWS_PER_INSERT.users);
        await insertRows(trx, 'roleMembers', members, ROWS_PER_INSERT.links);
        await insertRows(trx, 'appAdmins', admins, ROWS_PER_INSERT.links);
        // In the same transaction: an interrupted run leaves a marker that matches the rows.
        await new SettingsStore(trx, () => now).setRaw(MARKER_KEY, JSON.stringify(next));
      });
      marker = next;
      log(`  ${done} / ${request.users} users (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }

  const examples = await db
    .selectFrom('users')
    .select('username')
    .where('userType', '=', UserType.Tenant)
    .where('isAdmin', '=', 0)
    .where('availabilityStatus', '=', 1)
    .orderBy('createdAt')
    .limit(3)
    .execute();
  return {
    added: Math.max(0, marker.users - seededBefore),
    seededUsers: marker.users,
    totalUsers: await countOf(db, 'users'),
    tenants: await countOf(db, 'tenants'),
    apps: await countOf(db, 'apps'),
    roles: await countOf(db, 'roles'),
    seconds: (performance.now() - started) / 1000,
    examples: examples.map((row) => row.username),
  };
}

export interface SeedOptions {
  users: number;
  /** The password of every seeded user (policy applies). */
  password: string;
  dataDir?: string;
  databaseUrl?: string;
  /** The first administrator's password, when the database is new (else generated and told once). */
  adminPassword?: string;
  log?: (line: string) => void;
}

/** Opens (and migrates) the database as the server does, bootstraps it, and seeds it. */
export async function seed(options: SeedOptions): Promise<SeedSummary> {
  const config = resolveConfig({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.adminPassword ? { adminPassword: options.adminPassword } : {}),
  });
  const db = await openDatabase(config);
  try {
    const now = config.clock.now();
    await bootstrap(db.kysely, config, now);
    // Computed once: 100 000 users must not run 100 000 KDFs.
    const passwordHash = await hashPassword(await transformNewPassword(options.password));
    const summary = await seedDatabase(db.kysely, { users: options.users, passwordHash, now, ...(options.log ? { log: options.log } : {}) });
    if (db.engine === 'postgres' && summary.added > 0) {
      // After a bulk load PostgreSQL's planner has no statistics (it would, e.g., sort every match of
      // a broad user search) and index-only scans still visit the table, until autovacuum comes by.
      await sql`vacuum analyze users, role_members, app_admins`.execute(db.kysely);
    }
    return summary;
  } finally {
    await db.close();
  }
}
