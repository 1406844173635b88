import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import { PACE_WINDOW_MS, sendPaced } from './send-pace.ts';

describe('sendPaced', () => {
  it('starts as many sends as there are slots, then the next as slots free, never more than the limit in a window', async () => {
    const clock = createManualClock(new Date('2026-01-05T09:00:00.000Z'));
    const store = createMemoryStore();
    const startedAt: number[] = [];
    const deps = { store, clock, wait: async (ms: number) => clock.advance(ms) };
    const t0 = clock.now().getTime();
    const results = await sendPaced(deps, { key: 'whatsapp:1', perSecond: 20 }, 50, async (i) => {
      startedAt.push(clock.now().getTime() - t0);
      return i;
    });
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(startedAt.filter((t) => t === 0)).toHaveLength(20);
    expect(startedAt.filter((t) => t === PACE_WINDOW_MS)).toHaveLength(20);
    expect(startedAt.filter((t) => t === 2 * PACE_WINDOW_MS)).toHaveLength(10);
    // Another run on the same number shares its slots: 10 are free now (used a window ago), then it waits.
    const later: number[] = [];
    await sendPaced(deps, { key: 'whatsapp:1', perSecond: 20 }, 15, async () => later.push(clock.now().getTime() - t0));
    expect(later).toEqual([...Array(10).fill(2 * PACE_WINDOW_MS), ...Array(5).fill(3 * PACE_WINDOW_MS)]);
  });

  it('starts every send at once without a pace', async () => {
    const clock = createManualClock();
    let waited = false;
    const results = await sendPaced(
      {
        store: createMemoryStore(),
        clock,
        wait: async () => {
          waited = true;
        },
      },
      undefined,
      3,
      async (i) => i * 2,
    );
    expect(results).toEqual([0, 2, 4]);
    expect(waited).toBe(false);
  });
});
