/**
 * Store conformance: the send pace's slots, a sliding window shared by every caller of the store: no
 * window holds more than the limit, a slot frees a window after its last use, and concurrent takers
 * never share a slot.
 */
import { describe, expect, it } from 'vitest';
import type { CurrentStore } from './conformance.ts';

const T0 = Date.parse('2025-03-01T09:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

export function describeSendPaceConformance(store: CurrentStore): void {
  describe('send pace', () => {
    it('takes at most the limit in a window, then frees each slot a window after its last use', async () => {
      expect(await store().takeSendSlots('pn:1', 3, 5, 1000, at(0))).toEqual({ taken: 3, nextFreeAt: at(0) });
      expect(await store().takeSendSlots('pn:1', 3, 5, 1000, at(400))).toEqual({ taken: 2, nextFreeAt: at(1000) });
      expect(await store().takeSendSlots('pn:1', 3, 5, 1000, at(999))).toEqual({ taken: 0, nextFreeAt: at(1000) });
      // Another number has slots of its own.
      expect((await store().takeSendSlots('pn:2', 5, 5, 1000, at(999))).taken).toBe(5);
      // At 1000 the three used at 0 are free again; the two used at 400 free at 1400.
      expect(await store().takeSendSlots('pn:1', 10, 5, 1000, at(1000))).toEqual({ taken: 3, nextFreeAt: at(1400) });
      expect(await store().takeSendSlots('pn:1', 1, 5, 1000, at(1400))).toEqual({ taken: 1, nextFreeAt: at(1400) });
    });

    it('follows a changed limit: slots added are free, slots above a lower one are not used', async () => {
      expect((await store().takeSendSlots('pn:3', 10, 2, 1000, at(0))).taken).toBe(2);
      expect((await store().takeSendSlots('pn:3', 10, 4, 1000, at(10))).taken).toBe(2);
      expect((await store().takeSendSlots('pn:3', 10, 1, 1000, at(1005))).taken).toBe(1);
    });

    it('never gives one slot to two concurrent takers', async () => {
      const takes = await Promise.all(Array.from({ length: 8 }, () => store().takeSendSlots('pn:4', 4, 20, 1000, at(0))));
      // A taker that meets another's locked slots may take fewer; none takes a slot another took.
      const taken = takes.reduce((n, t) => n + t.taken, 0);
      expect(taken).toBeGreaterThan(0);
      expect(taken).toBeLessThanOrEqual(20);
    });
  });
}
