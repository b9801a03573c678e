// A tenant's directory connection as administrators read and change it (server/routes/ldap.ts):
// the bind secret is write-only like an identity provider's client secret (server/services/idps.ts):
// stored, never answered, an empty one keeps the stored secret. Mapping groups to roles is granting
// those roles: the caller must be allowed to grant them (server/auth/grants.ts), since every later
// synchronisation hands them out in the caller's stead. Whether the connection is asked at first
// sign-ins is the platform administrator's choice alone (firstSignInOf).
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { LdapConnectionTable } from '../db/tables';
import type { Actor } from '../auth/actor';
import type { LdapConnection, LdapSettings, LdapTestAnswer, ldapConnectionBody } from '../../src/core/schemas/ldap';
import { LDAP_STEPS } from '../../src/core/schemas/ldap';
import { digest, newId } from '../auth/secrets';
import { changeDetail, changedFields } from '../audit-changes';
import { assertMayAllowFirstSignIns, assertMayGrantRows } from '../auth/grants';
import { fieldError, notFound } from '../http/errors';
import { removedOnce } from '../db/removal';
import { updateVersioned } from '../db/versioned';
import { lockByName } from '../db/named-lock';
import { manageableTenant } from '../services/tenants';
import { Directory, DirectoryError } from './directory';

export type LdapConnectionRow = Selectable<LdapConnectionTable>;

export const settingsOf = (row: LdapConnectionRow) => JSON.parse(row.settings) as LdapSettings;

const toConnection = (row: LdapConnectionRow): LdapConnection => ({
  id: row.id,
  tenantId: row.tenantId,
  name: row.name,
  enabled: row.enabled === 1,
  firstSignIn: row.firstSignIn === 1,
  settings: settingsOf(row),
  hasBindSecret: row.bindSecret !== '',
  lastSyncAt: row.lastSyncAt,
  version: row.version,
});

type RecordedConnection = { name: string; enabled: number; firstSignIn: number; settings: string; bindSecret: string };

/** A connection as its audit record compares it, old → new: the settings as saved (the bind secret
 *  is masked by its name; the CA certificate, up to 64 KB of PEM, by the SHA-256 of its text), each
 *  group's role with its name beside its id (`roleNames`), so that an auditor reads which role. */
const recorded = (connection: RecordedConnection, roleNames: Map<string, string | null>) => {
  const settings = JSON.parse(connection.settings) as LdapSettings;
  return {
    name: connection.name,
    enabled: connection.enabled === 1,
    firstSignIn: connection.firstSignIn === 1,
    settings: {
      ...settings,
      caCertificate: settings.caCertificate && `sha256:${digest(settings.caCertificate)}`,
      groupRoles: settings.groupRoles.map((entry) => ({ ...entry, role: roleNames.get(entry.roleId) ?? null })),
    },
    bindSecret: connection.bindSecret,
  };
};

/** The names of the roles the connections' group mappings give (read in the change's transaction). */
async function roleNamesOf(ctx: Ctx, connections: RecordedConnection[]): Promise<Map<string, string | null>> {
  const ids = new Set(connections.flatMap((connection) => (JSON.parse(connection.settings) as LdapSettings).groupRoles.map((entry) => entry.roleId)));
  return new Map((await ctx.audit.named('role', [...ids])).map(({ id, name }) => [id, name]));
}

const connectionOfTenant = (ctx: Ctx, tenantId: string) => ctx.db.selectFrom('ldapConnections').selectAll().where('tenantId', '=', tenantId).executeTakeFirst();

/** The connection of a tenant of the actor's scope (404 for a tenant outside it). */
export async function readConnection(ctx: Ctx, actor: Actor, tenantId: string): Promise<LdapConnection | null> {
  await manageableTenant(ctx, actor, tenantId);
  const row = await connectionOfTenant(ctx, tenantId);
  return row ? toConnection(row) : null;
}

/** A connection of a tenant of the actor's scope, or 404. */
export async function manageableConnection(ctx: Ctx, actor: Actor, tenantId: string): Promise<LdapConnectionRow> {
  await manageableTenant(ctx, actor, tenantId);
  const row = await connectionOfTenant(ctx, tenantId);
  if (!row) throw notFound('Directory connection');
  return row;
}

async function checkGroupRoles(ctx: Ctx, actor: Actor, settings: LdapSettings): Promise<void> {
  const ids = [...new Set(settings.groupRoles.map((entry) => entry.roleId))];
  const known = ids.length ? await ctx.db.selectFrom('roles').select('id').where('id', 'in', ids).execute() : [];
  if (known.length !== ids.length) throw fieldError([{ field: 'settings.groupRoles', rule: 'rule.roleIds' }]);
  await assertMayGrantRows(ctx, actor, 'roles', ids);
}

/** Another directory may answer: a new address, or a new way of telling it is the one. */
const directoryMoved = (stored: LdapSettings, next: LdapSettings) =>
  stored.url !== next.url || stored.startTls !== next.startTls || stored.caCertificate !== next.caCertificate;

const secretDestinationChanged = (stored: LdapSettings, next: LdapSettings) => directoryMoved(stored, next) || stored.bindDn !== next.bindDn;

/** Whether the saved connection is asked at first sign-ins: left out of the body, the stored choice
 *  stays (off for a new connection); a change is the platform administrator's (403 for anyone
 *  else). A save by anyone else that moves the connection to another directory switches it off: the
 *  platform allowed the directory it saw, not whichever one the connection points at next. */
