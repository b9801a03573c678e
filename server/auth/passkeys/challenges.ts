// The challenges of passkey ceremonies: random, short-lived, single-use and bound to what asked
// for them: a registration to the session that asked, a second step to the person whose password
// was right, a passkey sign-in to that purpose alone. They are rows (migration 0025_passkey_credentials), so
// any process of a scaled-out server can finish what another began; taking one deletes it, in one
// statement, so of two parallel uses only one finds it.
import { randomFillSync } from 'node:crypto';
import type { Ctx } from '../../context';
import { ApiError } from '../../http/errors';

export type ChallengePurpose = 'register' | 'login' | 'second-step';

/** Long enough to find a passkey and touch it; short enough that a captured one is soon useless. */
const CHALLENGE_TTL_MS = 5 * 60_000;

export interface ChallengeBinding {
  userId?: string;
  sessionId?: string;
}

export const CHALLENGE_UNKNOWN = 'This passkey request is not known here (already used, or meant for another sign-in); please try again';
export const CHALLENGE_EXPIRED = 'This passkey request has expired; please try again';

/** A new challenge for `purpose` (256 bits, kept as base64url: the form the client data names it
 *  in); the expired ones of everybody go. */
export async function issueChallenge(ctx: Ctx, purpose: ChallengePurpose, binding: ChallengeBinding = {}): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(32);
  randomFillSync(bytes);
  const challenge = Buffer.from(bytes).toString('base64url');
  const now = ctx.now();
  await ctx.db.deleteFrom('webauthnChallenges').where('expiresAt', '<', now).execute();
  await ctx.db
    .insertInto('webauthnChallenges')
    .values({
      challenge,
      purpose,
      userId: binding.userId ?? null,
      sessionId: binding.sessionId ?? null,
      expiresAt: now + CHALLENGE_TTL_MS,
    })
    .execute();
  return bytes;
}

/** Takes `challenge` when it was issued for this purpose and binding: a challenge of another
 *  ceremony, person or session is refused (and left alone), a used or unknown one too, an expired
 *  one is used up and refused. */
export async function takeChallenge(ctx: Ctx, challenge: string, purpose: ChallengePurpose, binding: ChallengeBinding = {}): Promise<void> {
  let query = ctx.db.deleteFrom('webauthnChallenges').where('challenge', '=', challenge).where('purpose', '=', purpose);
  query = binding.userId === undefined ? query.where('userId', 'is', null) : query.where('userId', '=', binding.userId);
  query = binding.sessionId === undefined ? query.where('sessionId', 'is', null) : query.where('sessionId', '=', binding.sessionId);
  const row = await query.returning('expiresAt').executeTakeFirst();
  if (!row) throw new ApiError(400, CHALLENGE_UNKNOWN);
  if (row.expiresAt <= ctx.now()) throw new ApiError(400, CHALLENGE_EXPIRED);
}
