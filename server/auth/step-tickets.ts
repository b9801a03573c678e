// Step tickets: the server's record that a sign-in's first factor passed, when that factor cannot
// be sent again with the second step's code the way a password is (server/auth/login.ts): the
// PHONE_CAPTCHA code is used up, and so is a third-party provider's ticket. The person still owes
// the second step (their authenticator app, or an administrator's set-up of one under
// adminStrongFactor), given to POST /authc/login/step with the ticket (server/auth/login-step.ts).
//
// The ticket is bound to the client that passed the first factor: it is answered once, in the body
// of that sign-in's answer (never in a URL or a log), and the client keeps it in memory. Without
// it, the second step alone (a code from someone's authenticator app, one of their recovery codes)
// opens nothing. It is `<id>.<secret>`: the database (shared by every server process) keeps the id
// and a digest of the 256-bit secret; it works for TTL_MS and MAX_TRIES codes, and opens one session
// (the statement that uses it deletes it, so of two parallel right codes one wins).
//
// The same tickets hold the change an expired password owes once every factor passed
// (PASSWORD_EXPIRED): only the client that passed them may make it (PUT /authc/password/expired).
// Ending the person's access (disabling, sign-out everywhere, a password reset: server/oidc/revoke.ts)
// ends their pending tickets too.
//
// Rows live in login_challenges, which the first migration made for sign-ins waiting on a step:
// `step` holds what the ticket records (`phone`, `idp:<provider code>` or `password-expired`).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/tables';
import type { Ctx } from '../context';
import { digest, newId, newSecret, sameDigest } from './secrets';

/** The first factor a ticket records: the PHONE_CAPTCHA code, or a third-party provider. */
export type FirstFactor = 'phone' | `idp:${string}`;
/** What a ticket records: a first factor that passed (the second step is owed), or every factor
 *  passed with an expired password (its change is owed). */
export type TicketStep = FirstFactor | 'password-expired';

export interface StepTicket {
  id: string;
  userId: string;
  step: TicketStep;
}

/** Long enough to set up an authenticator app (TOTP_SETUP), short enough not to linger. */
const TTL_MS = 10 * 60_000;
/** Codes tried with one ticket, right or wrong (the sign-in failure count bounds them too). */
const MAX_TRIES = 5;

/** Records that `userId` passed `step`; answers the ticket (given to this client only). */
export async function issueStepTicket(ctx: Ctx, userId: string, step: TicketStep): Promise<string> {
  const id = newId();
  const secret = newSecret();
  const now = ctx.now();
  await ctx.db.deleteFrom('loginChallenges').where('expiresAt', '<=', now).execute();
  await ctx.db
    .insertInto('loginChallenges')
    .values({ id, userId, step, codeHash: digest(secret), attempts: 0, expiresAt: now + TTL_MS })
    .execute();
  return `${id}.${secret}`;
}

/** The live ticket `ticket` names, one of its tries counted first (in one statement, so parallel
 *  requests share MAX_TRIES); undefined when it is unknown, expired, used or out of tries. */
export async function tryStepTicket(ctx: Ctx, ticket: string): Promise<StepTicket | undefined> {
  const [id = '', secret = ''] = ticket.split('.');
  const row = await ctx.db
    .updateTable('loginChallenges')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', id)
    .where('attempts', '<', MAX_TRIES)
    .where('expiresAt', '>', ctx.now())
    .returning(['userId', 'step', 'codeHash'])
    .executeTakeFirst();
  if (!row || !sameDigest(row.codeHash, digest(secret))) return undefined;
  return { id, userId: row.userId, step: row.step as TicketStep };
}

/** Uses the ticket up; false when a parallel request used it first (or it expired meanwhile). */
export async function useStepTicket(ctx: Ctx, id: string): Promise<boolean> {
  const used = await ctx.db.deleteFrom('loginChallenges').where('id', '=', id).where('expiresAt', '>', ctx.now()).executeTakeFirst();
  return Number(used.numDeletedRows) === 1;
}

/** Ends every pending ticket of `userId` (their access is being ended); answers how many ended. */
export async function endPendingSignIns(db: Kysely<Database>, userId: string): Promise<number> {
  const { numDeletedRows } = await db.deleteFrom('loginChallenges').where('userId', '=', userId).executeTakeFirst();
  return Number(numDeletedRows);
}
