/**
 * The webhooks the emulator posts to the callback URL: each signed with the app secret
 * (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`), after the callback URL passed
 * the `hub.mode=subscribe` handshake, and retried by the retry schedule while it is not answered 200.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Settings } from './options.ts';

/** One try to post a webhook: when it began, when it ended, and the answer's status or what went wrong. */
export interface WebhookAttempt {
  startedAt: string;
  at: string;
  status: number | null;
  error?: string;
}

/** A webhook the emulator made: its payload, the raw body it signs, and its attempts. */
export interface WebhookPost {
  id: number;
  /** `messages` for a message status, `message_template_status_update` for a template's. */
  field: 'messages' | 'message_template_status_update';
  /** The message's wamid and status, for a status webhook. */
  wamid?: string;
  status?: string;
  /** The template's name and event, for a template webhook. */
  template?: string;
  event?: string;
  payload: unknown;
  body: string;
  /** `waiting` (due later), `in-flight`, `delivered` (answered 200), or `dropped` (no callback URL, or out of retries). */
  state: 'waiting' | 'in-flight' | 'delivered' | 'dropped';
  attempts: WebhookAttempt[];
}

/** What the outbox reads from the emulator. */
export interface OutboxDeps {
  settings(): Settings;
  appSecret: string;
  verifyToken: string;
  timeoutMs: number;
  /** How many posts to keep; the oldest finished ones go first. */
  historyLimit: number;
}

