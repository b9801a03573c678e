// The outbox worker: delivers queued messages (sign-in codes, messages sent through a channel) and
// the apps' back-channel logout tokens (and SAML LogoutRequests) and the webhooks' events shortly after they are written, and retries failed ones. Every server process runs one; a
// message is claimed atomically, so each is sent once even with several processes on PostgreSQL.
import type { Ctx } from '../context';
import { claim, deliver, dueMessages } from './deliver';
import { databaseUnavailable } from '../db/availability';
import { deliverDueLogouts } from '../oidc/backchannel';
import { deliverDueSamlLogouts } from '../saml/back-channel';
import { deliverDueWebhooks } from '../webhooks/deliver';

const POLL_MS = 1_000;
const BATCH = 20;

export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly ctx: Ctx,
    private readonly pollMs = POLL_MS,
  ) {}

  /** The first poll comes one interval after the start, not during it: a starting server answers
   *  its first requests (the readiness check) without the three delivery queries before them, and
   *  anything queued meanwhile kicks the worker at once. */
  start(): void {
    this.stopped = false;
    this.schedule(this.pollMs);
  }

  /** Looks for due messages now (after something was queued) instead of at the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delay);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.drain().catch((error: unknown) => {
      // The database being away (a restart, a failover) is one line; the next poll tries again.
      if (databaseUnavailable(error)) console.warn(`outbox: the database is unavailable (${(error as Error).message}); retrying`);
      else console.error('outbox', error);
    });
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    const again = this.again;
    this.again = false;
    this.schedule(again ? 0 : this.pollMs);
  }

  private async drain(): Promise<void> {
    await this.drainMessages();
    while ((await deliverDueLogouts(this.ctx, BATCH, () => this.stopped)) === BATCH && !this.stopped);
    while ((await deliverDueSamlLogouts(this.ctx, BATCH, () => this.stopped)) === BATCH && !this.stopped);
    while ((await deliverDueWebhooks(this.ctx, BATCH, () => this.stopped)) === BATCH && !this.stopped);
  }

  /** Delivers due messages, a batch at a time, until none is due. */
  private async drainMessages(): Promise<void> {
    for (;;) {
      const ids = await dueMessages(this.ctx, BATCH);
      for (const id of ids) {
        if (this.stopped) return;
        const row = await claim(this.ctx, id);
        if (row) await deliver(this.ctx, row);
      }
      if (ids.length < BATCH) return;
    }
  }
}
