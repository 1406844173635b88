/**
 * The one place requests leave the SDK: per-attempt timeout, retries with backoff, `Retry-After`,
 * one `Idempotency-Key` for every attempt of a write, and the caller's AbortSignal.
 */
import { APIConnectionError, APITimeoutError, APIUserAbortError, EngageError } from '../errors.ts';
import type { Log } from './log.ts';
import { randomId } from './random-id.ts';
import { isRetryableStatus, retryDelay } from './retry.ts';

/**
 * What the SDK calls to send a request: `globalThis.fetch`, or anything called the way it is. The SDK
 * always passes the absolute URL and an init with `method`, `headers`, `body` and `signal`, fresh for
 * each attempt: a fetch may change them.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** How one call is sent. */
export interface SendOptions {
  fetch: FetchLike;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Milliseconds each attempt may take, answer body included. */
  timeout: number;
  signal?: AbortSignal | undefined;
  /** Sent as `Idempotency-Key` on every attempt of a non-GET request; generated when absent. */
  idempotencyKey?: string | undefined;
  /** The client's log; absent when logging is off. */
  log?: Log | undefined;
}

/** Time and chance, passed in so tests need neither real waiting nor luck. */
export interface TransportDeps {
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

/** Answers whose statuses forbid a body (a Response cannot carry a 1xx status at all). */
const NULL_BODY_STATUSES = [204, 205, 304];
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;

/** `setTimeout` that an AbortSignal, when given, cuts short (rejecting with the signal's reason). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const defaultDeps: TransportDeps = { sleep: abortableSleep, random: Math.random, now: Date.now };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function connectionDetail(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return errorText(err);
}

/** How the attempts of one call are run. */
interface RetryOptions {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Milliseconds each attempt may take, answer body included. */
  timeout: number;
  /** The caller's signal: aborting it stops the call and its retries. */
  signal?: AbortSignal | undefined;
  /** What the call is, e.g. `GET https://…`, for error and log messages (asked only when one is written). */
  describe(): string;
  /** The client's log; absent when logging is off. */
  log?: Log | undefined;
  /**
   * The error that ends the call at once when an attempt failed before its request was sent: it could
   * not be built (a query too nested to serialize, a header value with CR or LF), which no retry mends.
   * Undefined when the request went out.
   */
  unsent?(err: unknown): EngageError | undefined;
}

/** Why an attempt ended without an answer. */
const TIMED_OUT = Symbol('timed out');
const USER_ABORT = Symbol('aborted by the caller');

/** The log line of one attempt: the call, what came of it, which attempt, how long it took, and the request id. */
function attemptLine(call: string, attempt: number, ms: number, response: Response | undefined, failure: EngageError | undefined): string {
  const requestId = response?.headers.get('x-request-id');
  return `${call} ${response ? response.status : failure?.message} (attempt ${attempt}, ${ms} ms${requestId ? `, x-request-id ${requestId}` : ''})`;
}

/**
 * Starts the timer of an attempt's timeout, unreferenced where the runtime has `unref` (Node, Bun), as
 * `AbortSignal.timeout`'s is: while the request is in flight, its connection keeps the process alive.
 * On Node, setting and clearing a referenced timer costs more than an unreferenced one does when no
 * other timer of its duration is running (the `sdk.call.inprocess.vs-openapi-fetch` and
 * `sdk.call.inprocess` rows).
 */
export function attemptTimer(onTimeout: () => void, ms: number): ReturnType<typeof setTimeout> {
  const timer = setTimeout(onTimeout, Math.min(ms, MAX_TIMER_MS));
  (timer as { unref?: () => unknown }).unref?.();
  return timer;
}

/**
 * Runs `attempt` until it gives an answer that is not retried, making at most `maxRetries` retries after
 * connection errors, timeouts, 408, 429 and 5xx, with backoff between them. Each attempt gets a signal
 * that aborts at its timeout or when the caller's signal does, and ends as soon as either happens,
 * whether or not the attempt (a fetch that may ignore its signal) settles too. The attempt must have
 * read the answer's body before resolving, so the timeout covers it and a retried answer is drained.
 * Rejects with `APIConnectionError`, `APITimeoutError` or `APIUserAbortError` when no answer came, and
 * at once with any `EngageError` the attempt throws or `unsent` gives.
 *
 * An attempt costs an AbortController, a timer and the promise it is raced in; the caller's signal, when
 * there is one, gets one listener for the whole call (the `sdk.call.loopback.vs-openapi-fetch` row).
 */
async function retrying<T extends { response: Response }>(
  attempt: (signal: AbortSignal) => Promise<T>,
  options: RetryOptions,
  deps: TransportDeps = defaultDeps,
): Promise<T> {
  const { signal: user, log } = options;
  const abortError = () => new APIUserAbortError(`${options.describe()} was aborted by its AbortSignal`, { cause: user?.reason });
  // The attempt in flight, which the caller's signal stops; between attempts, the backoff's sleep ends
  // the call when the signal aborts.
  let inFlight: { controller: AbortController; reject(reason: unknown): void } | undefined;
  const onAbort = () => {
    inFlight?.controller.abort(user?.reason);
    inFlight?.reject(USER_ABORT);
  };
  user?.addEventListener('abort', onAbort, { once: true });
  try {
    for (let retry = 0; ; retry++) {
      if (user?.aborted) throw abortError();
      let result: T | undefined;
      let failure: EngageError | undefined;
      const started = log ? deps.now() : 0;
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        result = await new Promise<T>((resolve, reject) => {
          if (user) inFlight = { controller, reject };
          timer = attemptTimer(() => {
            controller.abort();
            reject(TIMED_OUT);
          }, options.timeout);
          attempt(controller.signal).then(resolve, reject);
        });
      } catch (err) {
        if (err === USER_ABORT || user?.aborted) throw abortError();
        // An EngageError from inside an attempt is a verdict, not a failed connection: it is final.
        if (err instanceof EngageError) throw err;
        const unsent = err === TIMED_OUT ? undefined : options.unsent?.(err);
        if (unsent) throw unsent;
        const what = options.describe();
        failure =
          err === TIMED_OUT
            ? new APITimeoutError(`${what} timed out after ${options.timeout} ms (the \`timeout\` option)`)
            : new APIConnectionError(`Could not reach the API: ${what} failed (${connectionDetail(err)}). Is the base URL right and the server up?`, {
                cause: err,
              });
      } finally {
        clearTimeout(timer);
        inFlight = undefined;
      }
      // Built only with logging on (the level was decided when the client was created). One line per
      // attempt, at the level of what came of it: debug when it ends the call well, warn when a retry
      // follows, error when the call failed for good. Headers are never logged.
      const line = log ? attemptLine(options.describe(), retry + 1, deps.now() - started, result?.response, failure) : '';
      if (result ? !(isRetryableStatus(result.response.status, result.response.headers) && retry < options.maxRetries) : retry >= options.maxRetries) {
        log?.(result?.response.ok ? 'debug' : 'error', line);
        if (failure) throw failure;
        return result as T;
      }
      const delay = retryDelay(retry, result?.response.headers, deps.random, deps.now());
      log?.('warn', `${line}; retrying in ${Math.round(delay)} ms`);
      try {
        await deps.sleep(delay, user);
      } catch {
        throw abortError();
      }
    }
  } finally {
    user?.removeEventListener('abort', onAbort);
  }
}