function firstSignInOf(actor: Actor, current: LdapConnectionRow | undefined, body: v.InferOutput<typeof ldapConnectionBody>): boolean {
  const stored = current?.firstSignIn === 1;
  if (body.firstSignIn !== undefined && body.firstSignIn !== stored) assertMayAllowFirstSignIns(actor);
  const moved = current !== undefined && directoryMoved(settingsOf(current), body.settings);
  return (body.firstSignIn ?? stored) && (actor.platformAdmin || !moved);
}

/**
 * A Windows domain names one directory (`CORP\\jdoe` goes to it alone, server/ldap/sign-in-name.ts):
 * a domain another tenant's connection names already is refused, or that tenant's people could no
 * longer sign in by it (two connections of one domain sign nobody in). Checked under one lock for
 * every tenant, so two saves at once cannot both claim it.
 */
async function checkDomainUnclaimed(ctx: Ctx, tenantId: string, netbiosDomain: string): Promise<void> {
  if (!netbiosDomain) return;
  await lockByName(ctx, 'directory Windows domains');
  const others = await ctx.db.selectFrom('ldapConnections').selectAll().where('tenantId', '!=', tenantId).execute();
  if (others.some((row) => settingsOf(row).netbiosDomain.toLowerCase() === netbiosDomain.toLowerCase())) {
    throw fieldError([{ field: 'settings.netbiosDomain', rule: 'rule.ldapNetbiosDomainTaken' }]);
  }
}

/** Creates or replaces the tenant's connection, audited with the settings it changed, old → new
 *  (the bind secret only as changed, when it did: never its value). The
 *  stored connection is read under the tenant's lock of it, to the end of the change: a burst of
 *  first saves makes one connection and replaces it (an insert each answered 500 on PostgreSQL). */
export async function saveConnection(
  ctx: Ctx,
  actor: Actor,
  tenantId: string,
  body: v.InferOutput<typeof ldapConnectionBody>,
  ip: string,
): Promise<LdapConnection> {
  const tenant = await manageableTenant(ctx, actor, tenantId);
  await checkGroupRoles(ctx, actor, body.settings);
  const now = ctx.now();
  const id = await ctx.audit.change(async () => {
    await lockByName(ctx, `tenant ${tenant.id} directory connection`);
    const current = await connectionOfTenant(ctx, tenant.id);
    if (!current && !body.bindSecret) throw fieldError([{ field: 'bindSecret', rule: 'rule.required' }]);
    // The stored secret goes only where it was typed for: a new address, bind DN, CA or StartTLS
    // choice needs it typed again (whoever may edit the connection was never shown it).
    if (current && !body.bindSecret && secretDestinationChanged(settingsOf(current), body.settings)) {
      throw fieldError([{ field: 'bindSecret', rule: 'rule.ldapSecretAgain' }]);
    }
    await checkDomainUnclaimed(ctx, tenant.id, body.settings.netbiosDomain);
    const firstSignIn = firstSignInOf(actor, current, body);
    const changes = {
      name: body.name,
      enabled: body.enabled ? 1 : 0,
      firstSignIn: firstSignIn ? 1 : 0,
      settings: JSON.stringify(body.settings),
      ...(body.bindSecret ? { bindSecret: body.bindSecret } : {}),
    };
    let id: string;
    if (current) {
      await updateVersioned(ctx.db, 'ldapConnections', current.id, current.version, changes, now);
      id = current.id;
    } else {
      id = newId();
      await ctx.db
        .insertInto('ldapConnections')
        .values({ id, tenantId: tenant.id, bindSecret: '', ...changes, lastSyncAt: null, version: 1, createdAt: now, updatedAt: now })
        .execute();
    }
    const saved = { ...changes, bindSecret: body.bindSecret || (current?.bindSecret ?? '') };
    const roleNames = await roleNamesOf(ctx, current ? [current, saved] : [saved]);
    await ctx.audit.record({
      action: 'settings.update',
      actor,
      target: { type: 'ldap_connection', id, name: body.name },
      tenantId: tenant.id,
      ip,
      detail: changeDetail(changedFields(current ? recorded(current, roleNames) : {}, recorded(saved, roleNames))),
    });
    return id;
  });
  return toConnection(await ctx.db.selectFrom('ldapConnections').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

export async function deleteConnection(ctx: Ctx, actor: Actor, tenantId: string, ip: string): Promise<void> {
  const row = await manageableConnection(ctx, actor, tenantId);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('ldapConnections').where('id', '=', row.id).executeTakeFirst(), 'Directory connection');
    await ctx.audit.record({
      action: 'settings.update',
      actor,
      target: { type: 'ldap_connection', id: row.id, name: row.name },
      tenantId,
      ip,
      detail: { deleted: true },
    });
  });
}

/** "Test connection": connect, TLS, bind and a search of the user filter with the stored settings;
 *  the answer names the step that failed, and the mapped groups the directory does not have.
 *  Changes nothing. */
export async function testConnection(ctx: Ctx, actor: Actor, tenantId: string): Promise<LdapTestAnswer> {
  const row = await manageableConnection(ctx, actor, tenantId);
  const settings = settingsOf(row);
  const steps = LDAP_STEPS.filter((step) => step !== 'tls' || settings.startTls || settings.url.toLowerCase().startsWith('ldaps:'));
  let directory: Directory | undefined;
  try {
    directory = await Directory.open(ctx, { settings, bindSecret: row.bindSecret });
    const found = (await directory.people()).length;
    const unknownGroups = await directory.unknownGroups(settings.groupRoles.map((entry) => entry.groupDn));
    return { ok: true, passed: [...steps], failedStep: null, message: 'Connected, bound and searched', found, unknownGroups };
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    return { ok: false, passed: steps.slice(0, steps.indexOf(error.step)), failedStep: error.step, message: error.message, found: null, unknownGroups: [] };
  } finally {
    await directory?.close();
  }
}
