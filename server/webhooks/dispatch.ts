// Picks the due webhook deliveries for the outbox's webhook lane (server/channels/outbox.ts) and
// posts them (deliver.ts) without waiting for them: a receiver that never answers holds its own
// slot for the post's timeout, not the lane. At most one post per endpoint is under way (its next
// delivery, oldest first, goes once that post ends; a failed one waits its backoff), at most
// PER_OWNER per tenant (the platform's endpoints are one owner), and at most MAX_IN_FLIGHT in all,
// so one tenant's endpoints cannot take every slot and everyone else's deliveries go meanwhile.
import type { Ctx } from '../context';
import { WebhookDeliveryStatus } from '../../src/core/schemas/webhooks';
import { reportDeliveryError } from '../channels/lane';
import { attempt, claim, prune } from './deliver';

/** Posts under way at once in this process. */
const MAX_IN_FLIGHT = 16;
/** Posts under way at once to one tenant's (or the platform's) endpoints. */
const PER_OWNER = 4;
/** Due deliveries looked at per query (a query that starts none ends the round). */
const LOOKAHEAD = 100;

const PLATFORM = '';

interface Post {
  owner: string;
  done: Promise<void>;
}

export class WebhookDispatcher {
  /** By endpoint id. */
  private readonly inFlight = new Map<string, Post>();

  /** `finished` is told when a post ends (its endpoint may have more due). */
  constructor(
    private readonly ctx: Ctx,
    private readonly finished: () => void,
  ) {}

  /** Starts every due delivery there is a slot for. */
  async dispatch(stopped: () => boolean): Promise<void> {
    await prune(this.ctx);
    for (;;) {
      if (stopped() || this.inFlight.size >= MAX_IN_FLIGHT) return;
      const perOwner = this.postsPerOwner();
      const fullOwners = [...perOwner].filter(([, count]) => count >= PER_OWNER).map(([owner]) => owner);
      const due = await this.due([...this.inFlight.keys()], fullOwners);
      let started = 0;
      for (const row of due) {
        if (stopped() || this.inFlight.size >= MAX_IN_FLIGHT) return;
        const owner = row.tenantId ?? PLATFORM;
        if (this.inFlight.has(row.webhookId) || (perOwner.get(owner) ?? 0) >= PER_OWNER) continue;
        perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
        this.start(row.id, row.webhookId, owner);
        started++;
      }
      if (!started) return;
    }
  }

  /** Waits for the posts under way (each ends by its timeout). */
  async stop(): Promise<void> {
    await Promise.all([...this.inFlight.values()].map((post) => post.done));
  }

  private postsPerOwner(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { owner } of this.inFlight.values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    return counts;
  }

  /** Due deliveries of enabled endpoints, oldest first, leaving out busy endpoints and full owners. */
  private due(busyEndpoints: string[], fullOwners: string[]) {
    const now = this.ctx.now();
    const tenants = fullOwners.filter((owner) => owner !== PLATFORM);
    let query = this.ctx.db
      .selectFrom('webhookDeliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhookDeliveries.webhookId')
      .select(['webhookDeliveries.id', 'webhookDeliveries.webhookId', 'webhooks.tenantId'])
      .where('webhookDeliveries.status', 'in', [WebhookDeliveryStatus.Queued, WebhookDeliveryStatus.Sending])
      .where((eb) => eb.or([eb('webhookDeliveries.nextAttemptAt', 'is', null), eb('webhookDeliveries.nextAttemptAt', '<=', now)]))
      .where('webhooks.enabled', '=', 1);
    if (busyEndpoints.length) query = query.where('webhookDeliveries.webhookId', 'not in', busyEndpoints);
    if (fullOwners.includes(PLATFORM)) query = query.where('webhooks.tenantId', 'is not', null);
    if (tenants.length) query = query.where((eb) => eb.or([eb('webhooks.tenantId', 'is', null), eb('webhooks.tenantId', 'not in', tenants)]));
    return query.orderBy('webhookDeliveries.createdAt').orderBy('webhookDeliveries.id').limit(LOOKAHEAD).execute();
  }

  private start(id: string, endpointId: string, owner: string): void {
    const done = (async () => {
      const row = await claim(this.ctx, id);
      if (row) await attempt(this.ctx, row);
    })()
      .catch(reportDeliveryError)
      .finally(() => {
        this.inFlight.delete(endpointId);
        this.finished();
      });
    this.inFlight.set(endpointId, { owner, done });
  }
}
