/**
 * Store conformance: the send pace's slots, a sliding window shared by every caller of the store: no
 * window holds more than the limit, a slot frees a window after its last use (its taking, or the stamp
 * of its send's answer), and concurrent takers never share a slot.
 */
import { describe, expect, it } from 'vitest';
import type { CurrentStore } from './conformance.ts';

const T0 = Date.parse('2025-03-01T09:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
/** `slots` stamped with one time. */
const stamps = (slots: number[], when: string) => slots.map((slot) => ({ slot, at: when }));

export function describeSendPaceConformance(store: CurrentStore): void {
  describe('send pace', () => {
    it('takes at most the limit in a window, then frees each slot a window after its last use', async () => {
      const first = await store().takeSendSlots('pn:1', 3, 5, 1000, at(0));
      expect(first).toEqual({ slots: [0, 1, 2], nextFreeAt: at(0) });
      await store().stampSendSlots('pn:1', stamps(first.slots, at(0)));
      const second = await store().takeSendSlots('pn:1', 3, 5, 1000, at(400));
      expect(second).toEqual({ slots: [3, 4], nextFreeAt: at(1000) });
      await store().stampSendSlots('pn:1', stamps(second.slots, at(400)));
      expect(await store().takeSendSlots('pn:1', 3, 5, 1000, at(999))).toEqual({ slots: [], nextFreeAt: at(1000) });
      // Another number has slots of its own.
      expect((await store().takeSendSlots('pn:2', 5, 5, 1000, at(999))).slots).toHaveLength(5);
      // At 1000 the three used at 0 are free again; the two used at 400 free at 1400.
      expect(await store().takeSendSlots('pn:1', 10, 5, 1000, at(1000))).toEqual({ slots: [0, 1, 2], nextFreeAt: at(1400) });
      expect(await store().takeSendSlots('pn:1', 1, 5, 1000, at(1400))).toEqual({ slots: [3], nextFreeAt: at(1400) });
    });

    it('frees a slot a window after its taking, or after its stamp once stamped', async () => {
      expect((await store().takeSendSlots('pn:5', 1, 1, 1000, at(0))).slots).toEqual([0]);
      expect(await store().takeSendSlots('pn:5', 1, 1, 1000, at(999))).toEqual({ slots: [], nextFreeAt: at(1000) });
      expect((await store().takeSendSlots('pn:5', 1, 1, 1000, at(1000))).slots).toEqual([0]);
      await store().stampSendSlots('pn:5', stamps([0], at(1300)));
      expect(await store().takeSendSlots('pn:5', 1, 1, 1000, at(2000))).toEqual({ slots: [], nextFreeAt: at(2300) });
      expect((await store().takeSendSlots('pn:5', 1, 1, 1000, at(2300))).slots).toEqual([0]);
    });

    it('holds a slot taken for a send in flight until its stamp, however long, and reads the next free slot past the held ones', async () => {
      expect((await store().takeSendSlots('pn:6', 1, 2, 1000, at(0), 60_000)).slots).toEqual([0]);
      // Slot 1 is free; slot 0 is held, not counted in the next free time.
      expect(await store().takeSendSlots('pn:6', 2, 2, 1000, at(10), 60_000)).toEqual({ slots: [1], nextFreeAt: at(10) });
      expect(await store().takeSendSlots('pn:6', 1, 2, 1000, at(5_000))).toEqual({ slots: [], nextFreeAt: at(5_000) });
      await store().stampSendSlots('pn:6', stamps([0], at(5_100)));
      expect(await store().takeSendSlots('pn:6', 1, 2, 1000, at(5_200))).toEqual({ slots: [], nextFreeAt: at(6_100) });
      expect((await store().takeSendSlots('pn:6', 1, 2, 1000, at(6_100))).slots).toEqual([0]);
    });

    it('stamps each slot with its own time in one write', async () => {
      const { slots } = await store().takeSendSlots('pn:7', 2, 2, 1000, at(0), 60_000);
      await store().stampSendSlots('pn:7', [
        { slot: 0, at: at(20) },
        { slot: 1, at: at(250) },
      ]);
      expect(slots).toEqual([0, 1]);
      expect(await store().takeSendSlots('pn:7', 2, 2, 1000, at(1020))).toEqual({ slots: [0], nextFreeAt: at(1250) });
    });

    it('follows a changed limit: slots added are free, slots above a lower one are not used', async () => {
      expect((await store().takeSendSlots('pn:3', 10, 2, 1000, at(0))).slots).toEqual([0, 1]);
      expect((await store().takeSendSlots('pn:3', 10, 4, 1000, at(10))).slots).toEqual([2, 3]);
      expect((await store().takeSendSlots('pn:3', 10, 1, 1000, at(2005))).slots).toEqual([0]);
    });

    it('never gives one slot to two concurrent takers', async () => {
      const takes = await Promise.all(Array.from({ length: 8 }, () => store().takeSendSlots('pn:4', 4, 20, 1000, at(0))));
      // A taker that meets another's locked slots may take fewer; none takes a slot another took.
      const slots = takes.flatMap((t) => t.slots);
      expect(slots.length).toBeGreaterThan(0);
      expect(new Set(slots).size).toBe(slots.length);
      expect(slots.every((slot) => slot >= 0 && slot < 20)).toBe(true);
    });
  });

  describe('pair turns', () => {
    it('gives a recipient a turn once a gap after its last, per number, and says when the others come', async () => {
      expect(await store().takePairTurns('pn:7', ['+1', '+2'], 6000, at(0))).toEqual(new Map());
      // +1 had its turn at 0: its next is at 6000; +3 is new.
      expect(await store().takePairTurns('pn:7', ['+1', '+3'], 6000, at(2000))).toEqual(new Map([['+1', at(6000)]]));
      // Another number's turns are its own.
      expect(await store().takePairTurns('pn:8', ['+1'], 6000, at(2000))).toEqual(new Map());
      // A refused turn does not move the last: at 6000 +1 and +2 go, +3 (at 2000) waits until 8000.
      expect(await store().takePairTurns('pn:7', ['+1', '+2', '+3'], 6000, at(6000))).toEqual(new Map([['+3', at(8000)]]));
      expect(await store().takePairTurns('pn:7', ['+3'], 6000, at(8000))).toEqual(new Map());
    });

    it('forgets a turn given back (its send was refused), unless another send took the recipient since', async () => {
      expect(await store().takePairTurns('pn:10', ['+1', '+2'], 6000, at(0))).toEqual(new Map());
      await store().returnPairTurns('pn:10', ['+1'], at(0));
      expect(await store().takePairTurns('pn:10', ['+1', '+2'], 6000, at(1000))).toEqual(new Map([['+2', at(6000)]]));
      // The turn of 0 is gone; the one taken at 1000 stays.
      await store().returnPairTurns('pn:10', ['+1'], at(0));
      expect(await store().takePairTurns('pn:10', ['+1'], 6000, at(2000))).toEqual(new Map([['+1', at(7000)]]));
    });

    it('never gives one turn to two concurrent takers', async () => {
      const takes = await Promise.all(Array.from({ length: 6 }, () => store().takePairTurns('pn:9', ['+1', '+2', '+3'], 6000, at(0))));
      for (const to of ['+1', '+2', '+3']) expect(takes.filter((waiting) => !waiting.has(to))).toHaveLength(1);
    });
  });
}
