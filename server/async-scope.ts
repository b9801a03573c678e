// Values scoped to an async call tree (a request's settings snapshot, the OpenID provider's
// read-ahead, the audit parent, the field rules, the unit of work), all carried by ONE
// AsyncLocalStorage. On Node.js 20 every AsyncLocalStorage in use costs every promise the process
// creates, anywhere, one more property copied by its promise hook: five storages made each of a
// refresh grant's several hundred promises pay five copies. One storage holding a frame of slots
// pays one, whatever the number of scoped values. (Node.js 24's AsyncContextFrame has no such cost.)
import { AsyncLocalStorage } from 'node:async_hooks';

type Frame = Readonly<Record<symbol, unknown>>;

const frames = new AsyncLocalStorage<Frame>();

/** What an AsyncLocalStorage of its own would give (`run`, `getStore`), sharing the one storage. */
export class ScopedValue<T> {
  private readonly slot: symbol;

  constructor(name: string) {
    this.slot = Symbol(name);
  }

  /** Runs `work` (and everything it starts) with this value set to `value`; the others unchanged. */
  run<R>(value: T, work: () => R): R {
    return frames.run({ ...frames.getStore(), [this.slot]: value }, work);
  }

  /** The value set by the innermost `run` around the caller, or undefined outside any. */
  getStore(): T | undefined {
    return frames.getStore()?.[this.slot] as T | undefined;
  }
}
