// A point in time typed as text, in the reader's local time: "2026-11-29" or "2026-11-29 09:30".
// The audit log's time range is typed this way instead of in the browser's date inputs, whose
// words and order (mm/dd/yyyy) follow the browser's language rather than the console's.

const TYPED = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?$/;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * The typed time as epoch ms: its start, or with `end` the last millisecond it covers (a day
 * without a time is the whole day, a time its whole minute). Empty text is undefined; text that is
 * no real date or time is null.
 */
export function parseTimeText(text: string, end = false): number | undefined | null {
  const typed = text.trim();
  if (!typed) return undefined;
  const match = TYPED.exec(typed);
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  const hour = match[4] === undefined ? undefined : Number(match[4]);
  const minute = Number(match[5] ?? 0);
  const at = new Date(year, month - 1, day, hour ?? 0, minute);
  // new Date rolls 2026-02-30 over into March and 25:00 into the next day: refuse instead.
  const same = [at.getFullYear(), at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes()].join() === [year, month, day, hour ?? 0, minute].join();
  if (!same) return null;
  return at.getTime() + (end ? (hour === undefined ? DAY : MINUTE) - 1 : 0);
}
