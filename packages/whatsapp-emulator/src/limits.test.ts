import { describe, expect, it } from 'vitest';
import { SlidingWindow, TokenBuckets } from './limits.ts';

describe('SlidingWindow', () => {
  it('accepts at most the limit in any one-second window, whatever the window start', () => {
    const window = new SlidingWindow(3);
    const accepted = [0, 100, 200, 300, 999, 1000, 1100, 1150, 1199, 1200, 1300].filter((t) => window.take('p', t));
    expect(accepted).toEqual([0, 100, 200, 1000, 1100, 1200]);
    for (const t of accepted) expect(accepted.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(3);
  });

  it('counts each key apart', () => {
    const window = new SlidingWindow(1);
    expect([window.take('a', 0), window.take('b', 0), window.take('a', 10)]).toEqual([true, true, false]);
  });
});

describe('TokenBuckets', () => {
  it('lets a burst through, then one per interval', () => {
    const buckets = new TokenBuckets({ intervalMs: 6000, burst: 2 });
    expect([0, 1, 2].map((t) => buckets.take('p', t))).toEqual([true, true, false]);
    expect(buckets.take('p', 5000)).toBe(false);
    expect(buckets.take('p', 6002)).toBe(true);
    expect(buckets.take('p', 6003)).toBe(false);
    expect(buckets.take('q', 6003)).toBe(true);
  });
});
