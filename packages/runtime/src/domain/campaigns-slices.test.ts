import { describe, expect, it } from 'vitest';
import { slices } from './campaign-runs.ts';

describe('slices', () => {
  it('cuts a list into consecutive slices of the size given, the last one shorter', () => {
    expect(slices([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(slices([1, 2, 3], 1)).toEqual([[1], [2], [3]]);
  });

  it('gives one slice for a size of Infinity, and none for an empty list', () => {
    expect(slices([1, 2, 3], Number.POSITIVE_INFINITY)).toEqual([[1, 2, 3]]);
    expect(slices([], Number.POSITIVE_INFINITY)).toEqual([]);
  });

  it('takes a size below 1 as 1', () => {
    expect(slices([1, 2], 0)).toEqual([[1], [2]]);
  });
});
