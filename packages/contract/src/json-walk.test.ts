import { describe, expect, it } from 'vitest';
import { findInJson, type JsonPath } from './json-walk.ts';

describe('findInJson', () => {
  it('visits every value in document order, with its path, and stops at the first find', () => {
    const seen: JsonPath[] = [];
    const found = findInJson({ a: [1, { b: 'x' }], c: 'x' }, (v, path) => {
      seen.push(path);
      return v === 'x' ? path : undefined;
    });
    expect(found).toEqual(['a', 1, 'b']);
    expect(seen).toEqual([[], ['a'], ['a', 0], ['a', 1], ['a', 1, 'b']]);
  });

  it('walks a value nested 5,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(5_000)}${']'.repeat(5_000)}`);
    expect(findInJson(deep, (_, path) => (path.length === 4_999 ? path.length : undefined))).toBe(4_999);
  });
});
