import { type Clock, createManualClock, systemClock } from '@engagekit/runtime';
import { parseDuration } from './duration.ts';
import { timeOf } from './time-input.ts';

export { parseDuration } from './duration.ts';

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
