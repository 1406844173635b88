import { dateTimeProblem } from '@engagekit/contract';

/** A time the mock was given that is none: a TypeError naming the input it came as (`set`, `since`), for a control call's 400. */
export class TimeInputError extends TypeError {
  override readonly name = 'TimeInputError';
  /** The input, as the control API names it. */
  readonly field: string;
  /** Why the value is not a time, without the call's name (for the 400's `issues`). */
  readonly problem: string;
  constructor(label: string, field: string, value: unknown, problem: string) {
    super(
      `${label}${JSON.stringify(value)} is not a time: ${problem}. Give a Date, an RFC 3339 date-time such as 2026-03-01T08:00:00Z, or epoch milliseconds.`,
    );
    this.field = field;
    this.problem = problem;
  }
}

/**
 * `value` as epoch milliseconds: a Date, epoch milliseconds, or an RFC 3339 date-time checked as the
 * API checks one (`dateTimeProblem` of the contract: seconds and a time zone, a date and time that
 * exist), so `2030-02-30T00:00:00Z` is refused rather than read as March 2. Otherwise throws a
 * TimeInputError whose message starts with `label` and which names `field`.
 *
 * @example timeOf('2026-03-01T08:00:00Z', 'clock.set(): ', 'set') // 1772352000000
 */
export function timeOf(value: unknown, label: string, field: string): number {
  if (typeof value === 'string') {
    const problem = dateTimeProblem(value);
    if (problem) throw new TimeInputError(label, field, value, problem);
    return Date.parse(value);
  }
  const t = value instanceof Date ? value.getTime() : value;
  if (typeof t !== 'number' || !Number.isFinite(t)) throw new TimeInputError(label, field, value, 'must be a Date, a date-time or epoch milliseconds');
  return t;
}
