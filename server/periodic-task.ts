// A background job every server process runs on a timer (the OIDC expiry sweep, the scheduled
// directory synchronisations): one run at a time (a slow run is never overlapped by the next
// tick), the timer never keeps the process alive, and stop() waits for the run in flight, so a
// shutdown does not cut it half-way.
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => Promise<void>,
    private readonly log: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .catch(this.log)
        .finally(() => {
          this.running = undefined;
        });
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
