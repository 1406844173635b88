/**
 * Sending at a provider number's pace: WhatsApp counts a number's messages in any sliding one-second
 * window and refuses those over its limit (130429). Every instance on one store shares the number's
 * slots (`SendPacePort`), so together they keep to it, and use it in full when there is work.
 */
import type { Clock } from '../clock.ts';
import type { SendPacePort } from '../store/ports.ts';

/** A provider number's pace: the key its slots are kept under, its messages a second, and its pair rate. */
export interface Pace {
  key: string;
  perSecond: number;
  /** The least time between two messages to one recipient (`PAIR_GAP_MS` for WhatsApp); absent: none. */
  pairGapMs?: number;
}

/** WhatsApp's pair rate: one message from a number to one user every 6 s; sooner ones may meet 131056. */
export const PAIR_GAP_MS = 6_000;

/**
 * The window a slot is held for after its send's answer: WhatsApp's second, and a little for clocks of
 * instances on different machines. The provider counts a send somewhere between its start and its
 * answer, so a slot used again a window after the answer never puts two sends in one window there.
 */
export const PACE_WINDOW_MS = 1020;

/**
 * How long a slot is held for a send in flight, until its answer's stamp: longer than any send waits
 * for its answer, so a slow answer never frees its slot early. A taker that dies before its stamp holds
 * its slots this long.
 */
export const PACE_HOLD_MS = 60_000;

/**
 * How many messages a chunk of a run hands a paced provider at once (the channel's `inFlight`): half a
 * second of the number's pace shared by the chunks an instance runs at once, so that an instance keeps
 * the pace in full while the provider takes up to half a second to answer each. A crash can leave at
 * most this many of a chunk's messages interrupted.
 */
export function inFlightForPace(perSecond: number, chunkConcurrency: number): number {
  return Math.max(1, Math.ceil(perSecond / Math.max(1, chunkConcurrency) / 2));
}

/** Waits `ms`: real timers in a server, the clock moved in tests. */
export type Wait = (ms: number) => Promise<void>;

/** Real timers. */
export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shortest wait between two tries for slots: another instance may hold the free ones for a moment. */
const MIN_WAIT_MS = 5;

/**
 * Sends `count` messages at `pace`, a group at a time: as many as the number has slots free, then the
 * next group as slots free again; without a pace, all in one group. `group(first, n)` starts the sends
 * of messages `first` to `first + n - 1`, resolving to them. Resolves to every send's result, in order.
 */
export async function sendPaced<T>(
  deps: { store: SendPacePort; clock: Clock; wait: Wait },
  pace: Pace | undefined,
  count: number,
  group: (first: number, n: number) => Promise<Promise<T>[]>,
): Promise<T[]> {
  if (!pace) return Promise.all(await group(0, count));
  const started: Promise<T>[] = [];
  const stamped: Promise<void>[] = [];
  while (started.length < count) {
    const now = deps.clock.now();
    const { slots, nextFreeAt } = await deps.store.takeSendSlots(
      pace.key,
      count - started.length,
      pace.perSecond,
      PACE_WINDOW_MS,
      now.toISOString(),
      PACE_HOLD_MS,
    );
    if (slots.length > 0) {
      const sends = await group(started.length, slots.length);
      started.push(...sends);
      // A stamp that fails leaves its slots held for PACE_HOLD_MS, which is all it costs: the sends'
      // outcomes are recorded regardless.
      stamped.push(stampWhenAnswered(deps, pace.key, slots, sends).catch(() => {}));
    }
    if (started.length < count) await deps.wait(Math.max(MIN_WAIT_MS, Date.parse(nextFreeAt) - now.getTime()));
  }
  const results = await Promise.all(started);
  await Promise.all(stamped);
  return results;
}

/**
 * Stamps each of `slots` with the time its own send (`sends`, in the same order) was answered, in one
 * write once all are. A slot whose send was answered early frees a window after that answer, not after
 * the group's slowest one: the pace is used in full while a group's answers straggle (bench row
 * `channel.send.paced`).
 */
export async function stampWhenAnswered(
  deps: { store: SendPacePort; clock: Clock },
  key: string,
  slots: readonly number[],
  sends: readonly Promise<unknown>[],
): Promise<void> {
  const answeredAt = () => deps.clock.now().toISOString();
  const answered = await Promise.all(sends.map((send) => send.then(answeredAt, answeredAt)));
  await deps.store.stampSendSlots(
    key,
    slots.map((slot, i) => ({ slot, at: answered[i] ?? answeredAt() })),
  );
}

/** What taking pair turns came to: for each recipient, null (it goes now) or when its turn comes; and the stamp of the turns taken. */
export interface PairTurns {
  turns: (string | null)[];
  /** The time the turns taken were stamped with (ISO-8601): what `givePairTurnsBack` names them by. */
  at: string;
}

/**
 * The pair rate: for each of `recipients` (in order; one may come twice), null when it may be sent to
 * now, or when its turn comes (ISO-8601): its last message to it, kept by every instance on the store,
 * was less than the pace's `pairGapMs` ago, or it came earlier in the list. A turn is stamped with when
 * the last of these sends may start at the number's pace, so the gap is kept from the sends themselves.
 * Without a pair rate, all go now.
 */
export async function takePairTurns(deps: { store: SendPacePort; clock: Clock }, pace: Pace | undefined, recipients: string[]): Promise<PairTurns> {
  const now = deps.clock.now().getTime();
  if (!pace?.pairGapMs || recipients.length === 0) return { turns: recipients.map(() => null), at: new Date(now).toISOString() };
  const gapMs = pace.pairGapMs;
  const at = now + Math.ceil((recipients.length * 1000) / pace.perSecond);
  const distinct = [...new Set(recipients)];
  const waiting = await deps.store.takePairTurns(pace.key, distinct, gapMs, new Date(at).toISOString());
  const seen = new Set<string>();
  const turns = recipients.map((to) => {
    if (seen.has(to)) return new Date(at + gapMs).toISOString();
    seen.add(to);
    return waiting.get(to) ?? null;
  });
  return { turns, at: new Date(at).toISOString() };
}

/**
 * Gives back the turns taken at `at` (`takePairTurns`) of recipients whose sends the provider refused:
 * it counted no message to them, so a retry need not wait the gap. A turn taken since by another send
 * stays.
 */
export async function givePairTurnsBack(deps: { store: SendPacePort }, pace: Pace | undefined, recipients: string[], at: string): Promise<void> {
  if (!pace?.pairGapMs || recipients.length === 0) return;
  await deps.store.returnPairTurns(pace.key, [...new Set(recipients)], at);
}
