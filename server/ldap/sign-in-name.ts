// The names people type to sign in, as Windows taught them (docs/ldap.md, "Names people may
// type"): `jdoe`, `CORP\jdoe` (the Windows domain's short, NetBIOS, name, then the account name)
// and `jdoe@corp.example` (the userPrincipalName, whose suffix need not be the mail domain), in
// any letter case, with spaces around (the login body's rule trims them). Each spelling is read
// here as the one person it names before the sign-in's failure count is taken, so that every
// spelling of one person counts against one lockout (server/auth/throttle.ts):
// - `DOMAIN\name` is `name`, and only the one enabled connection whose netbiosDomain is DOMAIN may
//   check its password (server/ldap/sign-in.ts). A domain no connection names, or several do,
//   signs nobody in: a connection cannot claim another's domain to receive its people's passwords.
// - `name@suffix` is the person here whose directory entry has that principal name (recorded at
//   each synchronisation and directory sign-in, server/ldap/people.ts) in a directory trusted with
//   first sign-ins, unless someone here has it as their username; nobody here yet: those
//   directories are asked for it (server/ldap/lookup.ts).
// - Anything else is a username, as typed.
import { sql } from 'kysely';
import type { Ctx } from '../context';
import { accountByUsername } from '../auth/usernames';
import { settingsOf } from './connections';

export interface SignInName {
  /** The username to find the person here by and to count failures under. */
  username: string;
  /** Typed as `DOMAIN\name`: the id of that domain's connection, the only one that may check the
   *  password (null: no connection, or several, are of that domain). */
  domainConnectionId?: string | null;
}

/** How a principal name is kept and compared (Active Directory compares it without case). */
export const principalKey = (principalName: string) => principalName.toLowerCase();

async function downLevelName(ctx: Ctx, typed: string, slash: number): Promise<SignInName> {
  const domain = typed.slice(0, slash).trim().toLowerCase();
  const name = typed.slice(slash + 1).trim();
  // `CORP\\jdoe@corp.example` is no Windows spelling: read as a principal name it would be counted
  // apart from jdoe's own failures while its password still went to jdoe's entry.
  if (!domain || !name || name.includes('\\') || name.includes('@')) return { username: typed, domainConnectionId: null };
  const rows = await ctx.db.selectFrom('ldapConnections').selectAll().where('enabled', '=', 1).execute();
  const ofDomain = rows.filter((row) => settingsOf(row).netbiosDomain.toLowerCase() === domain);
  return ofDomain.length === 1 ? { username: name, domainConnectionId: ofDomain[0]!.id } : { username: typed, domainConnectionId: null };
}

/** The username of the one person here whose directory entry has `typed` as its principal name,
 *  unless it is someone else's e-mail here too (whose password goes to no directory). Only entries
 *  of directories the platform administrator trusts with first sign-ins count: any tenant's
 *  administrator can give an entry of their own directory any principal name, and the password
 *  typed with it would go to that directory. */
async function principalOwner(ctx: Ctx, typed: string): Promise<string | undefined> {
  if (await accountByUsername(ctx, typed)) return undefined;
  const owners = await ctx.db
    .selectFrom('ldapUserLinks')
    .innerJoin('users', 'users.id', 'ldapUserLinks.userId')
    .innerJoin('ldapConnections', 'ldapConnections.id', 'ldapUserLinks.connectionId')
    .select(['users.id', 'users.username'])
    .distinct()
    .where('ldapConnections.firstSignIn', '=', 1)
    .where('ldapUserLinks.principalName', '=', principalKey(typed))
    .limit(2)
    .execute();
  if (owners.length !== 1) return undefined;
  const [owner] = owners as [{ id: string; username: string }];
  const mailOfAnother = await ctx.db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', sql`lower(${typed})`)
    .where('id', '!=', owner.id)
    .limit(1)
    .executeTakeFirst();
  return mailOfAnother ? undefined : owner.username;
}

/** The person a typed sign-in name stands for (see the top of this file). */
export async function signInNameOf(ctx: Ctx, typed: string): Promise<SignInName> {
  const slash = typed.indexOf('\\');
  if (slash >= 0) return downLevelName(ctx, typed, slash);
  if (typed.includes('@')) return { username: (await principalOwner(ctx, typed)) ?? typed };
  return { username: typed };
}
