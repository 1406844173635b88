import { StoreUnavailableError } from '@engagekit/runtime/store';
import { describe, expect, it } from 'vitest';
import { asUnavailable, retryAfterS } from './unavailable.ts';

describe('retryAfterS', () => {
  it('draws a whole number of seconds from 1 to 4, each as likely', () => {
    expect([0, 0.2499, 0.25, 0.5, 0.75, 0.9999].map((r) => retryAfterS(() => r))).toEqual([1, 1, 2, 3, 4, 4]);
  });
});

describe('asUnavailable', () => {
  it('gives a lost connection a Retry-After from 1 to 4 s, not the same for every answer', () => {
    const lost = () => asUnavailable(new Error('Connection terminated unexpectedly')) as StoreUnavailableError;
    const seconds = Array.from({ length: 40 }, () => lost().retryAfterS);
    expect(lost()).toBeInstanceOf(StoreUnavailableError);
    for (const s of seconds) expect([1, 2, 3, 4]).toContain(s);
    expect(new Set(seconds).size).toBeGreaterThan(1);
  });

  it('takes a statement sent on a connection already lost for the database unavailable', () => {
    expect(asUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBeInstanceOf(StoreUnavailableError);
  });
});
