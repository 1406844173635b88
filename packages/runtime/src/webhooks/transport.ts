/** One webhook POST, as the dispatcher hands it to a transport. */
export interface WebhookPost {
  url: string;
  /** Every header to send but `content-length`, which the transport sets. */
  headers: Record<string, string>;
  body: string;
  /** Time allowed for the answer, its body excerpt included. */
  timeoutMs: number;
  /** The W3C `traceparent` of the request that queued the delivery, when it was kept (`DeliveryRecord.trace_context`). */
  traceContext?: string;
}

/** What the receiver answered: its status, its Retry-After header and the start of its body. */
export interface WebhookAnswer {
  status: number;
  retryAfter: string | null;
  /** The first EXCERPT_BYTES of the body as text; null when it could not be read. */
  excerpt: string | null;
}

/**
 * Sends one webhook POST, never following a redirect (a 3xx is the answer). Rejects with an error
 * named `TimeoutError` when no answer comes within `timeoutMs`, with one named `WebhookTargetError`
 * when it refuses the address it would connect to, and with the connection's own error when it cannot
 * connect.
 */
export type WebhookTransport = ((post: WebhookPost) => Promise<WebhookAnswer>) & {
  /**
   * True when the transport checks every address it connects to, in its connections' own DNS lookup
   * (createNodeTransport): the dispatcher then resolves nothing itself, so no host is resolved twice
   * and the address checked is the address connected to.
   */
  readonly checksAddresses?: boolean;
};

/** How much of a receiver's answer is kept with the attempt. */
export const EXCERPT_BYTES = 512;

/** Reads at most `max` bytes of a response body as text; null when the body cannot be read. */
async function excerpt(res: Response, max = EXCERPT_BYTES): Promise<string | null> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = res.body.getReader();
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
    await reader.cancel().catch(() => {});
  } catch {
    return null;
  }
  const all = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, Math.min(c.byteLength, all.byteLength - at));
    all.set(part, at);
    at += part.byteLength;
    if (at >= all.byteLength) break;
  }
  return new TextDecoder().decode(all);
}

/**
 * A transport over a `fetch(Request)`: the global fetch by default, or the mock's own (it runs in
 * browsers and service workers too).
 *
 * @example
 * const transport = fetchTransport((request) => fetch(request));
 */
export function fetchTransport(send: (request: Request) => Promise<Response>): WebhookTransport {
  return async ({ url, headers, body, timeoutMs }) => {
    const res = await send(new Request(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) }));
    return { status: res.status, retryAfter: res.headers.get('retry-after'), excerpt: await excerpt(res) };
  };
}
