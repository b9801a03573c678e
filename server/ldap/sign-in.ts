// The directory as a first factor of POST /authc/login (server/auth/login.ts asks here before the
// local password): a person a tenant's directory connection created signs in with the directory's
// password, checked by a bind as their entry (the password is never stored here); a username
// nobody here has is searched for at once in every enabled directory the platform administrator
// allowed for first sign-ins (server/ldap/lookup.ts) and, held by exactly one and bound there,
// becomes a person of that connection's tenant. Either way the sign-in brings the person in step with
// their entry (name, e-mail, state, sign-in name, the roles of mapped groups) as a synchronisation
// would. An entry already linked to someone here (renamed in the directory since, or created by a
// parallel first sign-in a moment ago) signs in as that person. An empty password never reaches a bind: an
// unauthenticated bind succeeds without proving anything. The lockout, captcha and rate limits of
// the sign-in apply around this, as for any password. A directory that cannot be reached is no
// wrong password: the sign-in says so and the attempt does not count. Nor is an account state that
// keeps a person out with the right password (disabled, expired or locked in Windows, a password
// to change there first: server/ldap/account-state.ts): the sign-in says which and what to do. A
// name typed as `DOMAIN\name` is checked only by that domain's connection (server/ldap/sign-in-name.ts).
import { sql } from 'kysely';
import type { Ctx } from '../context';
import type { UserRow } from '../auth/actor';
import { directoryActor } from './actor';
import { settingsOf, type LdapConnectionRow } from './connections';
import { Directory, DirectoryError, type DirectoryPerson } from './directory';
import { STATE_MESSAGES, type AccountState } from './account-state';
import type { SignInName } from './sign-in-name';
import { closeAll, holdersOf, type Holder } from './lookup';
import { createPerson, linkOf, outsideDirectory, updatePerson, type LinkedPerson } from './people';
import { applyGroupRoles } from './group-roles';
import { Status } from '../../src/core/enums';

export type DirectoryVerdict =
  /** Not a directory's person: the local password decides. */
  | { kind: 'local' }
  | { kind: 'passed'; user: UserRow }
  /** `audit`: what the failed sign-in's record says instead of the reason (for administrators to act on). */
  | { kind: 'refused'; reason: string; audit?: Record<string, unknown> }
  /** 503 with `message`, not counted toward a lockout; `audit`: the failed sign-in's record, if any. */
  | { kind: 'unreachable'; message: string; audit?: Record<string, unknown> }
  /** The right password, but the account's `state` keeps the person out: 403 with `message`, not
   *  counted toward a lockout; `user`: the person here, if they are one yet. */
  | { kind: 'blocked'; state: AccountState; message: string; user?: UserRow };

const unreachable: DirectoryVerdict = {
  kind: 'unreachable',
  message: 'The directory that checks your password cannot be reached; try again later or tell your administrator',
};

const actorOf = async (ctx: Ctx, row: LdapConnectionRow) => {
  const tenant = await ctx.db.selectFrom('tenants').select('path').where('id', '=', row.tenantId).executeTakeFirstOrThrow();
  return directoryActor(row, tenant.path);
};

/** What the directory said of a sign-in: the entry and its groups (nesting included) when the
 *  password is the entry's, or the account state that keeps it out. */
type Checked = Verified | Blocked | 'absent' | 'wrong';
interface Verified {
  person: DirectoryPerson;
  groups: Set<string>;
}
interface Blocked {
  person: DirectoryPerson;
  state: AccountState;
}

/** Binds as `person` with `password`: the state the bind or the entry names once the password is
 *  known right; else the entry's groups, read only when some are mapped to roles. */
async function checkedAs(directory: Directory, row: LdapConnectionRow, person: DirectoryPerson, password: string): Promise<Verified | Blocked | 'wrong'> {
  const answer = await directory.checkPassword(person.dn, password);
  if (answer === 'wrong') return 'wrong';
  const state = answer === 'match' ? person.state : answer;
  if (state) return { person, state };
  return { person, groups: settingsOf(row).groupRoles.length ? await directory.groupsOf(person) : new Set() };
}

const blocked = (state: AccountState, user?: UserRow): DirectoryVerdict => ({
  kind: 'blocked',
  state,
  message: STATE_MESSAGES[state],
  ...(user ? { user } : {}),
});

