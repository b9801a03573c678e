// The outbox worker: delivers queued messages (sign-in codes, messages sent through a channel), the
// apps' back-channel logout tokens (and SAML LogoutRequests) and the webhooks' events shortly after
// they are written, and retries failed ones. Every server process runs one; each delivery is
// claimed atomically, so it is sent once even with several processes on PostgreSQL. Each kind runs
// in a lane of its own (lane.ts), so a slow kind cannot hold up another:
// - the console's own messages (sign-in, reset and verification codes, notices), which people wait
//   for, never queue behind the messages administrators send (a tenant's newsletter to all its
//   people through a slow relay);
// - those messages;
// - back-channel logouts and webhook posts, which go to receivers that apps' and tenants'
//   administrators chose: posted without the lane waiting on them (dispatcher.ts), within caps per
//   app or tenant, so one receiver that never answers holds up no one else's.
import type { Ctx } from '../context';
import { claim, deliver, dueMessages, type MessageSource } from './deliver';
import type { Dispatcher } from './dispatcher';
import { Lane } from './lane';
import { logoutTokenDispatcher } from '../oidc/backchannel';
import { samlLogoutDispatcher } from '../saml/back-channel';
import { prune } from '../webhooks/deliver';
import { webhookDispatcher } from '../webhooks/dispatch';

const POLL_MS = 1_000;
const BATCH = 20;

export class Outbox {
  private readonly dispatchers: Dispatcher[];
  private readonly lanes: Lane[];

  constructor(
    private readonly ctx: Ctx,
    pollMs = POLL_MS,
  ) {
    // A finished post frees its slot: look for the next due delivery of its receiver at once.
    const logoutLane = new Lane((stopped) => dispatchAll(logouts, stopped), pollMs);
    const logouts = [logoutTokenDispatcher(ctx, () => logoutLane.kick()), samlLogoutDispatcher(ctx, () => logoutLane.kick())];
    const webhookLane = new Lane(async (stopped) => {
      await prune(ctx);
      await webhooks.dispatch(stopped);
    }, pollMs);
    const webhooks = webhookDispatcher(ctx, () => webhookLane.kick());
    this.dispatchers = [...logouts, webhooks];
    this.lanes = [
      new Lane((stopped) => this.drainMessages('console', stopped), pollMs),
      new Lane((stopped) => this.drainMessages('people', stopped), pollMs),
      logoutLane,
      webhookLane,
    ];
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
    await Promise.all(this.dispatchers.map((dispatcher) => dispatcher.stop()));
  }

  /** Delivers the source's due messages, a batch at a time, until none is due. */
  private async drainMessages(source: MessageSource, stopped: () => boolean): Promise<void> {
    for (;;) {
      const ids = await dueMessages(this.ctx, source, BATCH);
      for (const id of ids) {
        if (stopped()) return;
        const row = await claim(this.ctx, id);
        if (row) await deliver(this.ctx, row);
      }
      if (ids.length < BATCH) return;
    }
  }
}

async function dispatchAll(dispatchers: Dispatcher[], stopped: () => boolean): Promise<void> {
  for (const dispatcher of dispatchers) await dispatcher.dispatch(stopped);
}
