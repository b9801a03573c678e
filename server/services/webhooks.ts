// Webhook endpoints: the queries, scope checks and audit records behind /webhooks
// (server/routes/webhooks.ts). The platform administrator reaches every endpoint and may make
// platform endpoints (no tenant: every event); a tenant administrator reaches the endpoints of
// their subtree's tenants only, which receive only that tenant's subtree's events
// (server/webhooks/queue.ts).
import type * as v from 'valibot';
import type { Selectable } from 'kysely';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { WebhookDeliveryTable, WebhookTable } from '../db/tables';
import { isPlatformAdmin, type Actor } from '../auth/actor';
import type { webhookCreateBody, webhookDeliveryQuery, webhookListQuery, webhookUpdateBody, Webhook, WebhookDelivery } from '../../src/core/schemas/webhooks';
import { WEBHOOK_TEST_EVENT, WebhookDeliveryStatus } from '../../src/core/schemas/webhooks';
import { canManageTenantPath, tenantPathOf } from '../auth/scope';
import { newId } from '../auth/secrets';
import { paginate } from '../http/paging';
import { notFound } from '../http/errors';
import { updateVersioned } from '../db/versioned';
import { removedOnce } from '../db/removal';
import { newWebhookSecret, PREVIOUS_SECRET_MS } from '../webhooks/sign';
import { assertOutboundUri } from '../http/outbound-field';
import { deliveryRow } from '../webhooks/queue';
import { attempt, claim } from '../webhooks/deliver';

type WebhookRow = Selectable<WebhookTable>;
type DeliveryRow = Selectable<WebhookDeliveryTable>;
type CreateBody = v.InferOutput<typeof webhookCreateBody>;
type UpdateBody = v.InferOutput<typeof webhookUpdateBody>;

/** The one row → answer function of webhooks (never the secret). */
export const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  tenantId: row.tenantId,
  url: row.url,
  description: row.description,
  events: JSON.parse(row.events) as string[],
  enabled: row.enabled === 1,
  version: row.version,
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
  secretRotatedAt: Number(row.secretRotatedAt),
  previousSecretUntil: row.previousSecretUntil === null ? null : Number(row.previousSecretUntil),
});

/** The endpoints the actor may see: all for the platform, their subtree's tenants' otherwise. */
function visible(ctx: Ctx, actor: Actor) {
  const select = ctx.db.selectFrom('webhooks');
  if (actor.platformAdmin) return select;
  const subtree = actor.tenantPath ?? '/-none-/';
  return select.where('webhooks.tenantId', 'in', ctx.db.selectFrom('tenants').select('tenants.id').where('tenants.path', 'like', `${subtree}%`));
}

