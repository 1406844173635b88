/**
 * The Cloud API's two send limits: throughput (messages per second per phone number, counted in any
 * sliding one-second window) and the pair rate (messages from one phone number to one recipient, a
 * token bucket that lets a short burst borrow from later).
 */

/** Accepted sends per phone number in any sliding window of `windowMs`. */
export class SlidingWindow {
  readonly #accepted = new Map<string, number[]>();
  #limit: number;
  readonly #windowMs: number;

  constructor(limit: number, windowMs = 1_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Changes the limit; what was accepted stays counted. */
  setLimit(limit: number): void {
    this.#limit = limit;
  }

  /** Takes a place for `key` at `now` (ms) when the window ending then has one; false when full. */
  take(key: string, now: number): boolean {
    const times = this.#accepted.get(key) ?? [];
    // Times are in order: drop those that left the window (now - windowMs, now].
    let first = 0;
    while (first < times.length && (times[first] as number) <= now - this.#windowMs) first++;
    const kept = first > 0 ? times.slice(first) : times;
    if (kept.length >= this.#limit) {
      this.#accepted.set(key, kept);
      return false;
    }
    kept.push(now);
    this.#accepted.set(key, kept);
    return true;
  }

  reset(): void {
    this.#accepted.clear();
  }
}

/** A token bucket per key: `burst` tokens, one coming back every `intervalMs`. */
export class TokenBuckets {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  #rate: { intervalMs: number; burst: number };

  constructor(rate: { intervalMs: number; burst: number }) {
    this.#rate = rate;
  }

  /** Changes the rate; buckets start full again. */
  setRate(rate: { intervalMs: number; burst: number }): void {
    this.#rate = rate;
    this.#buckets.clear();
  }

  /** Takes a token for `key` at `now` (ms); false when its bucket is empty. */
  take(key: string, now: number): boolean {
    const bucket = this.#buckets.get(key) ?? { tokens: this.#rate.burst, at: now };
    const tokens = Math.min(this.#rate.burst, bucket.tokens + (now - bucket.at) / this.#rate.intervalMs);
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: now });
      return false;
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: now });
    return true;
  }

  reset(): void {
    this.#buckets.clear();
  }
}