/** True for methods that change something, which carry an `Idempotency-Key`. */
const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/** A fresh `Idempotency-Key` for one write and its retries. */
const newIdempotencyKey = () => `engagekit-${randomId()}`;

/** The body of a request, to send on every attempt: JSON as text (as the resources have always sent it), anything else as bytes. */
async function replayableBody(request: Request): Promise<string | ArrayBuffer | undefined> {
  if (request.body === null) return undefined;
  return request.headers.get('content-type')?.includes('json') ? request.text() : request.arrayBuffer();
}

/**
 * The init of one attempt at `request`, as the SDK promises its fetch: `method`, the headers as a plain
 * object (lower-case names) with `idempotencyKey` unless one is there, the body, and the attempt's
 * `signal`; `redirect` only when it is not the default.
 */
function attemptInit(request: Request, body: string | ArrayBuffer | undefined, signal: AbortSignal, idempotencyKey: string | undefined): RequestInit {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  if (idempotencyKey !== undefined && headers['idempotency-key'] === undefined) headers['idempotency-key'] = idempotencyKey;
  const init: RequestInit = { method: request.method, headers, body, signal };
  if (request.redirect !== 'follow') init.redirect = request.redirect;
  return init;
}

/**
 * Runs an openapi-fetch call with `retrying`'s policy, the resource methods' transport: `call(fetch)`
 * makes the request (again for each retry) with `fetch` as openapi-fetch's `fetch`, which calls
 * `options.fetch(url, init)` with the attempt's signal and one `Idempotency-Key` for every attempt of a
 * write. The attempt is the whole call, so its timeout covers the answer's body, which openapi-fetch
 * reads. Benchmark rows `sdk.call.inprocess.vs-openapi-fetch` and `sdk.call.loopback`: the answer goes to
 * openapi-fetch as the fetch gave it and is read once, where `send` reads it, holds it in a new Response
 * and openapi-fetch reads that again.
 */
