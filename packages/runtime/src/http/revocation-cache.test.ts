import { describe, expect, it } from 'vitest';
import type { RevocationCheck } from '../domain/tokens.ts';
import { createRevocationCache } from './revocation-cache.ts';

const never: RevocationCheck = () => false;
const always: RevocationCheck = () => true;

/** A cache over a read that counts its calls and answers `answer`, on a clock the test moves. */
function setup() {
  let nowMs = 0;
  let answer = never;
  const reads: string[] = [];
  const cache = createRevocationCache(
    async (uuid) => {
      reads.push(uuid);
      return answer;
    },
    () => nowMs,
    2_000,
  );
  return {
    cache,
    reads,
    at: (ms: number) => {
      nowMs = ms;
    },
    answer: (check: RevocationCheck) => {
      answer = check;
    },
  };
}

describe('createRevocationCache', () => {
  it('reads a company once per refresh, the reads in between answered at once', async () => {
    const { cache, reads, at, answer } = setup();
    expect(await cache.get('c1')).toBe(never);
    at(1_999);
    expect(cache.get('c1')).toBe(never);
    answer(always);
    at(2_000);
    expect(await cache.get('c1')).toBe(always);
    expect(reads).toEqual(['c1', 'c1']);
  });

  it('shares one read between concurrent callers, and reads each company apart', async () => {
    const { cache, reads } = setup();
    await Promise.all([cache.get('c1'), cache.get('c1'), cache.get('c2')]);
    expect(reads).toEqual(['c1', 'c2']);
  });

  it('reads a forgotten company again at once, and drops a read begun before it was forgotten', async () => {
    const { cache, reads, answer } = setup();
    const stale = cache.get('c1');
    cache.forget('c1');
    answer(always);
    expect(await stale).toBe(never);
    expect(await cache.get('c1')).toBe(always);
    expect(cache.get('c1')).toBe(always);
    cache.forget();
    await cache.get('c1');
    expect(reads).toEqual(['c1', 'c1', 'c1']);
  });

  it('keeps nothing of a read that failed', async () => {
    let fail = true;
    const cache = createRevocationCache(async () => {
      if (fail) throw new Error('database down');
      return never;
    });
    await expect(cache.get('c1')).rejects.toThrow('database down');
    fail = false;
    expect(await cache.get('c1')).toBe(never);
  });
});
