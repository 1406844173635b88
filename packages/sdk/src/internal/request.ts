/** Turns openapi-fetch results into resolved data or typed errors, and hands each call its transport. */
import type { RawResult } from '../api-promise.ts';
import { APIError, EngageError } from '../errors.ts';
import type { OperationId } from '../types.ts';
import { type FetchLike, send } from './transport.ts';

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

/** What openapi-fetch resolves to. */
interface FetchResult<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The client's request plumbing, shared by its resources and its low-level clients. */
export interface Requester {
  /** The fetch openapi-fetch should use for a call with these options. */
  fetchFor(options: RequestOptions | undefined): FetchLike;
  /** Resolves to the data of a successful answer; rejects with the `APIError` subclass of an error status. */
  run<D>(operationId: OperationId, result: Promise<FetchResult<D>>): Promise<RawResult<D>>;
}

/** Creates the request plumbing from the client's settings. */
export function createRequester(config: {
  fetch: FetchLike | undefined;
  maxRetries: number;
  timeout: number;
  validateResponse: ResponseValidator | undefined;
}): Requester {
  return {
    fetchFor(options) {
      if (options) checkLimits('request options', options);
      return (request) =>
        send(request, {
          // Looked up per call: a fetch installed after createClient (MSW, a test double) is used.
          fetch: config.fetch ?? ((r) => globalThis.fetch(r)),
          maxRetries: options?.maxRetries ?? config.maxRetries,
          timeout: options?.timeout ?? config.timeout,
          signal: options?.signal,
          idempotencyKey: options?.idempotencyKey,
        });
    },
    async run(operationId, result) {
      const { data, error, response } = await result.catch((err: unknown) => {
        // openapi-fetch parses success bodies as JSON; a proxy's HTML page fails there.
        if (err instanceof SyntaxError) throw new EngageError(`The answer to ${operationId} is not JSON: is baseUrl the engagekit API?`, { cause: err });
        throw err;
      });
      if (!response.ok) throw APIError.from(response.status, error, response.headers);
      await config.validateResponse?.({ operationId, status: response.status, body: data });
      return { data: data as NonNullable<typeof data>, response };
    },
  };
}
