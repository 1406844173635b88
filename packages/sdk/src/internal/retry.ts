/** Retry policy: which answers are retried and how long to wait before the next attempt. Pure functions. */

/** The first backoff, in ms; it doubles every retry. */
const INITIAL_RETRY_DELAY_MS = 500;
/** The longest computed backoff, in ms. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** The longest `Retry-After` honoured, in ms; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * 408, 429 and every 5xx are retried. A 409 is not (a conflict here is real), but for one that carries
 * `Retry-After`: the server saying a request with the same Idempotency-Key still runs (or its instance
 * died and its key is taken over once that time has passed), so the same request, retried then, gets
 * its answer.
 */
export function isRetryableStatus(status: number, headers?: Headers): boolean {
  return status === 408 || status === 429 || status >= 500 || (status === 409 && headers?.has('retry-after') === true);
}

/**
 * `Retry-After` in milliseconds from now: delay-seconds (`"2"`, `"0.5"`) or an HTTP date.
 * `undefined` when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates name a day or month ("Wed, 21 Oct 2015 07:28:00 GMT"); Date.parse alone accepts "-5".
  const at = /[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * How long to wait before retry number `retry` (0 for the first retry): the server's `Retry-After`
 * when it sent one (capped at a minute), else exponential backoff from 0.5 s up to 8 s, less up to
 * 25 % random jitter so clients that failed together do not retry together.
 */
export function retryDelay(retry: number, headers: Headers | undefined, random: () => number, nowMs: number): number {
  const asked = parseRetryAfter(headers?.get('retry-after'), nowMs);
  if (asked !== undefined) return Math.min(asked, MAX_RETRY_AFTER_MS);
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return backoff * (1 - 0.25 * random());
}
