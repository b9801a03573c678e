// The webhook deliveries the outbox's webhook lane (server/channels/outbox.ts) posts without waiting
// on them (server/channels/dispatcher.ts): at most one post per endpoint is under way (its next
// delivery, oldest first, goes once that post ends; a failed one waits its backoff), at most
// PER_OWNER per top-level tenant, its sub-tenants' endpoints counted with its own (a tenant
// administrator who makes sub-tenants gets no more slots by it), and at most TOTAL in all, of which
// PER_OWNER are kept for the platform's endpoints: no tenant, nor all of them together, takes them.
import type { Ctx } from '../context';
import { WebhookDeliveryStatus } from '../../src/core/schemas/webhooks';
import { Dispatcher, type Deliveries, type NoSlot } from '../channels/dispatcher';
import { attempt, claim } from './deliver';

/** Posts under way at once in this process. */
const TOTAL = 16;
/** Posts under way at once to one top-level tenant's endpoints (or the platform's). */
const PER_OWNER = 4;
/** Due deliveries looked at per query (a query that starts none ends the round). */
const LOOKAHEAD = 100;

/** The owner of the platform's endpoints (those of no tenant). */
const PLATFORM = '';

/** The top-level tenant of a tenant's materialised path ('/root/…/self/'). */
const topLevelOf = (path: string) => path.split('/')[1]!;

/** Due deliveries of enabled endpoints, oldest first, leaving out busy endpoints and full owners. */
async function due(ctx: Ctx, noSlot: NoSlot) {
  const now = ctx.now();
  const fullTenants = noSlot.owners.filter((owner) => owner !== PLATFORM);
  let query = ctx.db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhookDeliveries.webhookId')
    .leftJoin('tenants', 'tenants.id', 'webhooks.tenantId')
    .select(['webhookDeliveries.id', 'webhookDeliveries.webhookId', 'webhooks.tenantId', 'tenants.path'])
    .where('webhookDeliveries.status', 'in', [WebhookDeliveryStatus.Queued, WebhookDeliveryStatus.Sending])
    .where((eb) => eb.or([eb('webhookDeliveries.nextAttemptAt', 'is', null), eb('webhookDeliveries.nextAttemptAt', '<=', now)]))
    .where('webhooks.enabled', '=', 1);
  if (noSlot.keys.length) query = query.where('webhookDeliveries.webhookId', 'not in', noSlot.keys);
  if (noSlot.owners.includes(PLATFORM)) query = query.where('webhooks.tenantId', 'is not', null);
  if (noSlot.othersFull) query = query.where('webhooks.tenantId', 'is', null);
  // A full tenant's subtree: the paths under its own.
  for (const tenant of fullTenants) query = query.where((eb) => eb.or([eb('webhooks.tenantId', 'is', null), eb('tenants.path', 'not like', `/${tenant}/%`)]));
  const rows = await query.orderBy('webhookDeliveries.createdAt').orderBy('webhookDeliveries.id').limit(LOOKAHEAD).execute();
  return rows.map((row) => ({ id: row.id, key: row.webhookId, owner: row.path ? topLevelOf(row.path) : (row.tenantId ?? PLATFORM) }));
}

const webhookDeliveries = (ctx: Ctx): Deliveries => ({
  due: (noSlot) => due(ctx, noSlot),
  async send(id) {
    const row = await claim(ctx, id);
    if (row) await attempt(ctx, row);
  },
});

/** `finished` is told when a post ends (its endpoint may have more due). */
export const webhookDispatcher = (ctx: Ctx, finished: () => void) =>
  new Dispatcher(webhookDeliveries(ctx), { total: TOTAL, perOwner: PER_OWNER, reserved: PLATFORM }, finished);
