import type { Days, Weekday } from '@engagekit/contract';

const WEEKDAYS: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The wall-clock parts of `instant` in `timeZone`. */
function partsIn(instant: Date, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), min: Number(p.minute), s: Number(p.second) };
}

/** Date.UTC with a 1-based month, except that a year from 0 to 99 is that year (Date.UTC reads it as 1900 to 1999). */
function utc(y: number, m: number, d: number, h = 0, min = 0, s = 0): number {
  return new Date(Date.UTC(2000, 0, 1, h, min, s)).setUTCFullYear(y, m - 1, d);
}

/** The instant at which the wall clock in `timeZone` shows the given date and time. */
function zonedTimeToInstant(y: number, m: number, d: number, h: number, min: number, timeZone: string): Date {
  const guess = utc(y, m, d, h, min);
  // Two passes settle the offset, also across a DST change.
  let t = guess;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(new Date(t), timeZone);
    const shown = utc(p.y, p.m, p.d, p.h, p.min, p.s);
    t += guess - shown;
  }
  return new Date(t);
}

/**
 * The first run of a recurring campaign at or after `from`: the earliest listed weekday and time
 * (in `timeZone`) not before `from`. Null when `days` lists no time.
 */
export function nextRecurringRun(days: Days, timeZone: string, from: Date): Date | null {
  const start = partsIn(from, timeZone);
  let best: Date | null = null;
  for (let offset = 0; offset <= 7; offset++) {
    const day = new Date(utc(start.y, start.m, start.d + offset));
    const times = days[WEEKDAYS[day.getUTCDay()] as Weekday] ?? [];
    for (const t of times) {
      const [h, min] = t.split(':').map(Number) as [number, number];
      const at = zonedTimeToInstant(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), h, min, timeZone);
      if (at.getTime() >= from.getTime() && (!best || at < best)) best = at;
    }
    if (best) return best;
  }
  return best;
}
