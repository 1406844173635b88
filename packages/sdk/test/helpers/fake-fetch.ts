/** A fetch double for behaviour tests: it records every request and answers from a handler. Never a global. */

/** One request as the fake saw it. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
  signal: AbortSignal;
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The error envelope the API answers with. */
export function apiError(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return json(status, { success: false, message, code, requestId: `req_${status}`, ...extra }, { 'x-request-id': `req_${status}`, ...headers });
}

/**
 * A fetch that records requests and lets `handler` answer; `handler` gets the request and its 1-based
 * number. Throwing from the handler is a connection error.
 */
export function fakeFetch(handler: (req: SeenRequest, n: number) => Response | Promise<Response>) {
  const calls: SeenRequest[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    // Recorded before any await, so a request counts from the moment it is sent.
    const seen = { method: request.method, url: new URL(request.url), headers: request.headers, body: '', signal: request.signal };
    calls.push(seen);
    const n = calls.length;
    seen.body = await request.text();
    return handler(seen, n);
  };
  return { fetch, calls };
}

/** A fetch that answers only when its request is aborted: then it rejects the way fetch does. */
export function hangingFetch() {
  let count = 0;
  const fetch = (_url: string, init: RequestInit): Promise<Response> => {
    count++;
    return new Promise((_, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')), { once: true });
    });
  };
  return { fetch, count: () => count };
}
