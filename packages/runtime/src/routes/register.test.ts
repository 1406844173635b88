import { describe, expect, it } from 'vitest';
import { holdsNul, nulPaths } from './register.ts';

describe('nulPaths', () => {
  it('names every string and key holding a NUL character (an object’s keys when it is reached)', () => {
    expect(nulPaths({ a: 'ok', b: 'x\u0000', c: [{ d: '\u0000' }], 'e\u0000': 1 })).toEqual(['e\u0000', 'b', 'c.0.d']);
  });

  it('names none in values without one, a backslash then u0000 among them, and in undefined', () => {
    expect(nulPaths(undefined)).toEqual([]);
    expect(nulPaths({ id: 'cmp_1', uuid: 'a-b', list: [1, 'two', { three: null }] })).toEqual([]);
    expect(nulPaths({ name: '\\u0000' })).toEqual([]);
  });

  it('walks a value nested too deep for recursion without overflowing the call stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 6000; i++) deep = [deep];
    expect(nulPaths(deep)).toHaveLength(1);
  });
});

describe('holdsNul', () => {
  it('says whether nulPaths would name any: in a string, a key, deep in arrays, and in none', () => {
    for (const value of [undefined, null, 'x', { a: 'ok', list: [1, 'two', { three: null }] }, { name: '\\u0000' }]) {
      expect(holdsNul(value)).toBe(false);
    }
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 6000; i++) deep = [deep];
    for (const value of ['x\u0000', { b: 'x\u0000' }, { 'e\u0000': 1 }, { c: [{ d: '\u0000' }] }, deep]) {
      expect(holdsNul(value)).toBe(true);
      expect(nulPaths(value).length).toBeGreaterThan(0);
    }
  });
});
