import { HttpError } from './errors.ts';

/**
 * A token bucket per key (the caller's company, or the admin: `rateLimitKey` in routes/register.ts): `perMinute` requests a minute, refilled smoothly.
 * Per process: N instances behind a balancer allow N times the rate.
 */
export interface RateLimiter {
  /** Throws a 429 with Retry-After when `key` has no request left. */
  take(key: string, nowMs: number): void;
  /** Forgets every key's use: each starts again with a full bucket. */
  clear(): void;
}

/** `perMinute` 0 turns limiting off. Buckets idle for two minutes are forgotten. */
export function createRateLimiter(perMinute: number): RateLimiter {
  if (perMinute <= 0) return { take() {}, clear() {} };
  const ratePerMs = perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = 0;
  return {
    take(key, nowMs) {
      if (nowMs - lastSweep > 120_000) {
        for (const [k, b] of buckets) if (nowMs - b.at > 120_000) buckets.delete(k);
        lastSweep = nowMs;
      }
      const b = buckets.get(key) ?? { tokens: perMinute, at: nowMs };
      b.tokens = Math.min(perMinute, b.tokens + (nowMs - b.at) * ratePerMs);
      b.at = nowMs;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / ratePerMs / 1000));
      throw new HttpError(429, `Too many requests: ${perMinute} a minute are allowed, a company’s tokens counting together; retry in ${retryAfter} seconds`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    },
    clear() {
      buckets.clear();
    },
  };
}