export function sendCall<T extends { response: Response }>(
  call: (fetch: (request: Request) => Promise<Response>) => Promise<T>,
  options: SendOptions,
  deps: TransportDeps = defaultDeps,
): Promise<T> {
  const { fetch } = options;
  let key = options.idempotencyKey;
  let last: Request | undefined;
  let sent = false;
  const attempt = (signal: AbortSignal) => {
    sent = false;
    return call((request) => {
      if (key === undefined && isWrite(request.method)) key = newIdempotencyKey();
      // Set on the Request, which refuses what fetch would (a key with CR or LF) before anything is sent.
      if (key !== undefined && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', key);
      sent = true;
      last = request;
      // A GET (most calls) has no body to wait for.
      if (request.body === null) return fetch(request.url, attemptInit(request, undefined, signal, key));
      return replayableBody(request).then((body) => fetch(request.url, attemptInit(request, body, signal, key)));
    });
  };
  const describe = () => (last ? `${last.method} ${last.url}` : 'the request');
  // openapi-fetch builds the request (its URL, query and headers) before it calls the attempt's fetch.
  const unsent = (err: unknown) => (sent ? undefined : new EngageError(`Could not build the request, so nothing was sent: ${errorText(err)}`, { cause: err }));
  return retrying(attempt, { maxRetries: options.maxRetries, timeout: options.timeout, signal: options.signal, log: options.log, describe, unsent }, deps);
}

/**
 * Sends `request` (what openapi-fetch built) through `options.fetch` with `retrying`'s policy: the
 * `fetch` option of the SDK's openapi-fetch clients, for the calls made on them directly (`client.api`).
 * Each attempt calls `options.fetch(url, init)` as `sendCall` does. Aborted by `options.signal` when
 * given, else by the request's own signal. Resolves to the last answer, its body read within the
 * attempt (so the timeout covers it) and held by a new Response for openapi-fetch to parse.
 */
export async function send(request: Request, options: SendOptions, deps: TransportDeps = defaultDeps): Promise<Response> {
  const { method, url } = request;
  const body = await replayableBody(request);
  const key = isWrite(method) ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined;
  const { response } = await retrying(
    async (signal) => {
      const res = await options.fetch(url, attemptInit(request, body, signal, key));
      const data = NULL_BODY_STATUSES.includes(res.status) ? null : await res.arrayBuffer();
      return { response: new Response(data, { status: res.status, statusText: res.statusText, headers: res.headers }) };
    },
    // The clients' `client.api` calls carry their signal on the request (openapi-fetch's `signal`).
    { ...options, signal: options.signal ?? request.signal, describe: () => `${method} ${url}` },
    deps,
  );
  return response;
}
