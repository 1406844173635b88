/** The default schedule, seconds before each attempt (close to Svix's): now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/** The longest a receiver's Retry-After may push an attempt back. */
const MAX_RETRY_AFTER_S = 86_400;

/** Seconds a Retry-After header asks for (delta seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now.getTime()) / 1000);
}

/**
 * When the attempt after `attemptsMade` attempts is due, or null when the schedule is spent.
 * The scheduled delay gets +/- `jitter` (a fraction) so retries of many deliveries spread out; a
 * receiver's Retry-After is honoured when it asks for longer (up to a day).
 */
export function nextAttemptAt(opts: {
  schedule: number[];
  attemptsMade: number;
  now: Date;
  retryAfterS: number | null;
  jitter: number;
  random: () => number;
}): Date | null {
  const scheduled = opts.schedule[opts.attemptsMade];
  if (scheduled === undefined) return null;
  let delay = scheduled * (1 + (opts.random() * 2 - 1) * opts.jitter);
  if (opts.retryAfterS !== null) delay = Math.max(delay, Math.min(opts.retryAfterS, MAX_RETRY_AFTER_S));
  return new Date(opts.now.getTime() + Math.round(delay * 1000));
}
