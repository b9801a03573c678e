// formatters: relative time (en, zh), date format, weeks starting Monday, sizes (1024 and 1000).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDate, formatSize, isoWeekday, relativeTime, startOfWeek, toDate } from '../../../src/core/format';
import { setLocale } from '../../../src/core/i18n';

const now = new Date(2024, 5, 12, 12, 0, 0); // Wednesday 12 June 2024, 12:00 local time
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('relative time', () => {
  after(() => setLocale('en'));

  const cases: [seconds: number, en: string, zh: string][] = [
    [0, 'just now', '刚刚'],
    [29, 'just now', '刚刚'],
    [30, '1 min ago', '1分钟前'],
    [90, '2 min ago', '2分钟前'],
    [59 * 60, '59 min ago', '59分钟前'],
    [3600, '1 h ago', '1小时前'],
    [5 * 3600 + 1, '6 h ago', '6小时前'],
    [86_399, '24 h ago', '24小时前'],
    [86_400, '1 day ago', '1天前'],
    [2 * 86_400 - 1, '1 day ago', '1天前'],
  ];

  it('English', async () => {
    await setLocale('en');
    for (const [seconds, en] of cases) assert.equal(relativeTime(ago(seconds), now), en, `${seconds} s`);
  });

  it('Chinese', async () => {
    await setLocale('zh');
    for (const [seconds, , zh] of cases) assert.equal(relativeTime(ago(seconds), now), zh, `${seconds} s`);
  });

  it('two days or more: the date YYYY-MM-DD HH:mm:ss', () => {
    assert.equal(relativeTime(ago(2 * 86_400), now), '2024-06-10 12:00:00');
    assert.equal(relativeTime(new Date(2023, 11, 31, 23, 59, 58), now), '2023-12-31 23:59:58');
  });

  it('a future time counts as just now', async () => {
    await setLocale('en');
    assert.equal(relativeTime(ago(-600), now), 'just now');
  });
});

describe('dates', () => {
  it('formats YYYY-MM-DD HH:mm:ss with zero padding, in local time', () => {
    assert.equal(formatDate(new Date(2024, 0, 2, 3, 4, 5)), '2024-01-02 03:04:05');
    assert.equal(formatDate(new Date(2024, 10, 30, 23, 9, 0), 'DD/MM/YYYY HH:mm'), '30/11/2024 23:09');
    assert.equal(formatDate('not a date'), '');
  });

  it('accepts milliseconds, 10-digit seconds and ISO strings', () => {
    const date = new Date(2024, 5, 12, 8, 30, 0);
    const seconds = Math.floor(date.getTime() / 1000);
    assert.equal(toDate(seconds).getTime(), date.getTime());
    assert.equal(toDate(String(seconds)).getTime(), date.getTime());
    assert.equal(toDate(date.getTime()).getTime(), date.getTime());
    assert.equal(toDate(date.toISOString()).getTime(), date.getTime());
  });

  it('weeks start on Monday', () => {
    assert.equal(isoWeekday(new Date(2024, 5, 10)), 1, 'Monday');
    assert.equal(isoWeekday(new Date(2024, 5, 16)), 7, 'Sunday is the last day');
    assert.equal(formatDate(startOfWeek(new Date(2024, 5, 16, 18, 30))), '2024-06-10 00:00:00');
    assert.equal(formatDate(startOfWeek(new Date(2024, 5, 10, 0, 0, 1))), '2024-06-10 00:00:00');
    assert.equal(formatDate(startOfWeek(new Date(2024, 0, 3))), '2024-01-01 00:00:00');
  });
});

describe('sizes', () => {
  it('base 1024 with units K … Y', () => {
    assert.equal(formatSize(0), '0B');
    assert.equal(formatSize(1023), '1023B');
    assert.equal(formatSize(1024), '1K');
    assert.equal(formatSize(1536), '1.5K');
    assert.equal(formatSize(150 * 1024), '150K');
    assert.equal(formatSize(5 * 1024 ** 2), '5M');
    assert.equal(formatSize(1024 ** 3), '1G');
    assert.equal(formatSize(1024 ** 4), '1T');
    assert.equal(formatSize(1024 ** 5), '1P');
    assert.equal(formatSize(1024 ** 6), '1E');
    assert.equal(formatSize(1024 ** 7), '1Z');
    assert.equal(formatSize(1024 ** 8), '1Y');
    assert.equal(formatSize(1024 ** 9), '1024Y', 'Y is the largest unit');
  });

  it('base 1000, and decimals', () => {
    assert.equal(formatSize(1000, { base: 1000 }), '1K');
    assert.equal(formatSize(1024, { base: 1000 }), '1.02K');
    assert.equal(formatSize(1_234_567, { base: 1000, decimals: 1 }), '1.2M');
    assert.equal(formatSize(1e24, { base: 1000 }), '1Y');
  });

  it('rejects what is not a size', () => {
    assert.equal(formatSize(-1), '');
    assert.equal(formatSize(Number.NaN), '');
  });
});
