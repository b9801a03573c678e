// Idempotency keys on creates, as payment APIs have them: a client that sends `Idempotency-Key`
// and retries after a timeout or a 503 learns the outcome of its first request. The first success
// is stored, in the same transaction as the change it answers (server/audit.ts `change`), for a
// day, per caller and key; the same key with the same request then answers that stored answer again
// (header `Idempotent-Replayed: true`), with another request 422. A refusal or a fault committed
// nothing and stores nothing: the retry runs the request again.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { ApiError } from './errors';
import { isUniqueViolation } from '../db/errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60 * 1000;
/** Visible ASCII, as a UUID or any client's token fits. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const KEY_MALFORMED = 'The Idempotency-Key header must be 1 to 255 visible ASCII characters';
const KEY_REUSED = 'This Idempotency-Key was used with a different request; use a new key for a new request';
const KEY_IN_FLIGHT = 'A request with this Idempotency-Key is still running; try again in a moment';

/** The key the request carries, or undefined; a malformed one answers 400. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY_PATTERN.test(value)) throw new ApiError(400, KEY_MALFORMED);
  return value;
}

/** The same request: method, path (with its query) and body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n`)
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
}

class KeyTaken extends Error {}

/**
 * Answers `produce()` once per (caller, key): runs it as one change with the key's claim and stores
 * its answer there; a later call with the key answers the stored one (or 422 for another request).
 */
export async function onceFor(
  ctx: Ctx,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: string,
  key: string,
  produce: () => Promise<unknown>,
): Promise<unknown> {
  const fingerprint = fingerprintOf(request);
  const cutoff = ctx.now() - IDEMPOTENCY_KEPT_MS;
  const replay = async () => {
    const stored = await ctx.db
      .selectFrom('idempotencyKeys')
      .select(['fingerprint', 'answer'])
      .where('caller', '=', caller)
      .where('key', '=', key)
      .where('createdAt', '>=', cutoff)
      .executeTakeFirst();
    if (!stored) return undefined;
    if (stored.fingerprint !== fingerprint) throw new ApiError(422, KEY_REUSED);
    reply.header(REPLAYED_HEADER, 'true');
    return JSON.parse(stored.answer) as unknown;
  };
  const earlier = await replay();
  if (earlier !== undefined) return earlier;
  try {
    return await ctx.audit.change(async () => {
      // Keys past their day go (this one's too, so it can be claimed again).
      await ctx.db.deleteFrom('idempotencyKeys').where('createdAt', '<', cutoff).execute();
      try {
        // The claim comes first: a parallel request with the key waits here for this one's outcome.
        await ctx.db.insertInto('idempotencyKeys').values({ caller, key, fingerprint, answer: '', createdAt: ctx.now() }).execute();
      } catch (error) {
        throw isUniqueViolation(error) ? new KeyTaken() : error;
      }
      const answer = await produce();
      await ctx.db
        .updateTable('idempotencyKeys')
        .set({ answer: JSON.stringify(answer) })
        .where('caller', '=', caller)
        .where('key', '=', key)
        .execute();
      return answer;
    });
  } catch (error) {
    if (!(error instanceof KeyTaken)) throw error;
    const answer = await replay();
    if (answer === undefined) throw new ApiError(409, KEY_IN_FLIGHT);
    return answer;
  }
}
