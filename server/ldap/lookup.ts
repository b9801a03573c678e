// Which directories hold a sign-in name nobody here has yet (server/ldap/sign-in.ts): every enabled
// connection the platform administrator allowed for first sign-ins is asked at once, by a search
// with its own service account (never the person's password), each within a short bound. A
// directory's owner can put any entry in it, so a directory earns the password only by showing an
// entry of exactly the typed name, and only when no other directory shows one too (the caller
// decides that from the answer). A directory that does not answer within the bound is left out of
// the sign-in, and left out of the next ones for a while, so a silent directory neither holds every
// first sign-in nor makes an unknown name answer slower than a known one. The answer names those
// left out too: the name may be theirs.
import { setTimeout as delay } from 'node:timers/promises';
import type { Ctx } from '../context';
import { settingsOf, type LdapConnectionRow } from './connections';
import { Directory, DirectoryError, isNamed, type DirectoryPerson, type DirectoryTimeouts } from './directory';

/** How long a first sign-in waits for each directory (connect, TLS, bind and search together). */
const LOOKUP_BOUND_MS = 3_000;
const LOOKUP_TIMEOUTS: DirectoryTimeouts = { connectMs: LOOKUP_BOUND_MS, operationMs: LOOKUP_BOUND_MS };
/** How long a directory that let a lookup run out its bound is left out of first sign-ins. */
const QUIET_FOR_MS = 60_000;

/** Connections (by id and version: a changed connection is asked again) that ran out the bound, until when. */
const quietUntil = new Map<string, number>();
const quietKey = (row: LdapConnectionRow) => `${row.id}:${row.version}`;

function isQuiet(row: LdapConnectionRow, now: number): boolean {
  const until = quietUntil.get(quietKey(row));
  if (until === undefined) return false;
  if (until > now) return true;
  quietUntil.delete(quietKey(row));
  return false;
}

/** A directory that holds the name: its bound connection (the caller closes it) and the entries of
 *  exactly that name, as username or principal name (directory.ts, isNamed). */
export interface Holder {
  row: LdapConnectionRow;
  directory: Directory;
  entries: DirectoryPerson[];
}

/** One directory's entries of exactly `username`, or null when it failed or ran out the bound. */
async function holderIn(ctx: Ctx, row: LdapConnectionRow, username: string): Promise<Holder | null> {
  const search = (async (): Promise<Holder> => {
    const directory = await Directory.open(ctx, { settings: settingsOf(row), bindSecret: row.bindSecret }, LOOKUP_TIMEOUTS);
    try {
      const found = await directory.people(username);
      return { row, directory, entries: found.filter((entry) => isNamed(entry, username)) };
    } catch (error) {
      await directory.close();
      throw error;
    }
  })();
  const bound = new AbortController();
  const late = delay(LOOKUP_BOUND_MS, 'late' as const, { signal: bound.signal }).catch(() => 'answered' as const);
  try {
    const first = await Promise.race([search, late]);
    if (first !== 'late' && first !== 'answered') return first;
    quietUntil.set(quietKey(row), Date.now() + QUIET_FOR_MS);
    // Its own timeouts end the late conversation; whatever it brings is closed unread.
    search.then(
      (holder) => holder.directory.close(),
      () => undefined,
    );
    return null;
  } catch (error) {
    if (error instanceof DirectoryError) return null;
    throw error;
  } finally {
    bound.abort();
  }
}

/** What the directories asked at first sign-ins said of a name: those that hold it (each holder's
 *  connection is open and the caller closes them), and those that could not be asked (failed, ran
 *  out the bound, or quiet since they last did). */
export interface Lookup {
  holders: Holder[];
  unasked: LdapConnectionRow[];
}

/** The enabled directories allowed for first sign-ins that hold `username`, asked at once. */
export async function holdersOf(ctx: Ctx, username: string): Promise<Lookup> {
  const now = Date.now();
  const rows = await ctx.db.selectFrom('ldapConnections').selectAll().where('enabled', '=', 1).where('firstSignIn', '=', 1).execute();
  const unasked = rows.filter((row) => isQuiet(row, now));
  const connections = rows.filter((row) => !unasked.includes(row));
  const answers = await Promise.all(connections.map((row) => holderIn(ctx, row, username)));
  const holders: Holder[] = [];
  for (const [at, answer] of answers.entries()) {
    if (!answer) unasked.push(connections[at]!);
    else if (answer.entries.length > 0) holders.push(answer);
    else await answer.directory.close();
  }
  return { holders, unasked };
}

export const closeAll = (holders: Holder[]) => Promise.all(holders.map((holder) => holder.directory.close()));
