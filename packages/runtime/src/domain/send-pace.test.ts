import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { createMemoryStore } from '../store/memory/store.ts';
import { PACE_WINDOW_MS, sendPaced, stampWhenAnswered } from './send-pace.ts';

describe('sendPaced', () => {
  it('starts as many sends as there are slots, then the next as slots free, never more than the limit in a window', async () => {
    const clock = createManualClock(new Date('2026-01-05T09:00:00.000Z'));
    const store = createMemoryStore();
    const startedAt: number[] = [];
    // The sends answer at once: their slots are stamped before the clock moves on.
    const wait = async (ms: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      clock.advance(ms);
    };
    const deps = { store, clock, wait };
    const t0 = clock.now().getTime();
    const groups: number[][] = [];
    const results = await sendPaced(deps, { key: 'whatsapp:1', perSecond: 20 }, 50, async (first, n) => {
      groups.push([first, n]);
      return Array.from({ length: n }, async (_, k) => {
        startedAt.push(clock.now().getTime() - t0);
        return first + k;
      });
    });
    expect(groups).toEqual([
      [0, 20],
      [20, 20],
      [40, 10],
    ]);
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(startedAt.filter((t) => t === 0)).toHaveLength(20);
    expect(startedAt.filter((t) => t === PACE_WINDOW_MS)).toHaveLength(20);
    expect(startedAt.filter((t) => t === 2 * PACE_WINDOW_MS)).toHaveLength(10);
    // Another run on the same number shares its slots: 10 are free now (used a window ago), then it waits.
    const later: number[] = [];
    await sendPaced(deps, { key: 'whatsapp:1', perSecond: 20 }, 15, async (_, n) =>
      Array.from({ length: n }, async () => later.push(clock.now().getTime() - t0)),
    );
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
      async (first, n) => Array.from({ length: n }, async (_, k) => (first + k) * 2),
    );
    expect(results).toEqual([0, 2, 4]);
    expect(waited).toBe(false);
  });
});

describe('stampWhenAnswered', () => {
  it("stamps each slot with its own send's answer, so one answered early frees before the group's slowest", async () => {
    const clock = createManualClock(new Date('2026-01-05T09:00:00.000Z'));
    const store = createMemoryStore();
    const t0 = clock.now().getTime();
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const { slots } = await store.takeSendSlots('whatsapp:2', 2, 2, PACE_WINDOW_MS, at(0), 60_000);
    let answerSlow: () => void = () => {};
    const fast = Promise.resolve('fast');
    const slow = new Promise<string>((resolve) => {
      answerSlow = () => resolve('slow');
    });
    const stamped = stampWhenAnswered({ store, clock }, 'whatsapp:2', slots, [fast, slow.then(() => Promise.reject(new Error('refused')))]);
    await fast;
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(300);
    answerSlow();
    await stamped;
    // The first slot frees a window after its answer at 0; the second a window after 300, refused or not.
    expect(await store.takeSendSlots('whatsapp:2', 2, 2, PACE_WINDOW_MS, at(PACE_WINDOW_MS), 60_000)).toEqual({
      slots: [slots[0]],
      nextFreeAt: at(PACE_WINDOW_MS + 300),
    });
  });
});
