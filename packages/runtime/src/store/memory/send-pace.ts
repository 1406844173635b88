import type { SendPacePort } from '../ports.ts';

/**
 * The memory store's send pace: each key's slots as the times (ms) of their last use, taken oldest
 * first. A change of `limit` keeps the slots below it and adds new ones, free. And each key's last
 * turn to each recipient, for the pair rate.
 */
export function createMemorySendPace() {
  const slotsOf = new Map<string, number[]>();
  /** Each key's last turn (ms) to each recipient, for the pair rate. */
  const turnsOf = new Map<string, Map<string, number>>();
  const methods: SendPacePort = {
    async takeSendSlots(key, wanted, limit, windowMs, now, holdMs = 0) {
      const at = Date.parse(now);
      const kept = slotsOf.get(key) ?? [];
      const slots = kept.length === limit ? kept : [...kept.slice(0, limit), ...Array<number>(Math.max(0, limit - kept.length)).fill(Number.NEGATIVE_INFINITY)];
      slotsOf.set(key, slots);
      const taken = slots
        .map((used, slot) => ({ used, slot }))
        .filter((s) => s.used <= at - windowMs)
        .sort((a, b) => a.used - b.used || a.slot - b.slot)
        .slice(0, Math.max(0, wanted))
        .map((s) => s.slot);
      const others = slots.filter((used, slot) => !taken.includes(slot) && used <= at);
      for (const slot of taken) slots[slot] = at + holdMs;
      const oldest = others.length > 0 ? Math.min(...others) : at - windowMs;
      return { slots: taken, nextFreeAt: new Date(Math.max(oldest, at - windowMs) + windowMs).toISOString() };
    },
    async stampSendSlots(key, stamps) {
      const slots = slotsOf.get(key);
      for (const { slot, at } of stamps) if (slots && slot < slots.length) slots[slot] = Date.parse(at);
    },
    async takePairTurns(key, recipients, gapMs, at) {
      const now = Date.parse(at);
      const turns = turnsOf.get(key) ?? new Map<string, number>();
      turnsOf.set(key, turns);
      // Turns older than the gap say nothing any more: forgotten once they are many.
      if (turns.size > 10_000) for (const [to, last] of turns) if (last <= now - gapMs) turns.delete(to);
      const waiting = new Map<string, string>();
      for (const to of recipients) {
        const last = turns.get(to);
        if (last !== undefined && last > now - gapMs) waiting.set(to, new Date(last + gapMs).toISOString());
        else turns.set(to, now);
      }
      return waiting;
    },
    async returnPairTurns(key, recipients, at) {
      const turns = turnsOf.get(key);
      const taken = Date.parse(at);
      for (const to of recipients) if (turns?.get(to) === taken) turns.delete(to);
    },
  };
  return {
    methods,
    clear: () => {
      slotsOf.clear();
      turnsOf.clear();
    },
  };
}