/** Finds the linked entry (by its stable id) and binds as it with `password`. */
async function bindAsLinked(ctx: Ctx, row: LdapConnectionRow, username: string, password: string, externalId: string): Promise<Checked> {
  const directory = await Directory.open(ctx, { settings: settingsOf(row), bindSecret: row.bindSecret });
  try {
    const person = (await directory.people(username)).find((entry) => entry.externalId === externalId);
    return person ? await checkedAs(directory, row, person, password) : 'absent';
  } finally {
    await directory.close();
  }
}

/**
 * Tells each holding tenant's administrators that a first sign-in of `username` was refused because
 * several directories hold it: one `ldap.sign_in_ambiguous` record per holding tenant, about its own
 * connection, so that it is in that tenant's audit log (the failed sign-in's own record, naming every
 * directory, belongs to no tenant yet and only the platform's administrators read it). A record
 * names the tenant's own connection and how many other directories hold the name, never another
 * tenant's connection or tenant.
 */
async function recordAmbiguity(ctx: Ctx, holders: Holder[], username: string, ip: string): Promise<void> {
  const events = holders.map(({ row, entries }) => ({
    action: 'ldap.sign_in_ambiguous' as const,
    target: { type: 'ldap_connection', id: row.id, name: row.name },
    tenantId: row.tenantId,
    ip,
    success: false,
    detail: { username, entries: entries.length, otherDirectories: holders.length - 1 },
  }));
  await ctx.audit.change(() => ctx.audit.recordAll(events));
}

/** A name nobody here has: the one directory that holds it checks the password, and the person is
 *  created in its tenant (server/ldap/lookup.ts). Held by several, the password goes to none; nor
 *  while another directory that may be the person's own could not be asked; nor (`domainOf`: typed
 *  as `DOMAIN\name`) when the one that holds it is not that domain's. */
async function signInNew(ctx: Ctx, username: string, password: string, ip: string, domainOf?: string): Promise<DirectoryVerdict> {
  const { holders, unasked } = await holdersOf(ctx, username);
  try {
    if (holders.length === 0) return { kind: 'local' };
    const [holder] = holders;
    if (domainOf !== undefined && holders.some(({ row }) => row.id !== domainOf)) {
      const directories = holders.map(({ row }) => ({ connection: row.name, tenantId: row.tenantId }));
      return { kind: 'refused', reason: "held by a directory other than the typed domain's", audit: { reason: 'directory_other_domain', directories } };
    }
    if (holders.length > 1 || holder!.entries.length > 1) {
      // For administrators to resolve: a synchronisation by the right tenant creates the person,
      // whose own directory then decides.
      const directories = holders.map(({ row }) => ({ connection: row.name, tenantId: row.tenantId }));
      await recordAmbiguity(ctx, holders, username, ip);
      return { kind: 'refused', reason: 'several directories hold this name', audit: { reason: 'directory_ambiguous', directories } };
    }
    const { row, directory, entries } = holder!;
    const person = entries[0]!;
    // Renamed in the directory since the last synchronisation: the entry is someone's here already,
    // and its own directory (the one that holds it) checks the password.
    const linked = await linkOf(ctx, row.id, person.externalId);
    if (linked) return await signInLinked(ctx, row, linked, ip, () => checkedAs(directory, row, person, password));
    // The platform chose every directory asked: one of them being out is the platform's to fix, not
    // a reason to hand the password to the only one that answered for the name.
    if (unasked.length > 0) {
      const unaskedDirectories = unasked.map((other) => ({ connection: other.name, tenantId: other.tenantId }));
      return {
        kind: 'unreachable',
        message: 'A directory could not be asked whether it holds this name; try again shortly',
        audit: { reason: 'directory_unasked', holder: { connection: row.name, tenantId: row.tenantId }, unasked: unaskedDirectories },
      };
    }
    const checked = await checkedAs(directory, row, person, password);
    if (checked === 'wrong') return { kind: 'refused', reason: 'directory password' };
    // Nobody is created for an account that cannot sign in yet (a synchronisation still brings it).
    if ('state' in checked) return blocked(checked.state);
    const actor = await actorOf(ctx, row);
    const outcome = await createPerson(ctx, actor, row.id, row.tenantId, person, ip);
    if (outcome.kind !== 'conflict') {
      await applyGroupRoles(ctx, settingsOf(row), actor, [{ user: outcome.user, groups: checked.groups }], ip);
      return { kind: 'passed', user: outcome.user };
    }
    // A parallel first sign-in of the same entry created the person a moment ago: this one, whose
    // password the directory accepted too, continues as that person (not a failure to count).
    const created = await linkOf(ctx, row.id, person.externalId);
    return created ? await signInLinked(ctx, row, created, ip, async () => checked) : { kind: 'refused', reason: `conflict: ${outcome.conflict.detail}` };
  } finally {
    await closeAll(holders);
  }
}

