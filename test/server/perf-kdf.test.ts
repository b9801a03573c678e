// The KDF cap (server/auth/kdf.ts): at most cores − 1 (at least 1) KDF runs at once, queued in
// order, a failed run frees its slot; hashing and verifying stay correct under a burst.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashPassword, KDF_CONCURRENCY, limitConcurrency, verifyPassword } from '../../server/auth/kdf';

test('the KDF always has a thread, and leaves a core to the event loop when there is more than one', () => {
  assert.ok(KDF_CONCURRENCY >= 1);
  if (availableParallelism() > 1) assert.ok(KDF_CONCURRENCY < availableParallelism(), `${KDF_CONCURRENCY} of ${availableParallelism()} cores`);
});

test('a limit of 2 runs two tasks at once, the rest in order as slots free', async () => {
  const limiter = limitConcurrency(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const results = await Promise.all(
    Array.from({ length: 7 }, (_, index) =>
      limiter.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await sleep(5);
        running -= 1;
        return index * 10;
      }),
    ),
  );
  assert.equal(most, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(results, [0, 10, 20, 30, 40, 50, 60]);
  assert.equal(limiter.active, 0);
});

test('a failing task frees its slot', async () => {
  const limiter = limitConcurrency(1);
  await assert.rejects(
    limiter.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await limiter.run(async () => 'next'), 'next');
  assert.equal(limiter.active, 0);
});

test('a burst of parallel verifications answers each one right', async () => {
  const stored = await hashPassword('right');
  const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => verifyPassword(stored, index % 2 ? 'right' : 'wrong')));
  assert.deepEqual(answers, [false, true, false, true, false, true]);
  assert.equal(await verifyPassword(undefined, 'right'), false, 'unknown user');
});
