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

/** One `waitForWebhook()` that has not been answered yet. */
interface Waiter {
  match: (w: MockWebhook) => boolean;
  resolve: (w: MockWebhook) => void;
  reject: (e: Error) => void;
}

/** A copy of a webhook request, for a listener or the log: each can read its body. */
const copyOf = (request: Request, rawBody: string) => new Request(request.url, { method: request.method, headers: request.headers, body: rawBody });

/**
 * Records what the dispatcher sends, answers the in-process endpoint through the listeners, and
 * passes other URLs to the global fetch (looked up per call, so an MSW set up later sees them).
 * Record-only (`recordOnly`), it answers every URL as it answers the in-process endpoint: nothing is sent.
 */
export class WebhookSink {
  readonly listeners = new Set<WebhookListener>();
  readonly #recordOnly: boolean;
  #log: MockWebhook[] = [];
  #waiters: Waiter[] = [];
  #generation = 0;
  /** How many `onWebhook()` listeners the last reset or restore removed, until one is added again. */
  droppedByReset = 0;

  constructor(recordOnly = false) {
    this.#recordOnly = recordOnly;
  }

  get log(): readonly MockWebhook[] {
    return this.#log;
  }

  #record(webhook: MockWebhook) {
    this.#log.push(webhook);
    for (const w of this.#waiters.filter((w) => w.match(webhook))) {
      this.#waiters = this.#waiters.filter((x) => x !== w);
      w.resolve(webhook);
    }
  }

  async #notify(webhook: Omit<MockWebhook, 'request'>, request: Request, rawBody: string) {
    let answer: Response | undefined;
    for (const listener of [...this.listeners]) {
      const result = await listener({ ...webhook, request: copyOf(request, rawBody) });
      if (!answer && result instanceof Response) answer = result;
    }
    return answer;
  }

  /** A fetch for the dispatcher of one store generation: after a reset, a late attempt of the old one is dropped. */
  sender(forGeneration: number) {
    const live = () => forGeneration === this.#generation;
    return async (request: Request): Promise<Response> => {
      if (!live()) return new Response(null, { status: 200 });
      const rawBody = await request.clone().text();
      const headers: Record<string, string> = {};
      request.headers.forEach((v, k) => {
        headers[k] = v;
      });
      const base = { url: request.url, headers, rawBody, event: JSON.parse(rawBody) as WebhookEvent };
      if (request.url === MOCK_WEBHOOK_URL || this.#recordOnly) {
        let response: Response;
        let error: string | null = null;
        try {
          const answer = await this.#notify({ ...base, status: null, error: null }, request, rawBody);
          response = answer ?? new Response(null, { status: 200 });
        } catch (e) {
          error = `a webhook listener threw: ${(e as Error)?.message ?? String(e)}`;
          response = new Response(error, { status: 500 });
        }
        if (live()) this.#record({ ...base, request: copyOf(request, rawBody), status: response.status, error });
        return response;
      }
      try {
        const response = await globalThis.fetch(request);
        if (live()) {
          const webhook = { ...base, status: response.status, error: null };
          this.#record({ ...webhook, request: copyOf(request, rawBody) });
          await this.#notify(webhook, request, rawBody).catch(() => {});
        }
        return response;
      } catch (e) {
        if (live()) this.#record({ ...base, request: copyOf(request, rawBody), status: null, error: (e as Error)?.message ?? String(e) });
        throw e;
      }
    };
  }

  /** Starts a new store generation: forgets the log and fails pending waits. */
  nextGeneration(): number {
    this.#generation++;
    this.#log = [];
    const pending = this.#waiters;
    this.#waiters = [];
    for (const w of pending) w.reject(new Error('waitForWebhook(): the mock was reset while waiting'));
    return this.#generation;
  }

  /** Removes every listener but `keep` (the `webhooks.onWebhook` option's), counting those removed. */
  dropListeners(keep: WebhookListener | undefined): void {
    this.droppedByReset = [...this.listeners].filter((l) => l !== keep).length;
    this.listeners.clear();
    if (keep) this.listeners.add(keep);
  }

  clearLog() {
    this.#log = [];
  }

  /** The first logged webhook matching `predicate`, or the next one to arrive. */
  waitFor(predicate: (w: MockWebhook) => boolean = () => true, { timeoutMs = 5000 }: WaitForWebhookOptions = {}): Promise<MockWebhook> {
    const found = this.#log.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match: predicate,
        resolve: (w) => {
          clearTimeout(timer);
          resolve(w);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `waitForWebhook(): no matching webhook in ${timeoutMs} ms (${this.#log.length} sent so far). Did the call that emits it succeed, and is a webhook endpoint registered (the webhooks option or onWebhook())?`,
          ),
        );
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }
}

/** A new sink: see `WebhookSink`. `recordOnly`: every delivery is answered in the process, none sent. */
export const createWebhookSink = (recordOnly = false) => new WebhookSink(recordOnly);
