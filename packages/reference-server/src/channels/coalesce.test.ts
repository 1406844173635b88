import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './coalesce.ts';

describe('coalesceWrites', () => {
  it('writes what arrives during a write together in the next, each caller resolved once its items are stored', async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const write = coalesceWrites<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((ok) => (release = ok));
    });
    const first = write([1]);
    const later = [write([2, 3]), write([4])];
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps a batch within maxBatch items (a caller with more goes alone) and fails only the callers of a failed batch', async () => {
    const writes: string[][] = [];
    const write = coalesceWrites<string>(async (items) => {
      writes.push(items);
      if (items.includes('bad')) throw new Error('database unavailable');
    }, 3);
    const results = await Promise.allSettled([write(['a']), write(['b', 'c']), write(['d', 'e']), write(['bad']), write(['f', 'g', 'h', 'i'])]);
    expect(writes).toEqual([['a'], ['b', 'c'], ['d', 'e', 'bad'], ['f', 'g', 'h', 'i']]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
  });
});
