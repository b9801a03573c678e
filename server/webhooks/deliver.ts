// Posts queued webhook deliveries (dispatch.ts picks the due ones for the outbox worker,
// server/channels/outbox.ts): each claimed atomically (one process posts it), signed, sent through
// server/http/outbound-address.ts (a refused address is not retried), and each attempt logged with
// its status code and the start of the answer. A failure waits longer before each next attempt
// (10 s, 30 s, 90 s … capped at 6 h) until the delivery's attempts run out. Finished deliveries
// are kept for DELIVERY_LOG_DAYS. A disabled endpoint's deliveries are not due: they wait, queued,
// until it is enabled again.
import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { WebhookAttemptTable, WebhookDeliveryTable } from '../db/tables';
import { DeliveryErrorCode } from '../../src/core/schemas/delivery-error';
import { WebhookDeliveryStatus } from '../../src/core/schemas/webhooks';
import { outboundFetch, OutboundAddressError, outboundPolicy } from '../http/outbound-address';
import { signatureHeaders } from './sign';

export const WEBHOOK_ATTEMPTS = 8;
/** Waits before the next attempt: 10 s × 3^(n−1), at most 6 hours. */
const webhookBackoffMs = (attempts: number) => Math.min(10_000 * 3 ** (attempts - 1), 6 * 60 * 60_000);
/** A claimed delivery may be taken over by another process when its post has not ended by then. */
const CLAIM_LEASE_MS = 60_000;
const POST_TIMEOUT_MS = 10_000;
/** How much of an answer the log keeps. */
const ANSWER_EXCERPT_CHARS = 1_000;
const DELIVERY_LOG_DAYS = 30;
const PRUNE_EVERY_MS = 10 * 60_000;

type DeliveryRow = Selectable<WebhookDeliveryTable>;

/** The ids of enabled endpoints (only their deliveries are due). */
const enabledEndpoints = (ctx: Ctx) => ctx.db.selectFrom('webhooks').select('webhooks.id').where('webhooks.enabled', '=', 1);

/** Takes a due delivery for this process (one claimant wins), its attempt counted. */
export async function claim(ctx: Ctx, id: string): Promise<DeliveryRow | undefined> {
  const now = ctx.now();
  const claimed = await ctx.db
    .updateTable('webhookDeliveries')
    .set((eb) => ({ status: WebhookDeliveryStatus.Sending, attempts: eb('attempts', '+', 1), nextAttemptAt: now + CLAIM_LEASE_MS }))
    .where('id', '=', id)
    .where('status', 'in', [WebhookDeliveryStatus.Queued, WebhookDeliveryStatus.Sending])
    .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
    .where('webhookId', 'in', enabledEndpoints(ctx))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return ctx.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

type Failure = Pick<WebhookAttemptTable, 'errorCode' | 'error'>;
const succeeded: Failure = { errorCode: null, error: null };

/** Why a post failed, as a code and its detail for the log (never the URL: it may carry a token). */
function failureOf(error: unknown): Failure {
  if (error instanceof OutboundAddressError) return { errorCode: DeliveryErrorCode.AddressRefused, error: error.message };
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return { errorCode: DeliveryErrorCode.Timeout, error: null };
  const code = (error as { code?: unknown } | undefined)?.code ?? (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return { errorCode: DeliveryErrorCode.Unreachable, error: typeof code === 'string' ? code : null };
}

interface Outcome extends Failure {
  statusCode: number | null;
  answer: string | null;
  /** The answer came from a private address (allowed by the operator). */
  privateTarget: boolean;
  /** Not worth another attempt (the address is refused, the endpoint disabled or gone). */
  final: boolean;
}

async function post(ctx: Ctx, row: DeliveryRow): Promise<Outcome> {
  const endpoint = await ctx.db
    .selectFrom('webhooks')
    .select(['url', 'enabled', 'secret', 'previousSecret', 'previousSecretUntil'])
    .where('id', '=', row.webhookId)
    .executeTakeFirst();
  if (!endpoint || endpoint.enabled !== 1)
    return { statusCode: null, errorCode: DeliveryErrorCode.EndpointDisabled, error: null, answer: null, privateTarget: false, final: true };
  // A private target (let through by the operator's allow-list) is an internal page: the delivery
  // log shows its answer to platform administrators only (services/webhooks.ts, docs/webhooks.md).
  let privateTarget = false;
  try {
    const response = await outboundFetch(endpoint.url, {
      ...outboundPolicy(ctx.config),
      onChecked: (target) => (privateTarget = target.private),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'iam-console-webhooks/1',
        ...signatureHeaders(endpoint, row.messageId, row.payload, ctx.now()),
      },
      body: row.payload,
      timeoutMs: POST_TIMEOUT_MS,
      maxResponseBytes: ANSWER_EXCERPT_CHARS * 4,
    });
    const answer = (await response.text()).slice(0, ANSWER_EXCERPT_CHARS) || null;
    // Redirects are not followed (the target could be anywhere): a 3xx is a failure like a 5xx.
    const ok = response.status >= 200 && response.status < 300;
    const failure = ok ? succeeded : { errorCode: DeliveryErrorCode.HttpStatus, error: `HTTP ${response.status}` };
    return { statusCode: response.status, ...failure, answer, privateTarget, final: false };
  } catch (error) {
    return { statusCode: null, ...failureOf(error), answer: null, privateTarget, final: error instanceof OutboundAddressError };
  }
}

/** Posts a claimed delivery (status `sending`, attempt counted) and stores the attempt and the outcome. */
export async function attempt(ctx: Ctx, row: DeliveryRow): Promise<void> {
  const started = performance.now();
  const at = ctx.now();
  const outcome = await post(ctx, row);
  const done = ctx.now();
  const retry = outcome.errorCode !== null && !outcome.final && row.attempts < row.maxAttempts;
  const status = outcome.errorCode === null ? WebhookDeliveryStatus.Delivered : retry ? WebhookDeliveryStatus.Queued : WebhookDeliveryStatus.Failed;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhookAttempts')
      .values({
        id: randomUUID(),
        deliveryId: row.id,
        at,
        durationMs: Math.round(performance.now() - started),
        statusCode: outcome.statusCode,
        errorCode: outcome.errorCode,
        error: outcome.error,
        answer: outcome.answer,
        privateTarget: outcome.privateTarget ? 1 : 0,
      })
      .execute();
    await trx
      .updateTable('webhookDeliveries')
      .set({ status, nextAttemptAt: retry ? done + webhookBackoffMs(row.attempts) : null, finishedAt: retry ? null : done })
      .where('id', '=', row.id)
      .execute();
  });
}

const lastPrune = new WeakMap<Ctx, number>();

/** Drops finished deliveries older than the log keeps (at most every PRUNE_EVERY_MS per process). */
export async function prune(ctx: Ctx): Promise<void> {
  const now = ctx.now();
  if (now - (lastPrune.get(ctx) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(ctx, now);
  await ctx.db
    .deleteFrom('webhookDeliveries')
    .where('finishedAt', '<', now - DELIVERY_LOG_DAYS * 24 * 60 * 60_000)
    .execute();
}
