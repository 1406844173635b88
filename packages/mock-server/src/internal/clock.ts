import { type Clock, createManualClock, systemClock } from '@engagekit/runtime';
import { timeOf } from './time-input.ts';

/** The work a manual clock runs as it moves: the runtime's due campaign runs and webhook attempts. */
interface DueWork {
  advanceTo(until: Date, setTime: (time: Date) => void): Promise<void>;
}

/** The mock's time: the real clock (the default) or, with `clock: 'manual'`, one that moves only when a test moves it. */
export interface MockClock extends Clock {
  /** True when the clock moves only when told (`clock: 'manual'`). */
  readonly manual: boolean;
  /** The mock's current time. */
  now(): Date;
  /**
   * Puts a manual clock at `date` (a Date, epoch milliseconds, or an RFC 3339 date-time string with
   * seconds and a time zone, as the API takes, whose date and time exist). Nothing runs:
   * work that falls due runs at the next `advance()` (`advance(0)` runs what is due now).
   */
  set(date: Date | string | number): void;
  /**
   * Moves a manual clock forward by milliseconds or a duration such as `'90s'`, `'90m'`, `'2h'` or
   * `'1d'`, running in due order everything that falls due on the way: campaign runs (in each
   * company's time zone) and webhook attempts and retries. Tokens expire by the same clock. Resolves
   * once that work has finished.
   */
  advance(by: number | string): Promise<void>;
}

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds in `by`: a number of milliseconds (>= 0) or a string such as `'250ms'`, `'90s'`, `'90m'`, `'2h'`, `'1.5d'`. */
export function parseDuration(by: number | string): number {
  if (typeof by === 'number' && Number.isFinite(by) && by >= 0) return by;
  if (typeof by === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(by);
    if (m) return Number(m[1]) * UNITS[m[2] as keyof typeof UNITS];
  }
  throw new TypeError(`advance(): ${JSON.stringify(by)} is not a duration; give milliseconds (>= 0) or a string such as '90s', '90m', '2h' or '1d'.`);
}

/**
 * The mock's clock. `choice` is `'manual'` (starting at the real time, back there on every
 * `restart()`), a Clock of your own, or undefined for the real clock; only a manual clock moves.
 * `work` gives the due work of the mock's current state.
 */
export function createMockClock(choice: Clock | 'manual' | undefined, work: () => DueWork): MockClock & { restart(): void } {
  if (choice !== 'manual') {
    const clock = choice ?? systemClock;
    const manualOnly = (name: string): never => {
      throw new TypeError(`clock.${name}() needs a manual clock: setupMockApi({ clock: 'manual' }) (engagekit-mock --clock manual).`);
    };
    return { manual: false, now: () => clock.now(), set: () => manualOnly('set'), advance: async () => manualOnly('advance'), restart() {} };
  }

  const start = new Date();
  const manual = createManualClock(start);
  // One move at a time: a second advance() starts where the first one ends.
  let moving: Promise<unknown> = Promise.resolve();

  const moveBy = (ms: number) => work().advanceTo(new Date(manual.now().getTime() + ms), manual.set);

  return {
    manual: true,
    now: manual.now,
    set(date) {
      manual.set(new Date(timeOf(date, 'clock.set(): ', 'set')));
    },
    async advance(by) {
      const ms = parseDuration(by);
      const moved = moving.then(() => moveBy(ms));
      moving = moved.catch(() => {});
      return moved;
    },
    restart() {
      manual.set(start);
    },
  };
}