/** The person a linked sign-in continues as (brought in step with the entry first, its mapped
 *  groups' roles too); `check` asks the directory for the password. */
async function signInLinked(ctx: Ctx, row: LdapConnectionRow, linked: LinkedPerson, ip: string, check: () => Promise<Checked>): Promise<DirectoryVerdict> {
  const local = linked.user;
  if (row.enabled !== 1) return { kind: 'refused', reason: 'directory connection disabled' };
  // Disabled here: the directory's password cannot undo it (and is not even asked).
  if (local.availabilityStatus !== Status.Enable) return { kind: 'refused', reason: 'disabled here' };
  const actor = await actorOf(ctx, row);
  // No longer the directory's to vouch for (server/ldap/people.ts): their local password decides.
  if (await outsideDirectory(ctx, actor, local)) return { kind: 'local' };
  const checked = await check();
  if (checked === 'absent') return { kind: 'refused', reason: 'not in the directory' };
  if (checked === 'wrong') return { kind: 'refused', reason: 'directory password' };
  const outcome = await updatePerson(ctx, actor, row.id, linked, checked.person, ip);
  // Brought in step first, as a synchronisation would (disabled or expired there: disabled here).
  if ('state' in checked) return blocked(checked.state, outcome.kind === 'conflict' ? local : outcome.user);
  if (outcome.kind === 'conflict') return { kind: 'refused', reason: outcome.conflict.detail };
  await applyGroupRoles(ctx, settingsOf(row), actor, [{ user: outcome.user, groups: checked.groups }], ip);
  return { kind: 'passed', user: outcome.user };
}

const OTHER_DOMAIN: DirectoryVerdict = { kind: 'refused', reason: 'not of the typed Windows domain', audit: { reason: 'directory_other_domain' } };

/** Whether a directory vouches for this sign-in of `name` (server/ldap/sign-in-name.ts;
 *  `lookUpUnknown`: a username nobody here has is searched for in the enabled directories). */
export async function directoryFirstFactor(
  ctx: Ctx,
  name: SignInName,
  password: string | undefined,
  local: UserRow | undefined,
  lookUpUnknown: boolean,
  ip: string,
): Promise<DirectoryVerdict> {
  const { username: identifier, domainConnectionId: domainOf } = name;
  // `DOMAIN\name` of a domain no connection (or several) names: no directory checks it.
  if (domainOf === null) return { kind: 'refused', reason: 'no directory of the typed Windows domain', audit: { reason: 'directory_domain_unknown' } };
  try {
    if (local) {
      const link = await ctx.db
        .selectFrom('ldapUserLinks')
        .innerJoin('ldapConnections', 'ldapConnections.id', 'ldapUserLinks.connectionId')
        .selectAll('ldapConnections')
        .select(['ldapUserLinks.externalId', 'ldapUserLinks.dn', 'ldapUserLinks.principalName'])
        .where('ldapUserLinks.userId', '=', local.id)
        .executeTakeFirst();
      // Typed with a domain: only that domain's person, never a local one or another directory's.
      if (domainOf !== undefined && link?.id !== domainOf) return OTHER_DOMAIN;
      if (!link) return (await localPasswordsRefused(ctx, local)) ? { kind: 'refused', reason: 'local passwords not allowed' } : { kind: 'local' };
      if (!password) return { kind: 'refused', reason: 'empty directory password' };
      const { externalId, dn, principalName, ...row } = link;
      return await signInLinked(ctx, row, { user: local, dn, principalName }, ip, () => bindAsLinked(ctx, row, local.username, password, externalId));
    }
    // A name nobody here has as a username may still be someone's e-mail or phone, typed in the
    // username field: their password is not handed to any directory.
    if (!lookUpUnknown || (await someonesContact(ctx, identifier))) return { kind: 'local' };
    if (!password) {
      // Without a password nothing is bound and nobody is looked up (the answer is the same).
      const anyDirectory = await ctx.db.selectFrom('ldapConnections').select('id').where('enabled', '=', 1).limit(1).executeTakeFirst();
      return anyDirectory ? { kind: 'refused', reason: 'empty directory password' } : { kind: 'local' };
    }
    const verdict = await signInNew(ctx, identifier, password, ip, domainOf);
    // Typed with a domain, a name no directory holds is nobody's (no local password decides).
    return domainOf !== undefined && verdict.kind === 'local' ? OTHER_DOMAIN : verdict;
  } catch (error) {
    if (error instanceof DirectoryError) return unreachable;
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
