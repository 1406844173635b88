/**
 * The bodies the control endpoints take, one strict schema each: an unknown field is refused, named,
 * never dropped. The control API parses with them and `/__mock/openapi.json` documents them; a fault's
 * body (`FaultBody`, which `mock.fail()` checks too) is in `faults.ts`.
 */
import * as z from 'zod';

/** A control body that does not fit its schema: a 400 whose `issues` name each field. */
export class ControlBodyError extends TypeError {
  override readonly name = 'ControlBodyError';
  readonly issues: { path: string; message: string }[];
  constructor(message: string, issues: { path: string; message: string }[]) {
    super(message);
    this.issues = issues;
  }
}

/** The message of an `unrecognized_keys` issue: names the fields, and the ones `takes` lists. */
export const unknownFields = (keys: readonly string[], takes: string) =>
  `unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => JSON.stringify(k)).join(', ')}: ${takes}.`;

/** A strict object of `shape`: an unknown field is refused with a message naming it and what `what` takes. */
export function strictBody<S extends z.ZodRawShape>(shape: S, what: string) {
  const takes = `${what} takes ${Object.keys(shape).join(', ') || 'no fields'}`;
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFields(issue.keys, takes) : `${what} takes a JSON object.`),
  });
}

/**
 * `input` checked by `schema`: the parsed value, or a ControlBodyError that starts with `prefix`,
 * says what is wrong, and names each field in `issues` (each unknown field on its own).
 */
export function parseControlBody<T>(schema: z.ZodType<T>, input: unknown, prefix = ''): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ path: [...i.path, key].join('.'), message: 'is not a field of this body' }))
      : [{ path: i.path.join('.'), message: i.message }],
  );
  throw new ControlBodyError(`${prefix}${r.error.issues.map((i) => i.message).join(' ')}`, issues);
}

const OUTCOMES = ['sent', 'delivered', 'read', 'failed'] as const;
const Seed = z.union([z.number(), z.string()]).meta({ description: 'Makes generated ids the same run after run.', example: 7 });

/** `POST /__mock/reset`. */
export const ResetBody = strictBody({ seed: Seed.optional() }, 'POST /__mock/reset');

/** `POST /__mock/clock`: the time is checked by the clock itself, which names `set` in its 400. */
export const ClockBody = strictBody(
  {
    set: z.union([z.string(), z.number()], { error: 'set must be a date-time string or epoch milliseconds.' }).optional().meta({
      description:
        'Put the clock at this time (an RFC 3339 date-time as the API takes one, or epoch milliseconds); nothing runs. A date or time that does not exist is a 400 naming set.',
      example: '2026-03-01T08:00:00Z',
    }),
    advance: z
      .union([z.string(), z.number()], { error: "advance must be a duration such as '2h' or milliseconds." })
      .optional()
      .meta({ description: "Move forward by milliseconds or '90s', '90m', '2h', '1d', running what falls due; answers once it has run.", example: '2h' }),
  },
  'POST /__mock/clock',
);

/** `POST /__mock/channel/outcomes`. */
export const OutcomeBody = strictBody(
  {
    phoneNumber: z
      .string({ error: 'phoneNumber is required: a phone number, or "*" for every number.' })
      .meta({ description: "A phone number, or '*' for every number without an outcome of its own.", example: '*' }),
    status: z.enum(OUTCOMES, { error: `status must be one of ${OUTCOMES.join(', ')}.` }),
    reason: z.string({ error: 'reason must be a string.' }).optional().meta({ description: "A failure's error.", example: 'not on WhatsApp' }),
  },
  'POST /__mock/channel/outcomes',
);

/** `POST /__mock/restore`, and the answer of `POST /__mock/snapshot`. */
export const SnapshotId = strictBody({ id: z.string({ error: 'id must be a string.' }).meta({ example: 'snap_1' }) }, 'POST /__mock/restore');

/** `POST /__mock/snapshot`: nothing to give. */
export const SnapshotBody = strictBody({}, 'POST /__mock/snapshot');
