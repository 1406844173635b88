import { describe, expect, it } from 'vitest';
import { isRetryableStatus, MAX_RETRY_AFTER_MS, MAX_RETRY_DELAY_MS, parseRetryAfter, retryDelay } from './retry.ts';

const NOW = Date.parse('2026-01-05T08:00:00Z');

describe('isRetryableStatus', () => {
  it('retries 408, 429 and every 5xx, and nothing else', () => {
    const retried = [200, 201, 400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 501, 502, 503, 504, 599].filter((s) => isRetryableStatus(s));
    expect(retried).toEqual([408, 429, 500, 501, 502, 503, 504, 599]);
  });

  it('retries a 409 only when it says when to (Retry-After: an Idempotency-Key whose first request still runs)', () => {
    expect(isRetryableStatus(409, new Headers())).toBe(false);
    expect(isRetryableStatus(409, new Headers({ 'retry-after': '3' }))).toBe(true);
    expect(isRetryableStatus(400, new Headers({ 'retry-after': '3' }))).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds, whole or decimal', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 0.5 ', NOW)).toBe(500);
    expect(parseRetryAfter('0', NOW)).toBe(0);
  });

  it('reads an HTTP date as the time left until it, 0 when it has passed', () => {
    expect(parseRetryAfter(new Date(NOW + 12_000).toUTCString(), NOW)).toBe(12_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', NOW)).toBe(0);
  });

  it('gives undefined for nothing or nonsense', () => {
    for (const v of [null, undefined, '', 'soon', '-5', '1e3']) expect(parseRetryAfter(v, NOW)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('doubles from 500 ms up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map((r) => retryDelay(r, undefined, () => 0, NOW))).toEqual([500, 1000, 2000, 4000, 8000, 8000, MAX_RETRY_DELAY_MS]);
  });

  it('takes up to a quarter off as jitter', () => {
    expect(retryDelay(1, undefined, () => 0.999_999, NOW)).toBeCloseTo(750, 0);
    expect(retryDelay(1, undefined, () => 0.5, NOW)).toBe(875);
  });

  it('follows Retry-After without jitter, capped at a minute', () => {
    expect(retryDelay(0, new Headers({ 'retry-after': '4' }), () => 0.9, NOW)).toBe(4000);
    expect(retryDelay(0, new Headers({ 'retry-after': '86400' }), () => 0.9, NOW)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryDelay(2, new Headers({ 'retry-after': 'garbage' }), () => 0, NOW)).toBe(2000);
  });
});
