// Keeps one directory person and the person here in step (a synchronisation, a first sign-in): a new
// entry becomes a person of the connection's tenant, a linked one takes the directory's name, e-mail,
// phone and state, and its sign-in name when the entry was renamed (the link is the entry's stable
// id, not its name). Everything goes through the console's services (server/services/users.ts) with
// the console's field rules and audit, as the directory's actor (server/ldap/actor.ts): disabling
// goes through the one disable path, which ends the person's sessions and app grants. Someone here
// who already has the username or e-mail and is not this connection's is a conflict: reported and
// left alone, never merged.
import * as v from 'valibot';
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import type { Actor, UserRow } from '../auth/actor';
import type { LdapConflictEntry } from './report';
import { Status } from '../../src/core/enums';
import { userCreateBody, userUpdateBody } from '../../src/core/schemas/users';
import { fieldRule } from '../../src/core/validation/field-rules';
import { newSecret } from '../auth/secrets';
import { usernameKey } from '../auth/usernames';
import { heldContactKey, heldContacts } from '../auth/contacts';
import { loweredUserColumn } from '../db/search';
import { ApiError } from '../http/errors';
import * as users from '../services/users';
import { canManageUser } from '../auth/scope';
import { assertMayActOn } from '../auth/grants';
import type { DirectoryPerson } from './directory';
import { principalKey } from './sign-in-name';

export interface LinkedPerson {
  user: UserRow;
  dn: string;
  /** The entry's principal name as last seen, as principalKey keeps it ('' when none). */
  principalName: string;
}

const linksQuery = (ctx: Ctx, connectionId: string) =>
  ctx.db
    .selectFrom('ldapUserLinks')
    .innerJoin('users', 'users.id', 'ldapUserLinks.userId')
    .selectAll('users')
    .select(['ldapUserLinks.externalId', 'ldapUserLinks.dn', 'ldapUserLinks.principalName'])
    .where('ldapUserLinks.connectionId', '=', connectionId);

/** What this connection's people are linked by: the entry's stable id → the person here. */
export async function linksOf(ctx: Ctx, connectionId: string): Promise<Map<string, LinkedPerson>> {
  const rows = await linksQuery(ctx, connectionId).execute();
  return new Map(rows.map(({ externalId, dn, principalName, ...user }) => [externalId, { user, dn, principalName }]));
}

/** The person here linked to one entry of the connection (by its stable id), if any. */
export async function linkOf(ctx: Ctx, connectionId: string, externalId: string): Promise<LinkedPerson | undefined> {
  const row = await linksQuery(ctx, connectionId).where('ldapUserLinks.externalId', '=', externalId).executeTakeFirst();
  if (!row) return undefined;
  const { externalId: _id, dn, principalName, ...user } = row;
  return { user, dn, principalName };
}

/** A password nobody knows, as a browser would send it (the create body's rule wants one). */
const unknownPassword = () => createHash('sha256').update(newSecret()).digest('hex');
/** What a directory's person keeps as a local password hash: not a hash, so no password verifies
 *  against it (server/auth/kdf.ts), and no slow KDF runs for each of thousands of new people. */
const NO_LOCAL_PASSWORD = '!directory';

const blank = (value: string) => value.trim();

/** The console's rule that refused a directory value, as a conflict's detail. */
function refusal(error: unknown): string {
  if (error instanceof v.ValiError)
    return error.issues.map((issue: v.BaseIssue<unknown>) => `${issue.path?.map((item) => String(item.key)).join('.') ?? ''}: ${issue.message}`).join('; ');
  if (error instanceof ApiError) return `${error.message} ${JSON.stringify(error.data ?? '')}`;
  throw error;
}

/** `conflict` beside a person: the part of the entry that was not followed (a new sign-in name
 *  someone here has), reported while the rest was. */
export type PersonOutcome =
  { kind: 'created' | 'updated' | 'unchanged'; user: UserRow; conflict?: LdapConflictEntry } | { kind: 'conflict'; conflict: LdapConflictEntry };

/** Creates the person of a new directory entry, unless someone here has the username or e-mail. */
export async function createPerson(
  ctx: Ctx,
  actor: Actor,
  connectionId: string,
  tenantId: string,
  person: DirectoryPerson,
  ip: string,
): Promise<PersonOutcome> {
  return (await createPeople(ctx, actor, connectionId, tenantId, [person], ip))[0]!;
}

