import type { MockFetch } from '../mock-options.ts';

/** A URL with a scheme; anything else `mock.fetch` takes as a path under the base URL. */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** The mock as `mock.fetch` calls it: a request, and the signal to follow when it is not the request's own. */
type Handle = (request: Request, signal?: AbortSignal) => Promise<Response>;

/**
 * `mock.fetch`: a fetch function that makes a Request of `input` and `init` and hands it to the mock.
 * A path alone is taken under `baseUrl`. It follows the caller's signal (the init's, else the given
 * Request's) as fetch does: an aborted signal sends nothing, and an abort while the mock works rejects
 * at once with its reason (the mock finishes the request, as a server does when its client hangs up).
 */
export function createMockFetch(baseUrl: string, handle: Handle): MockFetch {
  return async (input, init) => {
    if (typeof input === 'string' && !ABSOLUTE.test(input)) input = `${baseUrl}${input.startsWith('/') ? '' : '/'}${input}`;
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (!signal) return handle(new Request(input, init));
    if (signal.aborted) throw signal.reason;
    return untilAborted(handle(requestWithoutSignal(input, init), signal), signal);
  };
}

/**
 * The Request `mock.fetch` hands the mock: `input` and `init` without the caller's signal, which the
 * app never reads and the mock follows itself (`untilAborted`, and a fault's delay). A Request made to
 * follow a signal costs undici a listener on it, a weak reference and a finalization-registry entry,
 * on every SDK call through `mock.fetch` (benchmark row mock.inprocess.vs-prism).
 */
export function requestWithoutSignal(input: string | URL | Request, init: RequestInit | undefined): Request {
  return new Request(input, { ...init, signal: null });
}

/** `answer`, or a rejection with the signal's reason as soon as it aborts, whichever comes first. */
function untilAborted(answer: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
