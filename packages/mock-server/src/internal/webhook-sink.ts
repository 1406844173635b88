import type { WebhookEvent } from '@engagekit/contract';

/**
 * The signing secret of the webhook endpoint the mock registers for you (`webhooks` option or
 * `onWebhook()`), unless you pass your own. Verify with it: `verifyWebhook(rawBody, headers, MOCK_WEBHOOK_SECRET)`.
 */
export const MOCK_WEBHOOK_SECRET = 'whsec_ZW5nYWdla2l0LW1vY2std2ViaG9va3Mh';

/** Where the mock's in-process endpoint points: `.invalid` never resolves, the mock answers it itself. */
export const MOCK_WEBHOOK_URL = 'http://webhooks.engagekit-mock.invalid/receive';

/** One webhook request the mock sent: signed exactly as the reference server signs (Standard Webhooks). */
export interface MockWebhook {
  /** The signed request as sent; each listener gets its own copy, so its body can be read. */
  request: Request;
  url: string;
  /** The request headers, lower-case: `webhook-id`, `webhook-timestamp`, `webhook-signature`, `content-type`, `user-agent`. */
  headers: Record<string, string>;
  /** The body exactly as signed: verify this, not a re-serialised `event`. */
  rawBody: string;
  /** The parsed event: `{ id, type, created_at, data: { order } }`. */
  event: WebhookEvent;
  /** The receiver's status, or null when no answer came (and, for listeners of the in-process endpoint, who are the receiver). */
  status: number | null;
  /** Why no answer came (connection error, a listener that threw), else null. */
  error: string | null;
}

/**
 * Called with every webhook the mock sends. For the mock's in-process endpoint the listener is the
 * receiver: return (or resolve to) a Response to answer with it, e.g. `new Response(null, { status: 500 })`
 * to see the mock retry on its fast schedule; any other return value answers 200, and throwing answers
 * 500. For other URLs the real receiver answers and the return value is ignored.
 */
export type WebhookListener = (webhook: MockWebhook) => unknown;

/** Options of `waitForWebhook`. */
export interface WaitForWebhookOptions {
  /** Default 5000. */
  timeoutMs?: number;
}

/**
 * Records what the dispatcher sends, answers the in-process endpoint through the listeners, and
 * passes other URLs to the global fetch (looked up per call, so an MSW set up later sees them).
 */
export function createWebhookSink() {
  const listeners = new Set<WebhookListener>();
  let log: MockWebhook[] = [];
  let waiters: { match: (w: MockWebhook) => boolean; resolve: (w: MockWebhook) => void; reject: (e: Error) => void }[] = [];
  let generation = 0;

  function record(webhook: MockWebhook) {
    log.push(webhook);
    for (const w of waiters.filter((w) => w.match(webhook))) {
      waiters = waiters.filter((x) => x !== w);
      w.resolve(webhook);
    }
  }

  const copy = (request: Request, rawBody: string) => new Request(request.url, { method: request.method, headers: request.headers, body: rawBody });

  async function notify(webhook: Omit<MockWebhook, 'request'>, request: Request, rawBody: string) {
    let answer: Response | undefined;
    for (const listener of [...listeners]) {
      const result = await listener({ ...webhook, request: copy(request, rawBody) });
      if (!answer && result instanceof Response) answer = result;
    }
    return answer;
  }

  return {
    listeners,
    get log(): readonly MockWebhook[] {
      return log;
    },
    /** A fetch for the dispatcher of one store generation: after a reset, a late attempt of the old one is dropped. */
    sender(forGeneration: number) {
      return async (request: Request): Promise<Response> => {
        if (forGeneration !== generation) return new Response(null, { status: 200 });
        const rawBody = await request.clone().text();
        const headers: Record<string, string> = {};
        request.headers.forEach((v, k) => {
          headers[k] = v;
        });
        const base = { url: request.url, headers, rawBody, event: JSON.parse(rawBody) as WebhookEvent };
        if (request.url === MOCK_WEBHOOK_URL) {
          let response: Response;
          let error: string | null = null;
          try {
            const answer = await notify({ ...base, status: null, error: null }, request, rawBody);
            response = answer ?? new Response(null, { status: 200 });
          } catch (e) {
            error = `a webhook listener threw: ${(e as Error)?.message ?? String(e)}`;
            response = new Response(error, { status: 500 });
          }
          if (forGeneration === generation) record({ ...base, request: copy(request, rawBody), status: response.status, error });
          return response;
        }
        try {
          const response = await globalThis.fetch(request);
          if (forGeneration === generation) {
            const webhook = { ...base, status: response.status, error: null };
            record({ ...webhook, request: copy(request, rawBody) });
            await notify(webhook, request, rawBody).catch(() => {});
          }
          return response;
        } catch (e) {
          if (forGeneration === generation) record({ ...base, request: copy(request, rawBody), status: null, error: (e as Error)?.message ?? String(e) });
          throw e;
        }
      };
    },
    /** Starts a new store generation: forgets the log and fails pending waits. */
    nextGeneration(): number {
      generation++;
      log = [];
      const pending = waiters;
      waiters = [];
      for (const w of pending) w.reject(new Error('waitForWebhook(): the mock was reset while waiting'));
      return generation;
    },
    clearLog() {
      log = [];
    },
    /** The first logged webhook matching `predicate`, or the next one to arrive. */
    waitFor(predicate: (w: MockWebhook) => boolean = () => true, { timeoutMs = 5000 }: WaitForWebhookOptions = {}): Promise<MockWebhook> {
      const found = log.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          match: predicate,
          resolve: (w: MockWebhook) => {
            clearTimeout(timer);
            resolve(w);
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(
            new Error(
              `waitForWebhook(): no matching webhook in ${timeoutMs} ms (${log.length} sent so far). Did the call that emits it succeed, and is a webhook endpoint registered (the webhooks option or onWebhook())?`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}

export type WebhookSink = ReturnType<typeof createWebhookSink>;