/**
 * Creates the people of new directory entries (a synchronisation's chunk, or one at a first
 * sign-in), each unless someone here, or an entry before it, has the username or e-mail: the
 * checks read the whole list in a few queries and the people are written together with their links
 * and audit records (users.createUsers), in one change. Answers each entry's outcome, in order.
 */
export async function createPeople(
  ctx: Ctx,
  actor: Actor,
  connectionId: string,
  tenantId: string,
  people: readonly DirectoryPerson[],
  ip: string,
): Promise<PersonOutcome[]> {
  if (!people.length) return [];
  const named = people.filter((person) => person.username);
  const usernames = new Set(
    named.length
      ? (
          await ctx.db
            .selectFrom('users')
            .select('username')
            .where(loweredUserColumn(ctx.engine, 'username'), 'in', [...new Set(named.map((person) => usernameKey(person.username)))])
            .execute()
        ).map((row) => usernameKey(row.username))
      : [],
  );
  const emails = await heldContacts(
    ctx,
    named.map((person) => ({ email: person.email })),
  );
  const outcomes: PersonOutcome[] = [];
  const valid: { at: number; person: DirectoryPerson; input: v.InferOutput<typeof userCreateBody> }[] = [];
  for (const person of people) {
    const conflictOver = (field: LdapConflictEntry['field'], detail: string): PersonOutcome => ({
      kind: 'conflict',
      conflict: { dn: person.dn, username: person.username, field, detail },
    });
    if (!person.username) outcomes.push(conflictOver('invalid', 'the entry has no value for the username attribute'));
    else if (usernames.has(usernameKey(person.username))) outcomes.push(conflictOver('username', TAKEN_DETAIL.username));
    else if (person.email && emails.has(heldContactKey('email', person.email))) outcomes.push(conflictOver('email', TAKEN_DETAIL.email));
    else {
      try {
        const input = v.parse(userCreateBody, {
          username: person.username,
          realName: blank(person.realName) || person.username,
          email: blank(person.email),
          mobilePhone: blank(person.mobilePhone),
          availabilityStatus: person.disabled ? Status.Disabled : Status.Enable,
          tenantId,
          password: unknownPassword(),
        });
        valid.push({ at: outcomes.length, person, input });
        outcomes.push(conflictOver('invalid', 'not created'));
      } catch (error) {
        outcomes.push(conflictOver('invalid', refusal(error)));
      }
    }
  }
  await ctx.audit.change(async () => {
    const created = await users.createUsers(
      ctx,
      actor,
      valid.map(({ input }) => input),
      ip,
      NO_LOCAL_PASSWORD,
    );
    const links: { connectionId: string; userId: string; externalId: string; dn: string; principalName: string }[] = [];
    valid.forEach(({ at, person }, index) => {
      const answer = created[index]!;
      if (answer instanceof ApiError) {
        // An entry before it in this list took the username or e-mail: the same conflict as with someone here.
        outcomes[at] = { kind: 'conflict', conflict: refusedEntry(person, answer) };
        return;
      }
      links.push({ connectionId, userId: answer.id, externalId: person.externalId, dn: person.dn, principalName: principalKey(person.principalName) });
      outcomes[at] = { kind: 'created', user: answer };
    });
    if (links.length) await ctx.db.insertInto('ldapUserLinks').values(links).execute();
  });
  return outcomes;
}

const TAKEN_DETAIL = { username: 'someone here already has this username', email: 'someone here already has this e-mail' } as const;

/** The conflict of an entry whose value the console refused: taken by someone here, or against a rule. */
function refusedEntry(person: DirectoryPerson, error: unknown): LdapConflictEntry {
  const field = error instanceof ApiError ? takenField(error) : undefined;
  return { dn: person.dn, username: person.username, field: field ?? 'invalid', detail: field ? TAKEN_DETAIL[field] : refusal(error) };
}

/** The one field a refusal says is taken, when that is all it says. */
function takenField(error: ApiError): keyof typeof TAKEN_DETAIL | undefined {
  const fields = (error.data as { fields?: { field: string; rule: string }[] } | null)?.fields ?? [];
  if (fields.length !== 1) return undefined;
  const [{ field, rule }] = fields as [{ field: string; rule: string }];
  if (field === 'username' && rule === 'rule.usernameTaken') return 'username';
  if (field === 'email' && rule === 'rule.emailTaken') return 'email';
  return undefined;
}

/**
 * Why the directory may no longer change or vouch for this person (null when it may). A directory
 * is its owner's: they can give any entry any password. So it speaks only for the people its
 * connection's tenant administrator could change: someone who left the tenant's subtree, or was
 * given more (administrator, platform rights, an app to administer), is no longer the directory's.
 */