/** The endpoint, when the actor may administer it (404 otherwise: no hint that it exists). */
export async function manageableWebhook(ctx: Ctx, actor: Actor, id: string): Promise<WebhookRow> {
  const row = await visible(ctx, actor).selectAll().where('webhooks.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

export async function listWebhooks(ctx: Ctx, actor: Actor, query: v.InferOutput<typeof webhookListQuery>) {
  let select = visible(ctx, actor).selectAll();
  if (query.tenantId) select = select.where('webhooks.tenantId', '=', query.tenantId);
  return paginate(select.orderBy('webhooks.createdAt', 'desc').orderBy('webhooks.id'), query, toWebhook);
}

/** The tenant a new endpoint listens to: the one asked for when the actor administers it; none
 *  (every event) for the platform administrator's default; a tenant administrator's own tenant. */
async function tenantOf(ctx: Ctx, actor: Actor, wanted: string | null | undefined): Promise<string | null> {
  if (wanted === undefined || wanted === null) {
    if (actor.platformAdmin) return null;
    return actor.user.tenantId;
  }
  if (!canManageTenantPath(actor, await tenantPathOf(ctx, wanted))) throw notFound('Tenant');
  return wanted;
}

/** A webhook is named by its URL's host: the path may hold the receiver's secret. */
const hostOf = (url: string) => new URL(url).host;
const withHost = (row: WebhookRow) => ({ ...row, url: hostOf(row.url) });

const audit = (
  ctx: Ctx,
  actor: Actor,
  action: 'webhook.create' | 'webhook.update' | 'webhook.delete' | 'webhook.redeliver',
  row: WebhookRow,
  ip: string,
  detail: Record<string, unknown>,
) => ctx.audit.record({ action, actor, target: { type: 'webhook', id: row.id, name: hostOf(row.url) }, tenantId: row.tenantId, ip, detail });

export async function createWebhook(ctx: Ctx, actor: Actor, body: CreateBody, ip: string): Promise<Webhook & { secret: string }> {
  const tenantId = await tenantOf(ctx, actor, body.tenantId);
  await assertOutboundUri(ctx, 'url', body.url);
  const now = ctx.now();
  const row: WebhookRow = {
    id: newId(),
    tenantId,
    url: body.url,
    description: body.description ?? '',
    events: JSON.stringify(body.events),
    enabled: body.enabled === false ? 0 : 1,
    secret: newWebhookSecret(),
    secretRotatedAt: now,
    previousSecret: null,
    previousSecretUntil: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.audit.change(async () => {
    await ctx.db.insertInto('webhooks').values(row).execute();
    await audit(ctx, actor, 'webhook.create', row, ip, { events: body.events });
  });
  return { ...toWebhook(row), secret: row.secret };
}

export async function updateWebhook(ctx: Ctx, actor: Actor, id: string, body: UpdateBody, ip: string): Promise<Webhook> {
  const current = await manageableWebhook(ctx, actor, id);
  if (body.url !== undefined && body.url !== current.url) await assertOutboundUri(ctx, 'url', body.url);
  const changes = {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.events !== undefined ? { events: JSON.stringify(body.events) } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
  };
  const saved = await ctx.audit.change(async () => {
    await updateVersioned(ctx.db, 'webhooks', id, body.version, changes, ctx.now());
    const saved = await ctx.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    await audit(
      ctx,
      actor,
      'webhook.update',
      saved,
      ip,
      changeDetail(changedFields(withHost(current), withHost({ ...current, ...changes }), Object.keys(changes))),
    );
    return saved;
  });
  return toWebhook(saved);
}

export async function deleteWebhook(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<void> {
  const current = await manageableWebhook(ctx, actor, id);
  await ctx.audit.change(async () => {
    await removeWebhook(ctx, actor, current, ip);
  });
}

/** Deletes an endpoint (with its deliveries) and records it, inside the running change; 404 when a
 *  parallel removal deleted it first. */
async function removeWebhook(ctx: Ctx, actor: Actor, row: WebhookRow, ip: string): Promise<void> {
  await removedOnce(ctx.db.deleteFrom('webhooks').where('id', '=', row.id).executeTakeFirst(), 'Webhook');
  await audit(ctx, actor, 'webhook.delete', row, ip, { url: hostOf(row.url) });
}

/** Inside a tenant's removal (its change, after its row is locked): each of the tenant's endpoints
 *  goes with its own webhook.delete record, as if removed one by one, not silently by the cascade. */
export async function removeTenantWebhooks(ctx: Ctx, actor: Actor, tenantId: string, ip: string): Promise<void> {
  const rows = await ctx.db.selectFrom('webhooks').selectAll().where('tenantId', '=', tenantId).orderBy('id').execute();
  for (const row of rows) await removeWebhook(ctx, actor, row, ip);
}

/** A new signing secret, answered once; the replaced one keeps signing for PREVIOUS_SECRET_MS. */
export async function rotateSecret(ctx: Ctx, actor: Actor, id: string, ip: string) {
  const current = await manageableWebhook(ctx, actor, id);
  const now = ctx.now();
  const secret = newWebhookSecret();
  const previousSecretUntil = now + PREVIOUS_SECRET_MS;
  await ctx.audit.change(async () => {
    // The replaced secret is the one stored when the update runs, not the one read before: of two
    // rotations at once the second waits for the first's row and keeps its secret as the previous
    // one, so both answered secrets sign (a copy of the read one left the first's signing nothing).
    const { numUpdatedRows } = await ctx.db
      .updateTable('webhooks')
      .set((eb) => ({ secret, secretRotatedAt: now, previousSecret: eb.ref('secret'), previousSecretUntil, version: eb('version', '+', 1), updatedAt: now }))
      .where('id', '=', current.id)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw notFound('Webhook');
    await audit(ctx, actor, 'webhook.update', current, ip, { secret: 'rotated' });
  });
  return { secret, previousSecretUntil };
}

/** The delivery log of an endpoint, newest first, each with its attempts. */
export async function deliveriesOf(ctx: Ctx, actor: Actor, id: string, query: v.InferOutput<typeof webhookDeliveryQuery>) {
  const endpoint = await manageableWebhook(ctx, actor, id);
  let select = ctx.db.selectFrom('webhookDeliveries').selectAll().where('webhookId', '=', endpoint.id);
  if (query.status) select = select.where('status', '=', query.status);
  const page = await paginate(select.orderBy('createdAt', 'desc').orderBy('id', 'desc'), query, (row: DeliveryRow) => row);
  return { ...page, list: await withAttempts(ctx, actor, page.list) };
}

/** A private target's answer (an internal page) is shown to platform administrators only. */
async function withAttempts(ctx: Ctx, viewer: Actor, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const seesPrivateAnswers = isPlatformAdmin(viewer.user);
  const attempts = rows.length
    ? await ctx.db
        .selectFrom('webhookAttempts')
        .selectAll()
        .where(
          'deliveryId',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('at')
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.webhookId,
    messageId: row.messageId,
    eventType: row.eventType,
    payload: row.payload,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    createdAt: Number(row.createdAt),
    nextAttemptAt: row.nextAttemptAt === null ? null : Number(row.nextAttemptAt),
    finishedAt: row.finishedAt === null ? null : Number(row.finishedAt),
    attemptLog: attempts
      .filter((item) => item.deliveryId === row.id)
      .map((item) => ({
        at: Number(item.at),
        durationMs: item.durationMs,
        statusCode: item.statusCode,
        errorCode: item.errorCode,
        error: item.error,
        answer: item.privateTarget && !seesPrivateAnswers ? null : item.answer,
      })),
  }));
}

/** "Send test": one signed `webhook.test` event posted now (once, no retry); answers its delivery. */
export async function sendTest(ctx: Ctx, actor: Actor, id: string): Promise<WebhookDelivery> {
  const endpoint = await manageableWebhook(ctx, actor, id);
  const now = ctx.now();
  const payload = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    timestamp: new Date(now).toISOString(),
    data: { webhookId: endpoint.id, requestedBy: actor.username },
  });
  // Written as already claimed by this request (status sending, one attempt), so the outbox leaves it alone.
  const row = {
    ...deliveryRow(endpoint.id, WEBHOOK_TEST_EVENT, payload, now, 1),
    status: WebhookDeliveryStatus.Sending,
    attempts: 1,
    nextAttemptAt: now + 60_000,
  };
  await ctx.db.insertInto('webhookDeliveries').values(row).execute();
  const stored = await ctx.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  await attempt(ctx, stored);
  const [answer] = await withAttempts(ctx, actor, [
    await ctx.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
  ]);
  return answer!;
}

