// The outbox worker: delivers queued messages (sign-in codes, messages sent through a channel), the
// apps' back-channel logout tokens (and SAML LogoutRequests) and the webhooks' events shortly after
// they are written, and retries failed ones. Every server process runs one; each delivery is
// claimed atomically, so it is sent once even with several processes on PostgreSQL. The three kinds
// run in lanes of their own (lane.ts): webhook posts, to receivers chosen by tenant administrators,
// never hold up the codes people wait for or the logouts; webhooks/dispatch.ts keeps one tenant's
// slow receivers from taking every webhook post.
import type { Ctx } from '../context';
import { claim, deliver, dueMessages } from './deliver';
import { Lane } from './lane';
import { deliverDueLogouts } from '../oidc/backchannel';
import { deliverDueSamlLogouts } from '../saml/back-channel';
import { WebhookDispatcher } from '../webhooks/dispatch';

const POLL_MS = 1_000;
const BATCH = 20;

export class Outbox {
  private readonly webhooks: WebhookDispatcher;
  private readonly lanes: Lane[];

  constructor(
    private readonly ctx: Ctx,
    pollMs = POLL_MS,
  ) {
    const webhookLane = new Lane((stopped) => this.webhooks.dispatch(stopped), pollMs);
    // A finished post frees its endpoint's slot: look for that endpoint's next due delivery at once.
    this.webhooks = new WebhookDispatcher(ctx, () => webhookLane.kick());
    this.lanes = [new Lane((stopped) => this.drainMessages(stopped), pollMs), new Lane((stopped) => this.drainLogouts(stopped), pollMs), webhookLane];
  }

  /** The first poll comes one interval after the start, not during it: a starting server answers
   *  its first requests (the readiness check) without the delivery queries before them, and
   *  anything queued meanwhile kicks the worker at once. */
  start(): void {
    for (const lane of this.lanes) lane.start();
  }

  /** Looks for due deliveries now (after something was queued) instead of at the next poll. */
  kick(): void {
    for (const lane of this.lanes) lane.kick();
  }

  async stop(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.stop()));
    await this.webhooks.stop();
  }

  /** Delivers due messages, a batch at a time, until none is due. */
  private async drainMessages(stopped: () => boolean): Promise<void> {
    for (;;) {
      const ids = await dueMessages(this.ctx, BATCH);
      for (const id of ids) {
        if (stopped()) return;
        const row = await claim(this.ctx, id);
        if (row) await deliver(this.ctx, row);
      }
      if (ids.length < BATCH) return;
    }
  }

  private async drainLogouts(stopped: () => boolean): Promise<void> {
    while ((await deliverDueLogouts(this.ctx, BATCH, stopped)) === BATCH && !stopped());
    while ((await deliverDueSamlLogouts(this.ctx, BATCH, stopped)) === BATCH && !stopped());
  }
}
