// The Payroll demo app (demo/payroll) registered in a console database: the app with its callback,
// post-logout and back-channel logout URIs at the demo's origin, its privileges, two roles, its
// menu, and a fresh client secret handed to the demo (never written anywhere else). Re-runnable:
// what exists is kept, the URIs follow the origin, and the platform administrator holds the
// manager role so that the demo works right after `npm start`.
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import { Status } from '../../src/core/enums';
import { newId } from '../auth/secrets';
import { oidcDb } from '../oidc/tables';
import { rotateClientSecret, storedClientSecret, updateClient } from '../oidc/clients';
import { resolveConfig } from '../config';
import { openDatabase } from '../db/connect';

const PAYROLL_APP = 'Payroll';
const PRIVILEGES = [
  { key: 'payslips_view', name: 'View payslips', path: '/payslips' },
  { key: 'payslips_approve', name: 'Approve payslips', path: '/approvals' },
  { key: 'salaries_edit', name: 'Edit salaries', path: '/salaries' },
] as const;
type Key = (typeof PRIVILEGES)[number]['key'];
const PAYROLL_ROLES: Record<string, readonly Key[]> = {
  'Payroll clerk': ['payslips_view'],
  'Payroll manager': ['payslips_view', 'payslips_approve', 'salaries_edit'],
};

export interface PayrollClient {
  clientId: string;
  clientSecret: string;
}

async function ensureApp(db: Kysely<Database>, origin: string, now: number): Promise<string> {
  const fields = { entrypoint: `${origin}/`, callbackUrl: `${origin}/callback`, status: Status.Enable, updatedAt: now };
  const existing = await db.selectFrom('apps').select('id').where('name', '=', PAYROLL_APP).executeTakeFirst();
  if (existing) {
    await db.updateTable('apps').set(fields).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const id = newId();
  await db
    .insertInto('apps')
    .values({ id, name: PAYROLL_APP, detail: 'Relying-party demo (demo/payroll)', isMaster: 0, version: 1, createdAt: now, ...fields })
    .execute();
  return id;
}

async function ensurePrivileges(db: Kysely<Database>, appId: string, now: number): Promise<Map<Key, string>> {
  const ids = new Map<Key, string>();
  for (const [sort, privilege] of PRIVILEGES.entries()) {
    const row = await db.selectFrom('privileges').select('id').where('appId', '=', appId).where('key', '=', privilege.key).executeTakeFirst();
    const id = row?.id ?? newId();
    if (!row)
      await db
        .insertInto('privileges')
        .values({ id, appId, parentId: null, sort, createdAt: now, ...privilege })
        .execute();
    ids.set(privilege.key, id);
  }
  return ids;
}

async function ensureRoles(db: Kysely<Database>, appId: string, privileges: Map<Key, string>, now: number): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [name, keys] of Object.entries(PAYROLL_ROLES)) {
    const row = await db.selectFrom('roles').select('id').where('appId', '=', appId).where('name', '=', name).executeTakeFirst();
    const id = row?.id ?? newId();
    if (!row) {
      await db
        .insertInto('roles')
        .values({ id, appId, name, description: `${PAYROLL_APP} demo`, version: 1, createdAt: now, updatedAt: now })
        .execute();
      await db
        .insertInto('rolePrivileges')
        .values(keys.map((key) => ({ roleId: id, privilegeId: privileges.get(key)! })))
        .execute();
    }
    ids.set(name, id);
  }
  return ids;
}

async function ensureMenu(db: Kysely<Database>, appId: string, privileges: Map<Key, string>, now: number): Promise<void> {
  if (await db.selectFrom('menuPlans').select('id').where('appId', '=', appId).executeTakeFirst()) return;
  const items = PRIVILEGES.map(({ key, name, path }) => ({ name, path, privilegeId: privileges.get(key)! }));
  await db
    .insertInto('menuPlans')
    .values({ id: newId(), appId, name: `${PAYROLL_APP} menu`, description: null, items: JSON.stringify(items), version: 1, createdAt: now, updatedAt: now })
    .execute();
}

/** Registers (or brings up to date) the Payroll app for the demo at `origin`; answers its client. */
export async function registerPayroll(db: Kysely<Database>, origin: string, adminUsername: string, now = Date.now()): Promise<PayrollClient> {
  const appId = await ensureApp(db, origin, now);
  const privileges = await ensurePrivileges(db, appId, now);
  const roles = await ensureRoles(db, appId, privileges, now);
  await ensureMenu(db, appId, privileges, now);
  const admin = await db.selectFrom('users').select('id').where('username', '=', adminUsername).executeTakeFirst();
  if (admin) {
    await db
      .insertInto('roleMembers')
      .values({ roleId: roles.get('Payroll manager')!, userId: admin.id })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  const clients = oidcDb(db);
  const made = await rotateClientSecret(clients, appId, now, await storedClientSecret(clients, appId));
  if (typeof made === 'string') throw new Error(`The payroll demo app ${appId}'s secret could not be made (${made}): it needs a confidential client`);
  const clientSecret = made.secret;
  // The demo is the console's own first-party app: trusted, so people are not asked to consent.
  await updateClient(clients, appId, { postLogoutRedirectUris: [`${origin}/`], backchannelLogoutUri: `${origin}/backchannel-logout`, trusted: true });
  return { clientId: appId, clientSecret };
}

/** The same, in the database the server's configuration names (IAM_DATA_DIR or DATABASE_URL). */
export async function registerPayrollInConfiguredDatabase(origin: string): Promise<PayrollClient> {
  const config = resolveConfig({});
  const db = await openDatabase(config);
  try {
    return await registerPayroll(db.kysely, origin, config.adminUsername);
  } finally {
    await db.close();
  }
}
