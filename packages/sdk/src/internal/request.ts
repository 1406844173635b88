/** Sends resource calls (one fetch an attempt) and turns their answers into data or typed errors; gives the low-level clients their transport. */
import type { RawResult } from '../api-promise.ts';
import { APIError, EngageError } from '../errors.ts';
import type { OperationId } from '../types.ts';
import type { Log } from './log.ts';
import { type FetchLike, isWrite, newIdempotencyKey, retrying, type SendOptions } from './transport.ts';

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

/** A value of a query parameter; `undefined` and `null` leave the parameter out. */
type QueryValue = string | number | boolean | null | undefined;

/** One resource call, as the resources describe it. */
export interface CallSpec {
  /** The contract's operationId, e.g. `getCampaign`. */
  operationId: OperationId;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `orders` for the order paths (sent to `orderBaseUrl`); the rest go to `baseUrl` (`agency`, the default). */
  surface?: 'agency' | 'orders';
  /** The path with its parameters in place, e.g. `/agency/getCampaign/cmp_1` (see `pathParam`). */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  body?: unknown;
}

/** RFC 3986's unreserved characters, which `encodeURIComponent` gives back as they are. */
const UNRESERVED = /^[\w.~-]*$/;

/**
 * `encodeURIComponent(value)`, without the call for a value it would give back unchanged: ids, UUIDs
 * and numbers, the path parameters and query values of nearly every call (benchmark row
 * `sdk.call.inprocess`).
 */
export function encodeComponent(value: string): string {
  return UNRESERVED.test(value) ? value : encodeURIComponent(value);
}

/** A path parameter, encoded for its place in a path. */
export const pathParam = encodeComponent;

/** `?a=1&b=x` from the parameters that have a value (form style, as the contract declares them). */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  let out = '';
  if (query) {
    for (const key in query) {
      const value = query[key];
      if (value === undefined || value === null) continue;
      out += `${out ? '&' : '?'}${encodeComponent(key)}=${encodeComponent(String(value))}`;
    }
  }
  return out;
}

/** Reads an error answer's body: its JSON, else its text, else `undefined`. */
function errorBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The client's request plumbing, shared by its resources and its low-level clients. */
export interface Requester {
  /**
   * How a low-level openapi-fetch client sends a request with these options (`send` of transport.ts): the
   * client's fetch, looked up now, its retries, timeout and log.
   */
  sendOptions(options: RequestOptions | undefined): SendOptions;
  /**
   * Sends one resource call: one fetch per attempt (the URL and an init), retried and timed out
   * as the options say. Resolves to the parsed body of a successful answer; rejects with the `APIError`
   * subclass of an error status. With `unwrap`, resolves to the envelope's `data` (what single-resource
   * methods return).
   */
  call<D>(spec: CallSpec, options: RequestOptions | undefined, unwrap?: boolean): Promise<RawResult<D>>;
}

/** What the client's settings give the request plumbing. */
export interface RequesterConfig {
  baseUrl: string;
  orderBaseUrl: string;
  /** Headers of every request, `authorization` included. */
  headers: Record<string, string>;
  fetch: FetchLike | undefined;
  maxRetries: number;
  timeout: number;
  validateResponse: ResponseValidator | undefined;
  /** Absent when logging is off. */
  log: Log | undefined;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** Creates the request plumbing from the client's settings. */
export function createRequester(config: RequesterConfig): Requester {
  // Looked up per call: a fetch installed after createClient (MSW, a test double) is used.
  const currentFetch = (): FetchLike => config.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const bases = { agency: withoutTrailingSlash(config.baseUrl), orders: withoutTrailingSlash(config.orderBaseUrl) };
  // Lower-cased once, so a call's headers replace the client's whatever their case.
  const baseHeaders: Record<string, string> = Object.fromEntries(new Headers(config.headers));
  const jsonHeaders: Record<string, string> = { 'content-type': 'application/json', ...baseHeaders };

  /** The headers of one call: the client's, a body's content type, the call's own, and a write's key. */
  const headersFor = (spec: CallSpec, options: RequestOptions | undefined): Record<string, string> => {
    const write = isWrite(spec.method);
    if (!write && !options?.headers) return baseHeaders;
    const headers = { ...(spec.body === undefined ? baseHeaders : jsonHeaders) };
    if (options?.headers) for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
    if (write && headers['idempotency-key'] === undefined) headers['idempotency-key'] = options?.idempotencyKey ?? newIdempotencyKey();
    return headers;
  };

  return {
    sendOptions(options) {
      if (options) checkLimits('request options', options);
      return {
        fetch: currentFetch(),
        maxRetries: options?.maxRetries ?? config.maxRetries,
        timeout: options?.timeout ?? config.timeout,
        signal: options?.signal,
        idempotencyKey: options?.idempotencyKey,
        log: config.log,
      };
    },
    async call<D>(spec: CallSpec, options: RequestOptions | undefined, unwrap = false): Promise<RawResult<D>> {
      if (options) checkLimits('request options', options);
      const { operationId, method } = spec;
      const url = bases[spec.surface ?? 'agency'] + spec.path + queryString(spec.query);
      const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
      const headers = headersFor(spec, options);
      const fetch = currentFetch();
      const { response, text } = await retrying(
        async (signal) => {
          // The URL and an init, as fetch is called: a Request that follows a signal costs undici more than a call's own work.
          const response = await fetch(url, { method, headers: { ...headers }, body, signal });
          return { response, text: await response.text() };
        },
        {
          maxRetries: options?.maxRetries ?? config.maxRetries,
          timeout: options?.timeout ?? config.timeout,
          signal: options?.signal,
          describe: () => `${method} ${url}`,
          log: config.log,
        },
      );
      if (!response.ok) throw APIError.from(response.status, errorBody(text), response.headers);
      let data: D;
      try {
        data = JSON.parse(text);
      } catch (err) {
        // A proxy's HTML page, or an empty answer: not the API.
        throw new EngageError(`The answer to ${operationId} is not JSON: is baseUrl the engagekit API?`, { cause: err });
      }
      if (config.validateResponse) await config.validateResponse({ operationId, status: response.status, body: data });
      return { data: unwrap ? (data as { data: D }).data : data, response };
    },
  };
}
