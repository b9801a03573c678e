// Using a passkey: the options of navigator.credentials.get() (a challenge for a passkey sign-in,
// or for the second step of one person's sign-in, listing their passkeys), and taking the
// assertion: the stored passkey it names, verified (server/auth/passkeys/ceremony.ts), its counter
// and last use written in one conditional statement.
import { sql } from 'kysely';
import type * as v from 'valibot';
import type { Ctx } from '../../context';
import type { passkeyRequestOptions } from '../../../src/core/schemas/passkeys';
import { ApiError } from '../../http/errors';
import { issueChallenge } from './challenges';
import { COUNTER_BACKWARDS, verifyAssertion, type AuthenticationCredential } from './ceremony';
import { relyingParty } from './relying-party';
import { webauthnLibrary } from './library';

export type PasskeyRequestOptions = v.InferOutput<typeof passkeyRequestOptions>;

export const UNKNOWN_PASSKEY = 'This passkey is not registered here (it may have been removed); sign in another way';
export const NOT_YOURS = 'This passkey belongs to another account';

/** The library's options without its unset keys (no extensions are asked for). */
async function requestOptions(
  ctx: Ctx,
  challenge: Uint8Array<ArrayBuffer>,
  userVerification: 'required' | 'discouraged',
  allowCredentials?: { id: string; transports: string[] }[],
): Promise<PasskeyRequestOptions> {
  const { generateAuthenticationOptions } = await webauthnLibrary();
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx).id, challenge, userVerification, allowCredentials });
  return {
    challenge: options.challenge,
    rpId: options.rpId,
    timeout: options.timeout,
    userVerification,
    ...(options.allowCredentials ? { allowCredentials: options.allowCredentials } : {}),
  };
}

/** Options for a sign-in with a passkey alone: any passkey of this site, the person verified by it. */
export async function signInOptions(ctx: Ctx): Promise<PasskeyRequestOptions> {
  return requestOptions(ctx, await issueChallenge(ctx, 'login'), 'required');
}

/** Options for the second step of `userId`'s sign-in (the password was right): one of their passkeys. */
export async function secondStepOptions(ctx: Ctx, userId: string): Promise<PasskeyRequestOptions> {
  const rows = await ctx.db.selectFrom('passkeys').select(['credentialId', 'transports']).where('userId', '=', userId).execute();
  const allowCredentials = rows.map((row) => ({ id: row.credentialId, transports: JSON.parse(row.transports) as string[] }));
  return requestOptions(ctx, await issueChallenge(ctx, 'second-step', { userId }), 'discouraged', allowCredentials);
}

/** The stored passkey an assertion names (401 when none), before anything is verified. */
export async function storedPasskey(ctx: Ctx, credential: AuthenticationCredential) {
  const row = await ctx.db.selectFrom('passkeys').selectAll().where('credentialId', '=', credential.id).executeTakeFirst();
  if (!row) throw new ApiError(401, UNKNOWN_PASSKEY);
  return row;
}

/** Verifies the assertion by `stored` for its ceremony and records the use. Of two parallel uses
 *  only one moves the counter; the other is refused like a copied passkey. */
export async function usePasskey(
  ctx: Ctx,
  credential: AuthenticationCredential,
  stored: Awaited<ReturnType<typeof storedPasskey>>,
  purpose: 'login' | 'second-step',
): Promise<void> {
  const counter = await verifyAssertion(ctx, credential, stored, purpose, purpose === 'second-step' ? { userId: stored.userId } : {});
  const updated = await ctx.db
    .updateTable('passkeys')
    .set({ counter, lastUsedAt: ctx.now() })
    .where('id', '=', stored.id)
    .where(counter > 0 ? sql<boolean>`counter < ${counter}` : sql<boolean>`counter = 0`)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw new ApiError(400, COUNTER_BACKWARDS);
}
