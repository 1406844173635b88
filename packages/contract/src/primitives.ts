import * as z from 'zod';

/** Telephone number in E.164 form: a `+`, then 7 to 15 digits, no spaces. */
export const PhoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number: "+" then 7 to 15 digits, e.g. "+1234567890"')
  .meta({ description: 'Phone number in E.164 form: "+" then 7 to 15 digits.', example: '+1234567890' });

const isoDateRe = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Days in `month` (1-12) of `year` in the proleptic Gregorian calendar, leap years counted. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True when `YYYY-MM-DD` (given as numbers) is a day of the calendar: no 2030-02-30, no 2031-02-29. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Calendar date `YYYY-MM-DD` from 0001-01-01 on (PostgreSQL has no year 0000), checked to exist (no 2024-02-30). */
export const IsoDate = z
  .string()
  .regex(isoDateRe, 'must be a date in YYYY-MM-DD form')
  .refine((s) => {
    if (!isoDateRe.test(s)) return true; // the pattern has said so already
    const [year, month, day] = s.split('-').map(Number) as [number, number, number];
    return isCalendarDate(year, month, day);
  }, 'must be a real calendar date')
  .refine((s) => !isoDateRe.test(s) || s >= '0001-01-01', 'must be 0001-01-01 or later')
  .meta({ description: 'Calendar date, YYYY-MM-DD, from 0001-01-01.', format: 'date', example: '2024-11-15' });

const dateTimeRe = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
/** The fields of a date-time that matched `dateTimeRe`. */
const dateTimeFields = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const DATE_TIME_FORM = 'must be an RFC 3339 date-time with seconds and a time zone, e.g. 2025-01-15T10:00:00Z or 2025-01-15T15:30:00+05:30';

/**
 * Why `text` is not an RFC 3339 date-time that exists, or null when it is one: its form (seconds
 * and a time zone required), then its date checked against the calendar (no 2030-02-30, no
 * 2031-02-29, no month 13), its time of day (hours to 23, minutes and seconds to 59) and its offset
 * (within ±23:59). The one rule for every date-time the API and the mock take, so none is moved to
 * another day the way `Date.parse('2030-02-30T00:00:00Z')` moves it to March 2.
 *
 * @example dateTimeProblem('2030-02-30T00:00:00Z') // 'must be a real date: 2030-02-30 does not exist'
 */
export function dateTimeProblem(text: string): string | null {
  if (!dateTimeRe.test(text)) return DATE_TIME_FORM;
  const [, y, mo, d, h, mi, s, oh = '00', om = '00'] = dateTimeFields.exec(text) as RegExpExecArray;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return `must be a real date: ${y}-${mo}-${d} does not exist`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return `must be a real time of day: ${h}:${mi}:${s} does not exist (00:00:00 to 23:59:59)`;
  if (Number(oh) > 23 || Number(om) > 59) return `must have a real time zone offset: ${oh}:${om} is not one (at most 23:59)`;
  return null;
}

/**
 * An RFC 3339 date-time, seconds required, with `Z` or an offset: `2025-01-15T10:00:00Z`,
 * `2025-01-15T15:30:00+05:30`, whose date and time exist (`dateTimeProblem`). The document gives the
 * pattern alone, not `format: date-time`: that is exactly what the server takes (some generators'
 * date-time validators refuse offsets).
 */
export const DateTime = z
  .string()
  .regex(dateTimeRe, DATE_TIME_FORM)
  .superRefine((value, ctx) => {
    // The pattern has spoken for a value of another form.
    const problem = dateTimeRe.test(value) ? dateTimeProblem(value) : null;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: 'RFC 3339 date-time: seconds required, a fraction optional, then `Z` or an offset such as `+05:30`. The date and time must exist.',
    example: '2025-01-15T10:00:00Z',
  });

/** A timestamp the server writes (always UTC, millisecond precision). */
export const Timestamp = z
  .string()
  .meta({ description: 'ISO-8601 UTC timestamp written by the server.', format: 'date-time', example: '2025-01-15T10:00:00.000Z' });

/** Money amount: a finite number >= 0. */
export const Amount = z
  .number()
  .min(0, 'must be >= 0')
  .max(1_000_000_000_000, 'must be <= 1000000000000')
  .meta({ description: 'Amount, >= 0.', example: 1500.75 });

/** Company UUID (8-4-4-4-12 hexadecimal). */
export const CompanyUuid = z
  .guid('must be a UUID such as 53d1bcd3-aaf0-45e1-9298-5395b6a27b61')
  .meta({ description: 'The company UUID.', format: 'uuid', example: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61' });

/** Opaque identifier the server assigns. */
export const Id = z.string().meta({ description: 'Opaque identifier.', example: 'cmp_01JD4Z8Q3T5V' });

/** Non-empty trimmed text up to `max` characters. */
export function text(max: number, description: string, example?: string) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .meta(example === undefined ? { description } : { description, example });
}

/** Optional free text: an empty string is kept as given. */
export function optionalText(max: number, description: string, example?: string) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .meta(example === undefined ? { description } : { description, example })
    .optional();
}

export const Weekday = z
  .enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
  .meta({ id: 'Weekday', description: 'Day of the week, lower case.' });
export type Weekday = z.infer<typeof Weekday>;

/** A time of day, 24-hour `HH:MM`. */
export const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time HH:MM, e.g. 09:00')
  .meta({ description: '24-hour time of day, HH:MM.', example: '09:00' });
