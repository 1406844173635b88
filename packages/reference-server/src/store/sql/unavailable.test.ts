import { type Store, StoreUnavailableError } from '@engagekit/runtime/store';
import { describe, expect, it } from 'vitest';
import { asUnavailable, reportingUnavailable, retryAfterS } from './unavailable.ts';

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

describe('reportingUnavailable', () => {
  const lost = new Error('Connection terminated unexpectedly');
  const stop = () => {};
  const store = {
    getCompany: () => Promise.reject(lost),
    getSetting: () => Promise.reject(new Error('a bug')),
    takeOnWrite: () => stop,
  } as Partial<Store> as Store;

  it('turns a method rejecting for a lost database into StoreUnavailableError, and leaves other failures as they were', async () => {
    const wrapped = reportingUnavailable(store);
    await expect(wrapped.getCompany('c')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(wrapped.getSetting('k')).rejects.toThrow('a bug');
  });

  it('passes a method that answers at once through as it answers', () => {
    expect(reportingUnavailable(store).takeOnWrite({ claimToken: 't', leaseUntil: () => null, take: () => {} })).toBe(stop);
  });
});
