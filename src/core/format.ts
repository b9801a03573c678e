// Formatters: relative time, dates, weeks (starting Monday) and sizes.
import { t, type Translate } from './i18n';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** Weeks start on Monday (ISO): 1 = Monday … 7 = Sunday. */
export const WEEK_STARTS_ON = 1;

export type DateInput = Date | number | string;

/** A Date from a Date, an ISO string, milliseconds, or seconds (a 10-digit number, as many APIs send). */
export function toDate(value: DateInput): Date {
  if (value instanceof Date) return new Date(value.getTime());
  if (typeof value === 'number') return new Date(value >= 1e9 && value < 1e10 ? value * 1000 : value);
  return /^\d{10}$/.test(value) ? new Date(Number(value) * 1000) : new Date(value);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Formats in local time; tokens YYYY, MM, DD, HH, mm, ss (everything else is kept). */
export function formatDate(value: DateInput, pattern: string = DATE_TIME_FORMAT): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '';
  const tokens: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => tokens[token] ?? token);
}

/** Relative time: under 30 s "just now", under an hour minutes, under a day hours, under two
 *  days "1 day ago", otherwise the date. Minutes and hours are rounded up. */
export function relativeTime(value: DateInput, now: DateInput = Date.now(), translate: Translate = t): string {
  const seconds = (toDate(now).getTime() - toDate(value).getTime()) / 1000;
  if (seconds < 30) return translate('time.justNow');
  if (seconds < 3600) return translate('time.minutesAgo', { count: Math.ceil(seconds / 60) });
  if (seconds < 86_400) return translate('time.hoursAgo', { count: Math.ceil(seconds / 3600) });
  if (seconds < 2 * 86_400) return translate('time.dayAgo');
  return formatDate(value);
}

/** Day of the week with Monday first: 1 = Monday … 7 = Sunday. */
export function isoWeekday(value: DateInput): number {
  return ((toDate(value).getDay() + 6) % 7) + 1;
}

/** Midnight (local) of the Monday starting the week of `value`. */
export function startOfWeek(value: DateInput): Date {
  const date = toDate(value);
  date.setHours(0, 0, 0, 0);
  date.setDate(date.getDate() - (isoWeekday(date) - WEEK_STARTS_ON));
  return date;
}

export const SIZE_UNITS = ['B', 'K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y'] as const;

/** A byte count with the largest unit that keeps the value ≥ 1 (B, then K … Y), base 1024 or 1000. */
export function formatSize(bytes: number, options: { base?: 1024 | 1000; decimals?: number } = {}): string {
  const { base = 1024, decimals = 2 } = options;
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < SIZE_UNITS.length - 1) {
    value /= base;
    unit += 1;
  }
  return `${Number(value.toFixed(decimals))}${SIZE_UNITS[unit]}`;
}
