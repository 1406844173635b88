import { describe, expect, it } from 'vitest';
import { chunkEnds, chunkRanges, compareChunkClaims, compareDue, isDue, waitsForRunAfter } from './campaign-runs.ts';

describe('chunkEnds and chunkRanges', () => {
  it('end a chunk at every chunkSize-th customer but the last, and leave the last chunk open-ended', () => {
    expect(chunkEnds(['a', 'b', 'c', 'd', 'e'], 2)).toEqual(['b', 'd']);
    expect(chunkEnds(['a', 'b', 'c', 'd'], 2)).toEqual(['b']);
    expect(chunkEnds([], 2)).toEqual([]);
    expect(chunkRanges(['b'])).toEqual([
      { after_id: null, through_id: 'b' },
      { after_id: 'b', through_id: null },
    ]);
  });
});

describe('which campaigns are due', () => {
  const at = (next_run_at: string | null, status: 'scheduled' | 'running' = 'scheduled') => ({ status, next_run_at });
  it('takes scheduled campaigns whose next run is at or before now, earliest first and then by id', () => {
    expect(isDue(at('2026-01-05T09:00:00.000Z'), '2026-01-05T09:00:00.000Z')).toBe(true);
    expect(isDue(at('2026-01-05T09:00:00.001Z'), '2026-01-05T09:00:00.000Z')).toBe(false);
    expect(isDue(at('2026-01-05T08:00:00.000Z', 'running'), '2026-01-05T09:00:00.000Z')).toBe(false);
    expect(isDue(at(null), '2026-01-05T09:00:00.000Z')).toBe(false);
    expect(waitsForRunAfter(at('2026-01-05T09:00:00.000Z'), '2026-01-05T09:00:00.000Z')).toBe(false);
    const due = [
      { id: 'b', next_run_at: '2026-01-05T09:00:00.000Z' },
      { id: 'c', next_run_at: '2026-01-05T08:00:00.000Z' },
      { id: 'a', next_run_at: '2026-01-05T09:00:00.000Z' },
    ];
    expect(due.sort(compareDue).map((c) => c.id)).toEqual(['c', 'a', 'b']);
  });
});

describe('compareChunkClaims', () => {
  it("claims the earliest runs first, and of those every run's first chunk before any second", () => {
    const chunks = [
      { run_key: '2026-01-05T09:00:00.000Z', seq: 2, campaign_id: 'a' },
      { run_key: '2026-01-05T09:00:00.000Z', seq: 1, campaign_id: 'b' },
      { run_key: '2026-01-05T08:00:00.000Z', seq: 3, campaign_id: 'c' },
      { run_key: '2026-01-05T09:00:00.000Z', seq: 1, campaign_id: 'a' },
    ];
    expect(chunks.sort(compareChunkClaims).map((c) => `${c.campaign_id}${c.seq}`)).toEqual(['c3', 'a1', 'b1', 'a2']);
  });
});
