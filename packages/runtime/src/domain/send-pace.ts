/**
 * Sending at a provider number's pace: WhatsApp counts a number's messages in any sliding one-second
 * window and refuses those over its limit (130429). Every instance on one store shares the number's
 * slots (`SendPacePort`), so together they keep to it, and use it in full when there is work.
 */
import type { Clock } from '../clock.ts';
import type { SendPacePort } from '../store/ports.ts';

/** A provider number's pace: the key its slots are kept under, and its messages a second. */
export interface Pace {
  key: string;
  perSecond: number;
}

/**
 * How long a slot is held after a send starts: the provider's one-second window, and a margin for the
 * time between taking a slot and the provider counting the send (a busy event loop, the network), so
 * that a send delayed on its way never makes one window hold more than the limit.
 */
export const PACE_WINDOW_MS = 1050;

/** Waits `ms`: real timers in a server, the clock moved in tests. */
export type Wait = (ms: number) => Promise<void>;

/** Real timers. */
export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shortest wait between two tries for slots: another instance may hold the free ones for a moment. */
const MIN_WAIT_MS = 5;

/**
 * Starts `count` sends (`start(i)`) at `pace`: as many at once as the number has slots free, then the
 * next as slots free again. Without a pace, all at once. Resolves to their results, in order.
 */
export async function sendPaced<T>(
  deps: { store: SendPacePort; clock: Clock; wait: Wait },
  pace: Pace | undefined,
  count: number,
  start: (i: number) => Promise<T>,
): Promise<T[]> {
  if (!pace) return Promise.all(Array.from({ length: count }, (_, i) => start(i)));
  const started: Promise<T>[] = [];
  while (started.length < count) {
    const now = deps.clock.now();
    const { taken, nextFreeAt } = await deps.store.takeSendSlots(pace.key, count - started.length, pace.perSecond, PACE_WINDOW_MS, now.toISOString());
    for (let k = 0; k < taken; k++) started.push(start(started.length));
    if (started.length < count) await deps.wait(Math.max(MIN_WAIT_MS, Date.parse(nextFreeAt) - now.getTime()));
  }
  return Promise.all(started);
}
