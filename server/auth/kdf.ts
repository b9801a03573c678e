// The slow password KDF: Argon2id (@node-rs/argon2 runs it on libuv's thread pool, off the event
// loop). Its input is what the browser sends: SHA-256 hex of the trimmed password. Parameters
// are stored inside each hash string ($argon2id$v=19$m=…,t=…,p=…), so they can be raised later.
import { availableParallelism } from 'node:os';
import { lazy } from '../lazy';

/** OWASP's minimum for Argon2id: 19 MiB, 2 passes, 1 lane (the library's default algorithm is Argon2id). */
export const KDF_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** At most this many KDF runs at once: libuv's 4 threads of Argon2 on fewer cores would starve
 *  the event loop (every other request) during a burst of sign-ins; one core stays free for it. */
export const KDF_CONCURRENCY = Math.max(1, availableParallelism() - 1);

/** A counting semaphore: `run` starts `task` when fewer than `limit` tasks run, else queues it (FIFO). */
export function limitConcurrency(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
    /** How many tasks run now. */
    get active() {
      return running;
    },
    /** How many tasks wait for a place. */
    get waiting() {
      return waiting.length;
    },
  };
}

const kdfSlots = limitConcurrency(KDF_CONCURRENCY);

/** The native Argon2 library, loaded by the first sign-in or password change (see server/lazy.ts). */
const argon2 = lazy(() => import('@node-rs/argon2'));

/** The KDF runs of this process now: running, and queued for a place (the metrics). */
export const kdfLoad = () => ({ running: kdfSlots.active, waiting: kdfSlots.waiting });

export function hashPassword(transformed: string): Promise<string> {
  return kdfSlots.run(async () => (await argon2()).hash(transformed, KDF_PARAMS));
}

let decoy: Promise<string> | undefined;

/** Verifies `transformed` against `stored`; with no stored hash (unknown user) it verifies
 *  against a decoy hash so both cases cost the same time and give the same answer. */
export async function verifyPassword(stored: string | undefined, transformed: string): Promise<boolean> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  const target = stored ?? (await decoy);
  const matches = await kdfSlots.run(async () => (await argon2()).verify(target, transformed)).catch(() => false);
  return stored !== undefined && matches;
}
