import { type ErrorStatus, errorCodes, type OperationId, operationIds } from '@engagekit/contract';
import * as z from 'zod';
import { parseControlBody, unknownFields } from './control-bodies.ts';

/** What `fail()` takes: an error answer, a dropped connection, latency, or latency then one of those. */
export interface FaultOptions {
  /** Answer with this status and the standard error envelope (its `code` is the contract's for the status). Omit it for latency alone. */
  status?: ErrorStatus;
  /** How many matching calls it hits, then it is spent (default 1; `Infinity` until `reset()` or `clearFaults()`). */
  times?: number;
  /** Hold each hit call this long first, in milliseconds (an aborted request stops waiting, as real fetch does). */
  delayMs?: number;
  /** The envelope's `message` (default: says it is a simulated failure of the operation). */
  message?: string;
  /** The envelope's `code` (default: the contract's code for `status`, e.g. `rate_limited` for 429). */
  code?: string;
  /**
   * `Retry-After` seconds, sent with the error answer of any status (a 409 `idempotency_in_progress`
   * too). Without it a 429 or 503 sends 0, so retrying clients do not slow the tests down. Needs a
   * `status`: a dropped connection or latency alone has no answer to carry it.
   */
  retryAfter?: number;
  /** Drop the connection instead of answering: fetch rejects with a TypeError, as it does when a server goes away. */
  network?: boolean;
}

/** A fault registered with `fail()`: how often it has hit and how many hits it has left. */
export interface Fault {
  readonly operationId: OperationId;
  readonly options: Readonly<FaultOptions>;
  /** Calls it has hit so far. */
  readonly hits: number;
  /** Hits left (Infinity for a standing fault). */
  readonly remaining: number;
  /** Removes it before it is spent. */
  clear(): void;
}

/** Thrown by the mock's `fetch` for a `network: true` fault; MSW turns it into a network error. */
export class MockNetworkError extends TypeError {
  constructor(operationId: string) {
    super(`fetch failed (engagekit mock: a simulated network failure of ${operationId})`);
  }
}

interface Entry {
  operationId: OperationId;
  options: FaultOptions;
  hits: number;
  remaining: number;
}

const ERROR_STATUSES = Object.keys(errorCodes).map(Number) as ErrorStatus[];
const TIMES = 'times must be at least 1 (or Infinity; null in JSON).';
const DELAY = 'delayMs must be a number of milliseconds >= 0.';
const RETRY_AFTER = 'retryAfter must be a number of seconds >= 0.';
const FIELDS = 'a fault takes operationId, status, times, delayMs, message, code, retryAfter, network';

/**
 * A fault as `mock.fail(operationId, options)` and `POST /__mock/fail` take it: the one rule for both,
 * and the schema `/__mock/openapi.json` documents. Each message says what to give instead.
 */
export const FaultBody = z
  .strictObject(
    {
      operationId: z
        .enum(operationIds as [OperationId, ...OperationId[]], {
          error: (issue) =>
            issue.input === undefined
              ? 'operationId is required, e.g. { "operationId": "addOrder", "status": 503 }.'
              : `${JSON.stringify(issue.input)} is not an operationId of the contract. Use one of: ${operationIds.join(', ')}.`,
        })
        .meta({ description: 'The contract operation the fault hits.' }),
      status: z
        .literal(ERROR_STATUSES, {
          error: (issue) => `status ${JSON.stringify(issue.input)} is not an error status of the contract. Use one of: ${ERROR_STATUSES.join(', ')}.`,
        })
        .optional()
        .meta({ description: 'Answer with this error status and the standard envelope; omit for latency alone.', example: 503 }),
      // JSON has no Infinity: a fault that stands until cleared is `times: Infinity` in JavaScript, `"times": null` in JSON.
      times: z
        .preprocess((v) => (v === Number.POSITIVE_INFINITY ? null : v), z.int({ error: TIMES }).min(1, { error: TIMES }).nullable())
        .transform((v) => v ?? Number.POSITIVE_INFINITY)
        .optional()
        .meta({ description: 'Calls it hits (default 1); null until cleared.' }),
      delayMs: z.number({ error: DELAY }).min(0, { error: DELAY }).optional().meta({ description: 'Hold each hit call this long first.' }),
      message: z.string({ error: 'message must be a string.' }).optional().meta({ description: "The envelope's message." }),
      code: z
        .string({ error: 'code must be a string.' })
        .optional()
        .meta({ description: "The envelope's code (default: the contract's code for the status)." }),
      retryAfter: z
        .number({ error: RETRY_AFTER })
        .min(0, { error: RETRY_AFTER })
        .optional()
        .meta({ description: 'Retry-After seconds, sent with any status (default: 0 on a 429 or 503, none on others). Needs a status.' }),
      network: z.boolean({ error: 'network must be true or false.' }).optional().meta({ description: 'Drop the connection instead of answering.' }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? unknownFields(issue.keys, FIELDS) : 'a fault is an object, e.g. { "operationId": "addOrder", "status": 503 }.',
    },
  )
  .refine((f) => f.status !== undefined || f.network === true || f.delayMs !== undefined, {
    error: 'give a status (an error answer), network: true (a dropped connection) or delayMs (latency).',
  })
  .refine((f) => f.retryAfter === undefined || (f.status !== undefined && f.network !== true), {
    error: 'retryAfter goes with an error answer: give a status too (a dropped connection, network: true, sends no answer to carry it).',
    path: ['retryAfter'],
  });

/**
 * `input` checked against `FaultBody`: the operation and the fault's options, or a TypeError that
 * says, after `prefix`, what is wrong and what to give instead.
 */
export function parseFault(input: unknown, prefix = ''): { operationId: OperationId; options: FaultOptions } {
  const { operationId, ...options } = parseControlBody(FaultBody, input, prefix);
  return { operationId, options };
}

/** The faults of one mock, in registration order; the oldest live fault of an operation hits first. */
export function createFaults() {
  let entries: Entry[] = [];
  return {
    get size() {
      return entries.length;
    },
    add(operationId: OperationId, options: FaultOptions): Fault {
      const entry: Entry = { operationId, options: { ...options }, hits: 0, remaining: options.times ?? 1 };
      entries.push(entry);
      return {
        operationId,
        options: entry.options,
        get hits() {
          return entry.hits;
        },
        get remaining() {
          return entry.remaining;
        },
        clear() {
          entry.remaining = 0;
          entries = entries.filter((e) => e !== entry);
        },
      };
    },
    /** Takes one hit of the first live fault of `operationId`, if any. */
    take(operationId: OperationId): FaultOptions | undefined {
      const entry = entries.find((e) => e.operationId === operationId);
      if (!entry) return undefined;
      entry.hits++;
      entry.remaining--;
      if (entry.remaining <= 0) entries = entries.filter((e) => e !== entry);
      return entry.options;
    },
    list() {
      return entries.map((e) => ({ operationId: e.operationId, ...e.options, hits: e.hits, remaining: e.remaining }));
    },
    clear() {
      for (const e of entries) e.remaining = 0;
      entries = [];
    },
  };
}

/** The code a fault's envelope carries. */
export function faultCode(options: FaultOptions): string {
  return options.code ?? (options.status ? errorCodes[options.status] : 'internal_error');
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first (what fetch does on abort). */
export function delay(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
