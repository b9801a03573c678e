// One delivery loop of the outbox worker (server/channels/outbox.ts): it runs its drain one
// interval after the start, again at each poll, and at once when kicked; a kick during a run makes
// it run again right after. The outbox runs one lane per kind of delivery, so a slow kind (webhook
// posts to receivers that never answer) cannot hold up another (sign-in codes, logouts).
import { databaseUnavailable } from '../db/availability';

/** Logs a failed run or post: the database being away (a restart, a failover) is one line, as the
 *  next poll tries again. */
export function reportDeliveryError(error: unknown): void {
  if (databaseUnavailable(error)) console.warn(`outbox: the database is unavailable (${(error as Error).message}); retrying`);
  else console.error('outbox', error);
}

export class Lane {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  /** `drain` delivers what is due; it should end early once `stopped()` answers true. */
  constructor(
    private readonly drain: (stopped: () => boolean) => Promise<void>,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(this.pollMs);
  }

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
    this.running = this.drain(() => this.stopped).catch(reportDeliveryError);
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    const again = this.again;
    this.again = false;
    this.schedule(again ? 0 : this.pollMs);
  }
}
