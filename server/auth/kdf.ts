// The slow password KDF: Argon2id (@node-rs/argon2 runs it on libuv's thread pool, off the event
// loop). Its input is what the browser sends: SHA-256 hex of the trimmed password. Parameters
// are stored inside each hash string ($argon2id$v=19$m=…,t=…,p=…), so they can be raised later.
import { hash, verify } from '@node-rs/argon2';

/** OWASP's minimum for Argon2id: 19 MiB, 2 passes, 1 lane (the library's default algorithm is Argon2id). */
export const KDF_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(transformed: string): Promise<string> {
  return hash(transformed, KDF_PARAMS);
}

let decoy: Promise<string> | undefined;

/** Verifies `transformed` against `stored`; with no stored hash (unknown user) it verifies
 *  against a decoy hash so both cases cost the same time and give the same answer. */
export async function verifyPassword(stored: string | undefined, transformed: string): Promise<boolean> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  const target = stored ?? (await decoy);
  const matches = await verify(target, transformed).catch(() => false);
  return stored !== undefined && matches;
}
