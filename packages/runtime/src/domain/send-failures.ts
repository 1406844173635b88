/**
 * What a provider's refusal of a message means for its campaign's run: one table, from WhatsApp's
 * published error codes (Cloud API error codes, throughput and pair rate limits), and the backoff of a
 * message sent again later.
 */

/**
 * - `retry`: the message is sent again later (a limit, or a fault that passes).
 * - `pause-campaign`: every further message would fail the same way (the template, the spam limit).
 * - `fail-run`: a configuration problem (the token, a permission, the account): the run ends failed.
 * - `fail-message`: this message only, with its code; the run goes on.
 * - `interrupted`: the request may have reached the provider, which gave no answer: not sent again
 *   (a later status from the provider corrects it), as after a crash.
 */
export type SendFailureClass = 'retry' | 'pause-campaign' | 'fail-run' | 'fail-message' | 'interrupted';

/** A code, or an inclusive range of codes. */
type Codes = readonly (number | readonly [number, number])[];

/** WhatsApp's error codes by what they mean for a run. A code in none of them: by the answer's HTTP status (`classifySendFailure`). */
export const WHATSAPP_ERROR_CLASSES: readonly { class: Exclude<SendFailureClass, 'interrupted'>; codes: Codes; meaning: string }[] = [
  { class: 'retry', codes: [4, 80007, 130429, 131056], meaning: 'a rate limit: the application, the number’s throughput, or the pair rate to one user' },
  { class: 'retry', codes: [1, 2, 131000, 131016, 133004], meaning: 'a temporary fault or a service unavailable for now' },
  { class: 'pause-campaign', codes: [[132000, 132016]], meaning: 'the template: missing, not approved, paused or disabled, or its parameters' },
  { class: 'pause-campaign', codes: [131048], meaning: 'the spam rate limit: too many messages blocked or reported' },
  { class: 'fail-run', codes: [0, 190], meaning: 'the access token' },
  { class: 'fail-run', codes: [3, 10, [200, 299]], meaning: 'a permission' },
  { class: 'fail-run', codes: [368, 131031], meaning: 'the account is restricted' },
  { class: 'fail-run', codes: [131042], meaning: 'payment' },
  { class: 'fail-run', codes: [133010], meaning: 'the sending number is not registered' },
  {
    class: 'fail-message',
    codes: [100, 131008, 131009, 131021, 131026, 131047, 131049, 131050, 131051],
    meaning:
      'this message only: a bad parameter, the recipient is the sender, undeliverable, more than 24 h since the user wrote, withheld by WhatsApp, opted out of marketing, an unsupported type',
  },
];

/** How a send failed, as the channel saw it. */
export interface SendFailure {
  /** The answer's HTTP status; null when none came. */
  httpStatus: number | null;
  /** The provider's error code; null when it gave none. */
  code: number | null;
  /**
   * Without an answer: whether the request may have reached the provider (a timeout or a connection
   * lost after it was written) or surely did not (refused, no route, no name). Ignored with an answer.
   */
  mayHaveReached: boolean;
}

const inCodes = (codes: Codes, code: number) => codes.some((c) => (typeof c === 'number' ? c === code : code >= c[0] && code <= c[1]));

/** The table's row of `code`, if any. */
const rowOf = (code: number) => WHATSAPP_ERROR_CLASSES.find((r) => inCodes(r.codes, code));

/** What a code of the table is about (its row's `meaning`); null for a code in no row. */
export function failureMeaning(code: number): string | null {
  return rowOf(code)?.meaning ?? null;
}

/**
 * The class of a failed send: by the provider's code (`WHATSAPP_ERROR_CLASSES`); a code in no row, or
 * none, by the HTTP status (429 and 5xx retry, any other answer fails the message); no answer at all,
 * `retry` when the request surely did not reach the provider, `interrupted` when it may have.
 */
export function classifySendFailure(failure: SendFailure): SendFailureClass {
  const row = failure.code === null ? undefined : rowOf(failure.code);
  if (row) return row.class;
  if (failure.httpStatus === null) return failure.mayHaveReached ? 'interrupted' : 'retry';
  return failure.httpStatus === 429 || failure.httpStatus >= 500 ? 'retry' : 'fail-message';
}

/**
 * How long a message waits before its attempt number `attempt` (2 for the first retry): `baseMs` times
 * 4^(attempt - 2), the pair rate's advice, from half to all of it at random (so messages refused together
 * do not come back together), and never less than the answer's `Retry-After`.
 */
export function retryDelayMs(attempt: number, baseMs: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const backoff = baseMs * 4 ** Math.max(0, attempt - 2);
  return Math.max(Math.round(backoff * (0.5 + random() / 2)), retryAfterMs ?? 0);
}
