/** The options every call takes, and the check of what answers. */
import { EngageError } from '../errors.ts';
import type { OperationId } from '../types.ts';

/** Options every method takes last, overriding the client's for one call. */
export interface RequestOptions {
  /** Milliseconds each attempt may take (the client's `timeout` by default). */
  timeout?: number;
  /** Retries after the first attempt (the client's `maxRetries` by default). */
  maxRetries?: number;
  /** Aborts the call (and its retries); it then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** The `Idempotency-Key` of a write; by default one is generated per call and reused by its retries. */
  idempotencyKey?: string;
}

/** A successful answer, handed to `ClientOptions.validateResponse`. */
export interface ValidatedAnswer {
  /** The contract's operationId, e.g. `createCampaign`. */
  operationId: OperationId;
  /** The HTTP status. */
  status: number;
  /** The whole parsed body (the envelope, not only `data`). */
  body: unknown;
}

/** Checks a successful answer; throwing rejects the call with what it threw. */
export type ResponseValidator = (answer: ValidatedAnswer) => void | Promise<void>;

/** Checks `maxRetries` and `timeout`, wherever they were given. */
export function checkLimits(where: string, o: { maxRetries?: number | undefined; timeout?: number | undefined }): void {
  if (o.maxRetries !== undefined && !(Number.isInteger(o.maxRetries) && o.maxRetries >= 0)) {
    throw new EngageError(`${where}: maxRetries must be a whole number >= 0 (got ${o.maxRetries})`);
  }
  if (o.timeout !== undefined && !(typeof o.timeout === 'number' && o.timeout > 0)) {
    throw new EngageError(`${where}: timeout must be a number of milliseconds > 0 (got ${o.timeout})`);
  }
}
