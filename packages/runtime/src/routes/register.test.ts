import { describe, expect, it } from 'vitest';
import { mayHoldNul, nulPaths } from './register.ts';

describe('mayHoldNul', () => {
  it('is false for values without a NUL character, and for undefined', () => {
    expect(mayHoldNul(undefined)).toBe(false);
    expect(mayHoldNul({ id: 'cmp_1', uuid: 'a-b' })).toBe(false);
    expect(mayHoldNul([1, 'two', { three: null }])).toBe(false);
  });

  it('is true when a string or a key holds one', () => {
    expect(mayHoldNul({ name: 'a\u0000b' })).toBe(true);
    expect(mayHoldNul({ 'k\u0000': 1 })).toBe(true);
    expect(mayHoldNul(['\u0000'])).toBe(true);
  });

  it('is true, leaving the decision to the walk, for a backslash then u0000 and for a value nested too deep to stringify', () => {
    expect(mayHoldNul({ name: '\\u0000' })).toBe(true);
    expect(nulPaths({ name: '\\u0000' })).toEqual([]);
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 6000; i++) deep = [deep];
    expect(mayHoldNul(deep)).toBe(true);
    expect(nulPaths(deep)).toHaveLength(1);
  });
});

describe('nulPaths', () => {
  it('names every string and key holding a NUL character (an object’s keys when it is reached)', () => {
    expect(nulPaths({ a: 'ok', b: 'x\u0000', c: [{ d: '\u0000' }], 'e\u0000': 1 })).toEqual(['e\u0000', 'b', 'c.0.d']);
  });
});
