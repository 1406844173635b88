/**
 * The one place requests leave the SDK: per-attempt timeout, retries with backoff, `Retry-After`,
 * one `Idempotency-Key` for every attempt of a write, and the caller's AbortSignal.
 */
import { APIConnectionError, APITimeoutError, APIUserAbortError, type EngageError } from '../errors.ts';
import { randomId } from './random-id.ts';
import { isRetryableStatus, retryDelay } from './retry.ts';

/** What the SDK calls to send a request: `globalThis.fetch`, or anything that takes a Request. */
export type FetchLike = (request: Request) => Promise<Response>;

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
}

/** Time and chance, passed in so tests need neither real waiting nor luck. */
export interface TransportDeps {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
}

/** Answers whose statuses forbid a body. */
const NULL_BODY_STATUSES = [101, 103, 204, 205, 304];
/** setTimeout's largest delay. */
const MAX_TIMER_MS = 2_147_483_647;

/** `setTimeout` that an AbortSignal cuts short (rejecting with the signal's reason). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

const defaultDeps: TransportDeps = { sleep: abortableSleep, random: Math.random, now: Date.now };

const noop = () => {};

/** One signal that aborts when any of `signals` does (one signal is used as it is). */
function anySignal(signals: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  if (signals.length === 1) return { signal: signals[0] as AbortSignal, dispose: noop };
  const controller = new AbortController();
  const onAbort = (e: Event) => controller.abort((e.target as AbortSignal).reason);
  for (const s of signals) {
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', onAbort, { once: true });
  }
  const dispose = () => {
    for (const s of signals) s.removeEventListener('abort', onAbort);
  };
  return { signal: controller.signal, dispose };
}

/** Rejects as soon as `signal` aborts, whether or not `promise` (a fetch that may ignore signals) settles. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function connectionDetail(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Sends `request` through `options.fetch`, retrying connection errors, timeouts, 408, 429 and 5xx up to
 * `maxRetries` times. Resolves to the last answer (its body already read, so the timeout covers it);
 * rejects with `APIConnectionError`, `APITimeoutError` or `APIUserAbortError` when no answer came.
 */
export async function send(request: Request, options: SendOptions, deps: TransportDeps = defaultDeps): Promise<Response> {
  const { method, url } = request;
  // The request's own signal only matters when someone could abort it; openapi-fetch's default never does.
  const user = anySignal(options.signal ? [options.signal, request.signal] : [request.signal]);
  const abortError = () => new APIUserAbortError(`${method} ${url} was aborted by its AbortSignal`, { cause: user.signal.reason });
  try {
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    if (method !== 'GET' && method !== 'HEAD' && !headers.has('idempotency-key')) {
      headers.set('idempotency-key', options.idempotencyKey ?? `engagekit-${randomId()}`);
    }
    for (let retry = 0; ; retry++) {
      if (user.signal.aborted) throw abortError();
      const attempt = new AbortController();
      let timedOut = false;
      const timer = setTimeout(
        () => {
          timedOut = true;
          attempt.abort();
        },
        Math.min(options.timeout, MAX_TIMER_MS),
      );
      const link = anySignal([user.signal, attempt.signal]);
      let response: Response | undefined;
      let failure: EngageError | undefined;
      try {
        const exchange = async () => {
          const res = await options.fetch(new Request(url, { method, headers, body, signal: link.signal, redirect: request.redirect }));
          // Read the body here: the timeout then covers it, and an answer that is retried is drained.
          const data = NULL_BODY_STATUSES.includes(res.status) ? null : await res.arrayBuffer();
          return new Response(data, { status: res.status, statusText: res.statusText, headers: res.headers });
        };
        response = await raceAbort(exchange(), link.signal);
      } catch (err) {
        if (user.signal.aborted) throw abortError();
        failure = timedOut
          ? new APITimeoutError(`${method} ${url} timed out after ${options.timeout} ms (the \`timeout\` option)`, { cause: err })
          : new APIConnectionError(`Could not reach the API: ${method} ${url} failed (${connectionDetail(err)}). Is the base URL right and the server up?`, {
              cause: err,
            });
      } finally {
        clearTimeout(timer);
        link.dispose();
      }
      if (response && !(isRetryableStatus(response.status) && retry < options.maxRetries)) return response;
      if (failure && retry >= options.maxRetries) throw failure;
      try {
        await deps.sleep(retryDelay(retry, response?.headers, deps.random, deps.now()), user.signal);
      } catch {
        throw abortError();
      }
    }
  } finally {
    user.dispose();
  }
}
