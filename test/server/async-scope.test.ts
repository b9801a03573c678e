// The server's async-scoped values share one AsyncLocalStorage (server/async-scope.ts): each must
// still behave as a storage of its own. A request's read-ahead, held token writes or unit of work
// seen by another request, or lost when a second value is set, would be a security bug.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { ScopedValue } from '../../server/async-scope';

test('each value is seen only inside its own run, across awaits, by concurrent flows apart', async () => {
  const request = new ScopedValue<string>('request');
  assert.equal(request.getStore(), undefined);
  const seen = await Promise.all(
    ['a', 'b', 'c'].map((name) =>
      request.run(name, async () => {
        const values = [];
        for (let step = 0; step < 3; step++) {
          await tick();
          values.push(request.getStore());
        }
        return values;
      }),
    ),
  );
  assert.deepEqual(seen, [
    ['a', 'a', 'a'],
    ['b', 'b', 'b'],
    ['c', 'c', 'c'],
  ]);
  assert.equal(request.getStore(), undefined);
});

test('setting one value keeps the others; an inner run of the same value ends with it', async () => {
  const unit = new ScopedValue<number>('unit');
  const rules = new ScopedValue<string>('rules');
  await unit.run(1, async () => {
    await rules.run('strict', async () => {
      await tick();
      assert.equal(unit.getStore(), 1);
      assert.equal(rules.getStore(), 'strict');
      await unit.run(2, async () => {
        await tick();
        assert.equal(unit.getStore(), 2);
        assert.equal(rules.getStore(), 'strict');
      });
      assert.equal(unit.getStore(), 1);
    });
    assert.equal(rules.getStore(), undefined);
    assert.equal(unit.getStore(), 1);
  });
  assert.equal(unit.getStore(), undefined);
});

test('work started inside a run and finishing after it keeps the value it started with', async () => {
  const request = new ScopedValue<string>('request');
  let later: Promise<string | undefined> | undefined;
  request.run('first', () => {
    later = tick().then(() => request.getStore());
  });
  assert.equal(request.getStore(), undefined);
  assert.equal(await later, 'first');
});
