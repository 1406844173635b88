import { describe, expect, it } from 'vitest';
import { copy } from './copy.ts';

describe('copy', () => {
  it('copies nested plain data so that changing the copy leaves the original alone', () => {
    const original = { a: 1, b: 'x', c: null, d: undefined, e: [1, { f: [true] }], g: { h: { i: 'deep' } } };
    const c = copy(original);
    expect(c).toStrictEqual(original);
    c.e.push(2);
    (c.e[1] as { f: boolean[] }).f[0] = false;
    c.g.h.i = 'changed';
    expect(original).toStrictEqual({ a: 1, b: 'x', c: null, d: undefined, e: [1, { f: [true] }], g: { h: { i: 'deep' } } });
  });

  it('copies other objects as structuredClone does, and keeps a __proto__ key an own property', () => {
    const at = new Date('2026-01-05T08:00:00Z');
    const c = copy({ at, tags: new Set(['a']) });
    expect(c.at).toEqual(at);
    expect(c.at).not.toBe(at);
    expect(c.tags).toEqual(new Set(['a']));
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
    const p = copy(parsed);
    expect(Object.keys(p)).toEqual(['__proto__', 'ok']);
    expect((p as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
  });
});
