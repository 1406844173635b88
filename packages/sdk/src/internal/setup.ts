/**
 * What `createClient` and `createAdminClient` share: their option checks, and the openapi-fetch clients
 * every call goes through (the resources' and `client.api`'s alike).
 */
import createFetchClient from 'openapi-fetch';
import { EngageError } from '../errors.ts';
import type { paths } from '../types.ts';
import type { ApiClient } from './api-client.ts';
import { createLog, type Logger, type LogLevel } from './log.ts';
import { checkLimits, type RequestOptions, type ResponseValidator } from './request.ts';
import { type FetchLike, type SendOptions, send, sendCall } from './transport.ts';

/** The options both clients take. */
interface TransportOptions {
  baseUrl: string;
  fetch?: FetchLike | undefined;
  maxRetries?: number | undefined;
  timeout?: number | undefined;
  headers?: Record<string, string> | undefined;
  validateResponse?: ResponseValidator | undefined;
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
}

/**
 * What a resource call hands openapi-fetch beside its path, parameters and body: the call's own headers,
 * the fetch of one attempt, and `parseAs: 'text'`: the SDK parses the answer's JSON itself (see `answer`).
 */
export interface CallInit {
  headers: Record<string, string> | undefined;
  fetch: (request: Request) => Promise<Response>;
  parseAs: 'text';
}

/** One openapi-fetch call of a resource method, made with `init`: made again for each retry. */
export type Call<T extends { response: Response }> = (init: CallInit) => Promise<T>;

/** The clients' plumbing, shared by their resources and their low-level clients. */
export interface Transport {
  /**
   * An openapi-fetch client on `baseUrl` sending the client's headers. A request made on it directly
   * (`client.api`) goes through `send` (retries, timeout, idempotency key, log) and the client's fetch,
   * looked up per request; a resource call gives openapi-fetch the fetch of its attempt instead.
   */
  client(baseUrl: string): ApiClient;
  /**
   * Sends a resource call with its request options: its headers, timeout, retries, signal and
   * idempotency key (see `sendCall`). Throws on a bad option.
   */
  send<T extends { response: Response }>(options: RequestOptions | undefined, call: Call<T>): Promise<T>;
  /** Checks every successful answer of a resource method. */
  validateResponse: ResponseValidator | undefined;
}

/** Throws an `EngageError` naming `where` unless `ok`. */
export function check(where: string, ok: boolean, message: string): void {
  if (!ok) throw new EngageError(`${where}: ${message}`);
}

/** Whether `url` is an absolute http(s) URL. */
export function isAbsoluteUrl(url: unknown): boolean {
  try {
    return typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The fetch of the moment: a fetch installed after the client was made (MSW, a test double) is used. */
const globalFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** Checks the shared options and builds the plumbing: every request carries `Authorization: Bearer <token>`. */
export function createTransport(where: string, options: TransportOptions, token: string): Transport {
  check(
    where,
    isAbsoluteUrl(options.baseUrl),
    `baseUrl must be an absolute http(s) URL such as https://api.example.com (got ${JSON.stringify(options.baseUrl)})`,
  );
  check(where, options.fetch === undefined || typeof options.fetch === 'function', 'fetch must be a function called as fetch(url, init)');
  checkLimits(where, options);
  const headers = { ...options.headers, authorization: `Bearer ${token}` };
  const maxRetries = options.maxRetries ?? 2;
  const timeout = options.timeout ?? 60_000;
  const log = createLog(options.logLevel, options.logger);
  // Made once per client: a call without request options (most calls) is sent with these as they are.
  const defaults: SendOptions = { fetch: options.fetch ?? globalFetch, maxRetries, timeout, log };
  const sendOptions = (o: RequestOptions): SendOptions => ({
    ...defaults,
    maxRetries: o.maxRetries ?? maxRetries,
    timeout: o.timeout ?? timeout,
    signal: o.signal,
    idempotencyKey: o.idempotencyKey,
  });
  const fetch = (request: Request) => send(request, defaults);
  return {
    client: (baseUrl) => createFetchClient<paths, 'application/json'>({ baseUrl, headers, fetch }),
    send(o, call) {
      if (o) checkLimits('request options', o);
      const callHeaders = o?.headers;
      return sendCall((attempt) => call({ headers: callHeaders, fetch: attempt, parseAs: 'text' }), o ? sendOptions(o) : defaults);
    },
    validateResponse: options.validateResponse,
  };
}
