// The directory as a first factor of POST /authc/login (server/auth/login.ts asks here before the
// local password): a person a tenant's directory connection created signs in with the directory's
// password, checked by a bind as their entry (the password is never stored here); a username
// nobody here has is looked up in each enabled directory and, found and bound, becomes a person of
// that connection's tenant (or is brought in step when they were created before). An empty password
// never reaches a bind: an unauthenticated bind succeeds without proving anything. The lockout,
// captcha and rate limits of the sign-in apply around this, as for any password. A directory that
// cannot be reached is no wrong password: the sign-in says so and the attempt does not count.
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { UserRow } from '../auth/actor';
import { ApiError } from '../http/errors';
import { directoryActor } from './actor';
import { settingsOf, type LdapConnectionRow } from './connections';
import { Directory, DirectoryError, type DirectoryPerson } from './directory';
import { createPerson, outsideDirectory, updatePerson } from './people';
import { Status } from '../../src/core/enums';

export type DirectoryVerdict =
  /** Not a directory's person: the local password decides. */
  { kind: 'local' } | { kind: 'passed'; user: UserRow } | { kind: 'refused'; reason: string } | { kind: 'unreachable' };

const DIRECTORY_UNREACHABLE = 'The directory that checks your password cannot be reached; try again later or tell your administrator';

export const unreachableError = () => new ApiError(503, DIRECTORY_UNREACHABLE);

const actorOf = async (ctx: Ctx, row: LdapConnectionRow) => {
  const tenant = await ctx.db.selectFrom('tenants').select('path').where('id', '=', row.tenantId).executeTakeFirstOrThrow();
  return directoryActor(row, tenant.path);
};

/** Finds `username` in the directory and binds as the entry with `password`. */
async function bindAs(
  ctx: Ctx,
  row: LdapConnectionRow,
  username: string,
  password: string,
  externalId?: string,
): Promise<DirectoryPerson | 'absent' | 'wrong'> {
  const directory = await Directory.open(ctx, { settings: settingsOf(row), bindSecret: row.bindSecret });
  try {
    const found = await directory.people(username);
    // A directory's matching rule may take another spelling as the same name (fullwidth letters):
    // only the entry of this very name counts, so no spelling gets a failure count of its own.
    const named = found.filter((entry) => entry.username.toLowerCase() === username.toLowerCase());
    const person = externalId ? found.find((entry) => entry.externalId === externalId) : named.length === 1 ? named[0] : undefined;
    if (!person) return 'absent';
    return (await directory.passwordMatches(person.dn, password)) ? person : 'wrong';
  } finally {
    await directory.close();
  }
}

/** The person a linked sign-in continues as (brought in step with the entry first). */
async function signInLinked(
  ctx: Ctx,
  row: LdapConnectionRow,
  local: UserRow,
  externalId: string,
  dn: string,
  password: string,
  ip: string,
): Promise<DirectoryVerdict> {
  if (row.enabled !== 1) return { kind: 'refused', reason: 'directory connection disabled' };
  // Disabled here: the directory's password cannot undo it (and is not even asked).
  if (local.availabilityStatus !== Status.Enable) return { kind: 'refused', reason: 'disabled here' };
  const actor = await actorOf(ctx, row);
  // No longer the directory's to vouch for (server/ldap/people.ts): their local password decides.
  if (await outsideDirectory(ctx, actor, local)) return { kind: 'local' };
  const person = await bindAs(ctx, row, local.username, password, externalId);
  if (person === 'absent') return { kind: 'refused', reason: 'not in the directory' };
  if (person === 'wrong') return { kind: 'refused', reason: 'directory password' };
  const outcome = await updatePerson(ctx, actor, row.id, { user: local, dn }, person, ip);
  return outcome.kind === 'conflict' ? { kind: 'refused', reason: outcome.conflict.detail } : { kind: 'passed', user: outcome.user };
}

/** Whether a directory vouches for this sign-in (`lookUpUnknown`: a username nobody here has is
 *  searched for in the enabled directories). */
export async function directoryFirstFactor(
  ctx: Ctx,
  identifier: string,
  password: string | undefined,
  local: UserRow | undefined,
  lookUpUnknown: boolean,
  ip: string,
): Promise<DirectoryVerdict> {
  try {
    if (local) {
      const link = await ctx.db
        .selectFrom('ldapUserLinks')
        .innerJoin('ldapConnections', 'ldapConnections.id', 'ldapUserLinks.connectionId')
        .selectAll('ldapConnections')
        .select(['ldapUserLinks.externalId', 'ldapUserLinks.dn'])
        .where('ldapUserLinks.userId', '=', local.id)
        .executeTakeFirst();
      if (!link) return (await localPasswordsRefused(ctx, local)) ? { kind: 'refused', reason: 'local passwords not allowed' } : { kind: 'local' };
      if (!password) return { kind: 'refused', reason: 'empty directory password' };
      const { externalId, dn, ...row } = link;
      return await signInLinked(ctx, row, local, externalId, dn, password, ip);
    }
    // A name nobody here has as a username may still be someone's e-mail or phone, typed in the
    // username field: their password is not handed to any directory.
    if (!lookUpUnknown || (await someonesContact(ctx, identifier))) return { kind: 'local' };
    const connections = await ctx.db.selectFrom('ldapConnections').selectAll().where('enabled', '=', 1).orderBy('createdAt').execute();
    let unreachable = false;
    for (const row of connections) {
      let person: Awaited<ReturnType<typeof bindAs>>;
      try {
        // Without a password nothing is bound (and nobody is looked up: the answer is the same).
        if (!password) return { kind: 'refused', reason: 'empty directory password' };
        person = await bindAs(ctx, row, identifier, password);
      } catch (error) {
        if (!(error instanceof DirectoryError)) throw error;
        unreachable = true;
        continue;
      }
      if (person === 'absent') continue;
      if (person === 'wrong') return { kind: 'refused', reason: 'directory password' };
      const outcome = await createPerson(ctx, await actorOf(ctx, row), row.id, row.tenantId, person, ip);
      return outcome.kind === 'conflict' ? { kind: 'refused', reason: `conflict: ${outcome.conflict.detail}` } : { kind: 'passed', user: outcome.user };
    }
    return unreachable ? { kind: 'unreachable' } : { kind: 'local' };
  } catch (error) {
    if (error instanceof DirectoryError) return { kind: 'unreachable' };
    throw error;
  }
}

const someonesContact = async (ctx: Ctx, identifier: string) =>
  (await ctx.db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb.or([eb(sql`lower(email)`, '=', sql`lower(${identifier})`), eb('mobilePhone', '=', identifier)]))
    .limit(1)
    .executeTakeFirst()) !== undefined;

/** A tenant whose directory connection does not allow local passwords: its people without a
 *  directory entry here cannot sign in with one. */
async function localPasswordsRefused(ctx: Ctx, local: UserRow): Promise<boolean> {
  if (!local.tenantId) return false;
  const row = await ctx.db.selectFrom('ldapConnections').selectAll().where('tenantId', '=', local.tenantId).where('enabled', '=', 1).executeTakeFirst();
  return row !== undefined && !settingsOf(row).allowLocalPasswords;
}