/** The signature header's value for `body` under `appSecret`. */
export function signBody(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** The webhooks posted and to post, and their timers. */
export class WebhookOutbox {
  readonly #posts: WebhookPost[] = [];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #verified = new Set<string>();
  #waiters: (() => void)[] = [];
  #generation = 0;
  #made = 0;
  #pending = 0;
  /** Each lane's last post, resolved once that post's first try is over. */
  readonly #lanes = new Map<string, Promise<void>>();
  /** Posts in flight, and the tries waiting for a slot (or for `holdWebhooks` to end). */
  #inFlight = 0;
  #waitingForSlot: (() => void)[] = [];

  private readonly deps: OutboxDeps;

  constructor(deps: OutboxDeps) {
    this.deps = deps;
  }

  /** Every webhook made, in the order made. */
  posts(): WebhookPost[] {
    return this.#posts;
  }

  /** How many webhooks wait for their time or are in flight. */
  pending(): number {
    return this.#pending;
  }

  /**
   * Posts `payload` after `delayMs`, recorded with `meta`; `onDue` runs when its time comes, before the
   * first try (a template's review changes its status then). Posts of one `lane` (a message's statuses,
   * a template's changes) make their first tries one after another, in the order scheduled, so that
   * their order is the one planned however slow the callback: disorder happens only when asked for.
   */
  schedule(
    payload: unknown,
    delayMs: number,
    meta: Pick<WebhookPost, 'field' | 'wamid' | 'status' | 'template' | 'event'>,
    options: { lane?: string; onDue?: () => void } = {},
  ): WebhookPost {
    const post: WebhookPost = { id: ++this.#made, ...meta, payload, body: JSON.stringify(payload), state: 'waiting', attempts: [] };
    this.#posts.push(post);
    this.#pending++;
    const { lane, onDue } = options;
    const previous = lane === undefined ? undefined : this.#lanes.get(lane);
    let firstTried = () => {};
    const tried = new Promise<void>((resolve) => {
      firstTried = resolve;
    });
    if (lane !== undefined) {
      this.#lanes.set(lane, tried);
      void tried.then(() => {
        if (this.#lanes.get(lane) === tried) this.#lanes.delete(lane);
      });
    }
    const generation = this.#generation;
    this.#after(delayMs, async () => {
      await previous;
      if (generation !== this.#generation) return;
      onDue?.();
      await this.#attempt(post);
      firstTried();
    });
    return post;
  }

  #after(ms: number, fn: () => Promise<void>): void {
    const generation = this.#generation;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (generation === this.#generation) void fn();
    }, ms);
    this.#timers.add(timer);
  }

  /** Resolves once a post may go: webhooks are not held and fewer than `webhookConcurrency` are in flight. */
  #slot(): Promise<void> {
    const { holdWebhooks, webhookConcurrency } = this.deps.settings();
    if (!holdWebhooks && this.#inFlight < webhookConcurrency) {
      this.#inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waitingForSlot.push(resolve));
  }

  /** Lets waiting tries go, as far as the settings allow. */
  settingsChanged(): void {
    const { holdWebhooks, webhookConcurrency } = this.deps.settings();
    while (!holdWebhooks && this.#inFlight < webhookConcurrency && this.#waitingForSlot.length > 0) {
      this.#inFlight++;
      this.#waitingForSlot.shift()?.();
    }
  }

  async #attempt(post: WebhookPost): Promise<void> {
    const generation = this.#generation;
    await this.#slot();
    if (generation !== this.#generation) return;
    const startedAt = new Date().toISOString();
    const url = this.deps.settings().callbackUrl;
    if (!url) {
      this.#inFlight--;
      this.settingsChanged();
      post.attempts.push({ startedAt, at: startedAt, status: null, error: 'no callback URL is set' });
      return this.#settle(post, 'dropped');
    }
    post.state = 'in-flight';
    const answer = await this.#send(url, post.body);
    // A reset while it was in flight forgot it, and its slot.
    if (generation !== this.#generation) return;
    this.#inFlight--;
    this.settingsChanged();
    post.attempts.push({ startedAt, at: new Date().toISOString(), ...answer });
    if (answer.status === 200) return this.#settle(post, 'delivered');
    const wait = this.deps.settings().retrySchedule[post.attempts.length - 1];
    if (wait === undefined) return this.#settle(post, 'dropped');
    post.state = 'waiting';
    this.#after(wait, () => this.#attempt(post));
  }

  async #send(url: string, body: string): Promise<{ status: number | null; error?: string }> {
    if (!this.#verified.has(url)) {
      const handshake = await this.verify(url);
      if (!handshake.ok) return { status: null, error: handshake.problem };
    }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(body, this.deps.appSecret) },
        body,
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return { status: res.status };
    } catch (e) {
      return { status: null, error: `the callback did not answer: ${(e as Error).message}` };
    }
  }

  /** The `hub.mode=subscribe` handshake with `url`: ok when it answers 200 with the challenge. */
  async verify(url: string): Promise<{ ok: true } | { ok: false; problem: string }> {
    const challenge = randomBytes(8).readUInt32BE(0).toString();
    const target = new URL(url);
    target.searchParams.set('hub.mode', 'subscribe');
    target.searchParams.set('hub.verify_token', this.deps.verifyToken);
    target.searchParams.set('hub.challenge', challenge);
    try {
      const res = await fetch(target, { signal: AbortSignal.timeout(this.deps.timeoutMs) });
      const text = (await res.text()).trim();
      if (res.status !== 200 || text !== challenge) {
        return {
          ok: false,
          problem: `the verification GET answered ${res.status} ${JSON.stringify(text.slice(0, 100))}, not 200 with the challenge ${challenge}`,
        };
      }
    } catch (e) {
      return { ok: false, problem: `the verification GET failed: ${(e as Error).message}` };
    }
    this.#verified.add(url);
    return { ok: true };
  }

  #settle(post: WebhookPost, state: 'delivered' | 'dropped'): void {
    post.state = state;
    this.#pending--;
    this.#trim();
    if (this.#pending > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Forgets the oldest finished posts while there are more than the history limit. */
  #trim(): void {
    let over = this.#posts.length - this.deps.historyLimit;
    for (let i = 0; over > 0 && i < this.#posts.length; ) {
      const state = this.#posts[i]?.state;
      if (state === 'delivered' || state === 'dropped') {
        this.#posts.splice(i, 1);
        over--;
      } else i++;
    }
  }

  /** Resolves true once no webhook waits or is in flight, false after `timeoutMs`. */
  quiet(timeoutMs: number): Promise<boolean> {
    if (this.pending() === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#waiters.push(wake);
    });
  }

  /** Forgets every webhook and stops their timers; posts in flight finish unrecorded. */
  reset(): void {
    this.#generation++;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#posts.length = 0;
    this.#pending = 0;
    this.#lanes.clear();
    this.#verified.clear();
    this.#inFlight = 0;
    this.#waitingForSlot = [];
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
