// Work for one key run one after another in this process, in the order it came, whatever each
// outcome: a keyed queue, whose entry goes once its last work is done.
export class InTurn {
  /** Per key, the end of its last work (never rejected: a failure is its caller's to handle). */
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const turn = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = turn.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return turn;
  }
}