/** "Redeliver": the event of one delivery sent again as a new delivery (its own attempts and log
 *  row) with the same payload and the same webhook-id, so that a receiver that already has it
 *  drops it (Standard Webhooks). Posted now when the endpoint is enabled (retried like any event
 *  if that fails); queued until it is enabled again otherwise. */
export async function redeliver(ctx: Ctx, actor: Actor, id: string, deliveryId: string, ip: string): Promise<WebhookDelivery> {
  const endpoint = await manageableWebhook(ctx, actor, id);
  const original = await ctx.db
    .selectFrom('webhookDeliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .where('webhookId', '=', endpoint.id)
    .executeTakeFirst();
  if (!original) throw notFound('Delivery');
  const row = { ...deliveryRow(endpoint.id, original.eventType, original.payload, ctx.now(), original.maxAttempts), messageId: original.messageId };
  await ctx.audit.change(async () => {
    await ctx.db.insertInto('webhookDeliveries').values(row).execute();
    await audit(ctx, actor, 'webhook.redeliver', endpoint, ip, { delivery: original.id, event: original.eventType, messageId: original.messageId });
  });
  const claimed = await claim(ctx, row.id);
  if (claimed) await attempt(ctx, claimed);
  const [answer] = await withAttempts(ctx, actor, [
    await ctx.db.selectFrom('webhookDeliveries').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
  ]);
  return answer!;
}