export async function outsideDirectory(ctx: Ctx, actor: Actor, user: UserRow): Promise<string | null> {
  if (!(await canManageUser(ctx, actor, user))) return "this person is no longer of the directory's tenant";
  try {
    await assertMayActOn(ctx, actor, user);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
}

/**
 * outsideDirectory for each of `people` (a synchronisation's chunk), keyed by id: whether the actor
 * may manage a person depends only on their tenant and type, so it is asked once for each pair; and
 * when the actor may act on all of them together (as a rule), nobody is asked alone.
 */
export async function outsideDirectoryAll(ctx: Ctx, actor: Actor, people: readonly UserRow[]): Promise<Map<string, string | null>> {
  const manageable = new Map<string, boolean>();
  const managed: UserRow[] = [];
  const answers = new Map<string, string | null>();
  for (const user of people) {
    const kind = `${user.userType}:${user.tenantId}`;
    if (!manageable.has(kind)) manageable.set(kind, await canManageUser(ctx, actor, user));
    if (manageable.get(kind)) managed.push(user);
    else answers.set(user.id, "this person is no longer of the directory's tenant");
  }
  const together = managed.length
    ? await assertMayActOn(ctx, actor, managed).then(
        () => true,
        (error: unknown) => (error instanceof ApiError ? false : Promise.reject(error)),
      )
    : true;
  for (const user of managed) answers.set(user.id, together ? null : await outsideDirectory(ctx, actor, user));
  return answers;
}

/** Brings a linked person in step with their entry (`present: false`: gone from the directory, so
 *  disabled); `outside`: outsideDirectory's answer for them when the caller asked it already. */
export async function updatePerson(
  ctx: Ctx,
  actor: Actor,
  connectionId: string,
  linked: LinkedPerson,
  person: DirectoryPerson | undefined,
  ip: string,
  outside?: string | null,
): Promise<PersonOutcome> {
  const { user } = linked;
  if (outside === undefined) outside = await outsideDirectory(ctx, actor, user);
  if (outside) return { kind: 'conflict', conflict: { dn: person?.dn ?? linked.dn, username: user.username, field: 'invalid', detail: outside } };
  const wanted = person
    ? {
        realName: blank(person.realName) || user.realName,
        email: blank(person.email),
        mobilePhone: blank(person.mobilePhone),
        availabilityStatus: person.disabled ? Status.Disabled : Status.Enable,
      }
    : { availabilityStatus: Status.Disabled };
  const stored: Record<string, unknown> = {
    realName: user.realName,
    email: user.email ?? '',
    mobilePhone: user.mobilePhone ?? '',
    availabilityStatus: user.availabilityStatus,
  };
  const changed = Object.entries(wanted).some(([key, value]) => stored[key] !== value);
  // The entry's DN and principal name as the directory has them now (a sign-in by the principal
  // name finds the person by the link's, server/ldap/sign-in-name.ts).
  const link = person && { dn: person.dn, principalName: principalKey(person.principalName) };
  if (link && (link.dn !== linked.dn || link.principalName !== linked.principalName)) {
    await ctx.audit.change(() =>
      ctx.db.updateTable('ldapUserLinks').set(link).where('connectionId', '=', connectionId).where('userId', '=', user.id).execute(),
    );
  }
  let outcome: PersonOutcome = { kind: 'unchanged', user };
  if (changed) {
    try {
      const input = v.parse(userUpdateBody, { ...wanted, version: user.version });
      await users.updateUser(ctx, actor, user.id, input, ip);
      outcome = { kind: 'updated', user: await ctx.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow() };
    } catch (error) {
      return { kind: 'conflict', conflict: { dn: person?.dn ?? linked.dn, username: user.username, field: 'invalid', detail: refusal(error) } };
    }
  }
  return person?.username && person.username !== user.username ? followRename(ctx, actor, outcome, person, ip) : outcome;
}

/** The person takes the entry's new sign-in name; a name someone else has here (or the field rules
 *  refuse) is a conflict of the report, never a merge: the person keeps their name. */
async function followRename(ctx: Ctx, actor: Actor, outcome: PersonOutcome & { user: UserRow }, person: DirectoryPerson, ip: string): Promise<PersonOutcome> {
  try {
    v.parse(fieldRule.username, person.username);
    return { kind: 'updated', user: await users.renameUser(ctx, actor, outcome.user.id, person.username, ip) };
  } catch (error) {
    return { ...outcome, conflict: refusedEntry(person, error) };
  }
}
