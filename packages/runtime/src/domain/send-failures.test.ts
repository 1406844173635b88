import { describe, expect, it } from 'vitest';
import { classifySendFailure, retryDelayMs, WHATSAPP_ERROR_CLASSES } from './send-failures.ts';

const answered = (code: number | null, httpStatus = 400) => classifySendFailure({ httpStatus, code, mayHaveReached: true });

describe('classifySendFailure', () => {
  it.each([
    // Retry later: rate limits, then temporary faults.
    [4, 'retry'],
    [80007, 'retry'],
    [130429, 'retry'],
    [131056, 'retry'],
    [1, 'retry'],
    [2, 'retry'],
    [131000, 'retry'],
    [131016, 'retry'],
    [133004, 'retry'],
    // Pause the campaign: the template errors, and the spam rate limit.
    [132000, 'pause-campaign'],
    [132001, 'pause-campaign'],
    [132015, 'pause-campaign'],
    [132016, 'pause-campaign'],
    [131048, 'pause-campaign'],
    // Fail the run: a configuration problem.
    [0, 'fail-run'],
    [190, 'fail-run'],
    [3, 'fail-run'],
    [10, 'fail-run'],
    [200, 'fail-run'],
    [299, 'fail-run'],
    [368, 'fail-run'],
    [131031, 'fail-run'],
    [131042, 'fail-run'],
    [133010, 'fail-run'],
    // That message only.
    [100, 'fail-message'],
    [131008, 'fail-message'],
    [131009, 'fail-message'],
    [131021, 'fail-message'],
    [131026, 'fail-message'],
    [131047, 'fail-message'],
    [131049, 'fail-message'],
    [131050, 'fail-message'],
    [131051, 'fail-message'],
  ] as const)('code %i: %s', (code, expected) => {
    expect(answered(code)).toBe(expected);
  });

  it('puts no code in two rows: each row’s codes come out in its class', () => {
    const ends = (r: (typeof WHATSAPP_ERROR_CLASSES)[number]) => r.codes.flatMap((c) => (typeof c === 'number' ? [c] : [c[0], c[1]]));
    for (const r of WHATSAPP_ERROR_CLASSES) for (const code of ends(r)) expect(answered(code)).toBe(r.class);
    const codes = WHATSAPP_ERROR_CLASSES.flatMap(ends);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('judges a code in no row, or none, by the HTTP status: 429 and 5xx retry, other answers fail the message', () => {
    expect(answered(null, 500)).toBe('retry');
    expect(answered(null, 503)).toBe('retry');
    expect(answered(999_999, 502)).toBe('retry');
    expect(answered(null, 429)).toBe('retry');
    expect(answered(null, 400)).toBe('fail-message');
    expect(answered(999_999, 400)).toBe('fail-message');
  });

  it('retries a request that surely did not reach the provider, and leaves one that may have as interrupted', () => {
    expect(classifySendFailure({ httpStatus: null, code: null, mayHaveReached: false })).toBe('retry');
    expect(classifySendFailure({ httpStatus: null, code: null, mayHaveReached: true })).toBe('interrupted');
  });
});

describe('retryDelayMs', () => {
  it('waits base times 4^n, from half to all of it, and at least Retry-After', () => {
    expect([2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, null, () => 1))).toEqual([1000, 4000, 16_000]);
    expect([2, 3, 4].map((attempt) => retryDelayMs(attempt, 1000, null, () => 0))).toEqual([500, 2000, 8000]);
    expect(retryDelayMs(2, 1000, 30_000, () => 1)).toBe(30_000);
    expect(retryDelayMs(4, 1000, 2_000, () => 1)).toBe(16_000);
  });
});
