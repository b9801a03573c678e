import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimeText } from '../../../src/core/time-text';

test('a typed day or minute is read in local time, its end covering the whole day or minute', () => {
  assert.equal(parseTimeText('2026-11-29'), new Date(2026, 10, 29).getTime());
  assert.equal(parseTimeText('2026-11-29', true), new Date(2026, 10, 30).getTime() - 1);
  assert.equal(parseTimeText(' 2026-1-5 9:30 '), new Date(2026, 0, 5, 9, 30).getTime());
  assert.equal(parseTimeText('2026-11-29T09:30', true), new Date(2026, 10, 29, 9, 31).getTime() - 1);
});

test('empty text is no bound; text that is no real date or time is refused', () => {
  assert.equal(parseTimeText('   '), undefined);
  for (const wrong of ['11/29/2026', '2026-02-30', '2026-13-01', '2026-11-29 24:00', '2026-11-29 09:60', 'yesterday', '2026-11-29 9']) {
    assert.equal(parseTimeText(wrong), null, wrong);
  }
});
