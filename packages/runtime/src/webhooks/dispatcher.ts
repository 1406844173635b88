import { type Clock, systemClock } from '../clock.ts';
import type { HostResolver } from '../context.ts';
import { webhookTargetProblem } from '../domain/webhook-target.ts';
import { createLeases, type Leases } from '../leases.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { RuntimeObserver } from '../observer.ts';
import type { Store } from '../store/ports.ts';
import type { AttemptOutcome, ClaimedDelivery, DeliveryRecord, DeliveryTaker } from '../store/types.ts';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, parseRetryAfter } from './retry.ts';
import { signedHeaders } from './sign.ts';
import { fetchTransport, type WebhookTransport } from './transport.ts';

/** Options of the webhook dispatcher; every one has a default but the store. */
export interface DispatcherOptions {
  store: Store;
  clock?: Clock;
  logger?: Logger;
  /** Seconds before each attempt; its length is the number of attempts. Default: DEFAULT_RETRY_SCHEDULE. */
  retrySchedule?: number[];
  /** Allow loopback and private targets (tests, development). Default false. */
  allowPrivate?: boolean;
  /**
   * Resolves target hosts before each attempt, to refuse private addresses again at delivery time (DNS
   * can change), for a transport that cannot check the address it connects to (fetch). Unused with a
   * transport that checks them itself (`checksAddresses`, as createNodeTransport does).
   */
  resolveHost?: HostResolver | undefined;
  /** How attempts are sent, when no `transport` is given. Default: the global fetch. The mock passes its own. */
  fetch?: (request: Request) => Promise<Response>;
  /** How attempts are sent; wins over `fetch`. The server on Node passes `createNodeTransport()`. Default: `fetchTransport(fetch)`. */
  transport?: WebhookTransport;
  /** Attempts waiting for an answer at once. Default 64; up to 4 x as many deliveries are claimed ahead of sending. */
  concurrency?: number;
  /**
   * Attempts to one endpoint waiting for an answer at once, so that a receiver that answers slowly or
   * never holds more of the slots than this. Default `DEFAULT_ENDPOINT_CONCURRENCY` (4). An endpoint
   * whose receiver answers 2xx within a second gets one more after each such answer, up to its
   * company's `companyConcurrency`, and this again after any other answer (see `answeredQuickly`).
   * Claims take at most half the window (2 x `concurrency`) of one endpoint's, or one company's,
   * deliveries, counting those every instance holds.
   */
  endpointConcurrency?: number;
  /**
   * Attempts to one company's endpoints waiting for an answer at once, so that a company's many slow
   * endpoints leave the other companies most slots. Default: a quarter of `concurrency`, at least
   * `endpointConcurrency`.
   */
  companyConcurrency?: number;
  /** Time allowed for one attempt. Default 15 s. */
  attemptTimeoutMs?: number;
  /**
   * The instance's leases, which the deliveries it claims are held under and renewed with while their
   * attempts run. Default: leases of its own (renewed while it runs).
   */
  leases?: Leases;
  /** The longest it sleeps without a wake-up. Default 1 s. */
  pollIntervalMs?: number;
  /**
   * Record attempts that finish in the same moment with one write (default true, for a database); false
   * records each as soon as it finishes, so a caller who saw a delivery arrive sees its record at once (the mock).
   */
  batchWrites?: boolean;
  /** Spread of retry delays, a fraction. Default 0.1. */
  jitter?: number;
  random?: () => number;
  /** Hears of each attempt (`webhookAttempt`) and of deliveries taken over from a dead instance (`takenOver`). */
  observer?: RuntimeObserver | undefined;
}

/** The dispatcher: claims due deliveries, signs and sends them, records each attempt and schedules retries. */
export interface Dispatcher {
  start(): Promise<void>;
  /** Stops claiming, waits for attempts in flight (up to `graceMs`), releases its subscription. */
  stop(graceMs?: number): Promise<void>;
  /** Looks for due work now (after a write queued some). */
  wake(): void;
  /**
   * Sends every delivery due now and waits for those attempts, and any already in flight, to be
   * recorded; resolves once nothing due now is left to send. For a clock that moves only when told
   * (the mock's manual clock), where no timer brings due work.
   */
  settle(): Promise<void>;
  /** Attempts this instance has waiting for an answer now. */
  readonly inFlight: number;
}

/** The default of `endpointConcurrency`: attempts to one endpoint in flight at once. */
export const DEFAULT_ENDPOINT_CONCURRENCY = 4;

/** An answer within this is quick: it lets an endpoint have one more attempt in flight (see answeredQuickly). */
const QUICK_ANSWER_MS = 1000;

/**
 * How many attempts an endpoint may have in flight after one is answered: one more after a quick 2xx,
 * up to `ceiling` (its company's share), so that a receiver that keeps up gets the slots it can use
 * (the webhooks.delivery.rate row: one endpoint, thousands due); back to `floor`
 * (`endpointConcurrency`) after a slow answer, an error or no answer, so a slow receiver holds no more.
 */
export function answeredQuickly(limit: number, quickly: boolean, { floor, ceiling }: { floor: number; ceiling: number }): number {
  return quickly ? Math.min(Math.max(floor, ceiling), limit + 1) : floor;
}

/** Runs `f` after the I/O already queued (setImmediate in Node; a timer where there is none, as in browsers). */
const soon: (f: () => void) => void = typeof setImmediate === 'function' ? (f) => setImmediate(f) : (f) => setTimeout(f, 0);

/**
 * Whether the dispatcher claims now, given `room` free places of the `window` of deliveries it may hold.
 * News (work queued, a due time reached, a start) claims with any free place. Otherwise it refills in
 * batches, once half the window is free, and only while the last claim filled every free place (more
 * may be due): one claim per finished attempt would cost a statement per delivery.
 */
export function shouldClaim(s: { room: number; window: number; news: boolean; backlog: boolean }): boolean {
  if (s.room <= 0) return false;
  return s.news || (s.backlog && s.room >= Math.ceil(s.window / 2));
}

/**
 * Creates the webhook dispatcher over a store. Several dispatchers (one per server instance) may share
 * one PostgreSQL: claims never overlap, and a dispatcher that dies leaves its claims to expire.
 *
 * @example
 * const dispatcher = createDispatcher({ store, retrySchedule: [0, 5, 300] });
 * await dispatcher.start();
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new WebhookDispatcher(options);
}

/** Adds one to `key`'s count. */
function countUp(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Takes one from `key`'s count, forgetting the key at zero. */
function countDown(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

/** A claimed delivery waiting for a slot, and what frees its place in the window. */
interface Queued {
  claimed: ClaimedDelivery;
  release: () => void;
}

/** One endpoint's deliveries held by the dispatcher: those waiting for a slot, and counts. */
interface Lane {
  endpointId: string;
  company: string;
  queue: Queued[];
  /** Attempts waiting for an answer. */
  sending: number;
  /** Attempts it may have waiting for an answer now (see `answeredQuickly`). */
  limit: number;
  /** Deliveries held, from the claim until the attempt is recorded. */
  held: number;
}

/** A finished attempt waiting to be written, and who waits for the write. */
interface PendingWrite {
  id: string;
  claimToken: string;
  outcome: AttemptOutcome;
  done: (kept: boolean) => void;
  failed: (e: unknown) => void;
}

class WebhookDispatcher implements Dispatcher {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly schedule: number[];
  private readonly send: WebhookTransport;
  private readonly allowPrivate: boolean;
  private readonly resolveHost: HostResolver | undefined;
  private readonly concurrency: number;
  private readonly endpointConcurrency: number;
  private readonly companyConcurrency: number;
  /**
   * An endpoint's, and a company's, deliveries a claim may leave held at once by every instance
   * together: half the window, so that one company's backlog leaves the other half to the others, and
   * one endpoint that keeps up is claimed for in few statements (the webhooks.delivery.rate row).
   */
  private readonly hold: number;
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly jitter: number;
  private readonly batchWrites: boolean;
  private readonly random: () => number;
  private readonly ownLeases: boolean;
  private readonly leases: Leases;
  private readonly observer: RuntimeObserver | undefined;

  // Claimed deliveries, until their attempt is recorded (their leases are renewed with the instance's): stop() waits for
  // them. Of those, each endpoint's lane queues those waiting for a slot, and `sending` (at most `concurrency`) wait for
  // an answer; a slot frees once the answer is in, before the attempt is recorded. It holds at most `window`, and
  // claims the next batch while half the window is still queued or in flight, so neither the claim's
  // round trip nor the recording holds sending up.
  private readonly window: number;
  private readonly held = new Map<string, Promise<void>>();
  private sending = 0;
  // Slots go round the lanes with queued deliveries (`ring`, from `cursor`), each endpoint and company under its
  // limit: a slow endpoint's queue never blocks another's (no head-of-line blocking).
  private readonly lanes = new Map<string, Lane>();
  private ring: Lane[] = [];
  private cursor = 0;
  private readonly companySending = new Map<string, number>();
  private readonly companyHeld = new Map<string, number>();
  // Endpoints a claim left holding half their `hold` or more: more of theirs may be due, claimed once they hold half or less.
  private readonly capped = new Set<string>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private unsubscribe: (() => Promise<void>) | undefined;
  private stopTaking: (() => void) | undefined;

  // Finished attempts are written in batches, one statement at a time: those that finish while one runs
  // go into the next. With batchWrites off, each is written at once.
  private batch: PendingWrite[] = [];
  private writing = false;

  // What the loop looks at before claiming (see shouldClaim): news of due work, and whether the last claim filled every free place.
  private news = true;
  private backlog = false;
  private lastClaimAt = -Infinity;

  constructor(options: DispatcherOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.schedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
    this.send = options.transport ?? fetchTransport(options.fetch ?? ((r: Request) => fetch(r)));
    this.allowPrivate = options.allowPrivate ?? false;
    this.resolveHost = options.resolveHost;
    this.concurrency = options.concurrency ?? 64;
    this.endpointConcurrency = Math.max(1, options.endpointConcurrency ?? DEFAULT_ENDPOINT_CONCURRENCY);
    this.companyConcurrency = Math.max(1, options.companyConcurrency ?? Math.max(this.endpointConcurrency, Math.ceil(this.concurrency / 4)));
    this.hold = 2 * this.concurrency;
    this.timeoutMs = options.attemptTimeoutMs ?? 15_000;
    this.pollMs = options.pollIntervalMs ?? 1_000;
    this.jitter = options.jitter ?? 0.1;
    this.batchWrites = options.batchWrites ?? true;
    this.random = options.random ?? Math.random;
    this.ownLeases = options.leases === undefined;
    this.leases = options.leases ?? createLeases({ store: this.store, clock: this.clock, logger: this.logger });
    this.window = 4 * this.concurrency;
    this.observer = options.observer;
    this.taker = {
      claimToken: this.leases.claimToken,
      leaseUntil: (deliveries) => (this.running && this.mayTake(deliveries) ? this.leases.until() : null),
      take: (claimed) => {
        if (this.running) this.enqueue(claimed);
      },
    };
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = await this.store.onDeliveriesQueued(this.wake);
    this.stopTaking = this.store.takeOnWrite(this.taker);
    if (this.ownLeases) this.leases.start();
    this.loop = this.run();
  }

  async stop(graceMs = 10_000): Promise<void> {
    this.running = false;
    this.stopTaking?.();
    this.stopTaking = undefined;
    this.wake();
    await this.loop;
    // Queued attempts never start: their claims lapse within a lease, when any dispatcher sends them.
    for (const lane of this.ring) {
      for (const { claimed, release } of lane.queue) {
        this.held.delete(claimed.delivery.id);
        release();
      }
      lane.queue = [];
    }
    this.ring = [];
    this.cursor = 0;
    this.lanes.clear();
    this.capped.clear();
    this.companyHeld.clear();
    await Promise.race([Promise.allSettled([...this.held.values()]), new Promise((r) => setTimeout(r, graceMs).unref?.())]);
    if (this.ownLeases) this.leases.stop();
    await this.unsubscribe?.();
  }

  get inFlight(): number {
    return this.sending;
  }

  /** Queued work or a due time: claim at once (a free slot is enough). */
  readonly wake = (): void => {
    this.news = true;
    this.nudge();
  };

  async settle(): Promise<void> {
    for (;;) {
      const free = this.room();
      const claimed = free > 0 ? await this.claimAndSend(free) : 0;
      if (claimed === 0 && this.held.size === 0) return;
      await Promise.allSettled([...this.held.values()]);
    }
  }

  /**
   * Takes the deliveries this process writes while it has room for them: leased by the write, handed
   * over at its commit, sent without a claim (see Store.takeOnWrite). Those handed over after stop()
   * lapse with their lease, as queued ones do.
   */
  private readonly taker: DeliveryTaker;

  private room(): number {
    return Math.max(0, this.window - this.held.size);
  }

  /**
   * Whether it has room for `deliveries` a write in this process queues: in the window, and within the
   * share a claim leaves their endpoint and their company (of what this instance holds), so that one
   * company's writes cannot fill the window either.
   */
  private mayTake(deliveries: readonly DeliveryRecord[]): boolean {
    if (this.room() < deliveries.length) return false;
    const perEndpoint = new Map<string, number>();
    const perCompany = new Map<string, number>();
    for (const d of deliveries) {
      countUp(perEndpoint, d.endpoint_id);
      countUp(perCompany, d.company_uuid);
    }
    for (const [id, n] of perEndpoint) if ((this.lanes.get(id)?.held ?? 0) + n > this.hold) return false;
    for (const [id, n] of perCompany) if ((this.companyHeld.get(id) ?? 0) + n > this.hold) return false;
    return true;
  }

  /** An attempt was recorded: its place in the window is free, which alone claims nothing until enough are (see shouldClaim). */
  private nudge(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Sleeps `ms` unless nudged; a sleep that runs its course is news (a delivery may be due now). */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.woken) return resolve();
      const timer = setTimeout(() => {
        this.news = true;
        done();
      }, ms);
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      if (performance.now() - this.lastClaimAt >= this.pollMs) this.news = true;
      const free = this.room();
      if (shouldClaim({ room: free, window: this.window, news: this.news, backlog: this.backlog })) {
        this.news = false;
        this.lastClaimAt = performance.now();
        this.backlog = (await this.claimAndSend(free)) === free;
      }
      if (!this.running) break;
      if (this.held.size > 0) {
        // Each attempt recorded nudges it; it looks for due work again at least every pollMs.
        await this.sleep(Math.max(0, this.lastClaimAt + this.pollMs - performance.now()));
        continue;
      }
      await this.sleep(await this.untilNextDue());
    }
  }

  /**
   * With nothing in flight, how long to sleep: until the next delivery falls due, at most pollMs (one
   * due already but not claimable is leased elsewhere or its endpoint is disabled). Queued work wakes it.
   */
  private async untilNextDue(): Promise<number> {
    const due = await this.store.nextDeliveryDue().catch(() => null);
    if (!due) return this.pollMs;
    const untilDue = Date.parse(due) - this.clock.now().getTime();
    return untilDue > 0 ? Math.min(this.pollMs, untilDue) : this.pollMs;
  }

  /** Claims up to `room` due deliveries and queues an attempt of each; returns how many it claimed. */
  private async claimAndSend(room: number): Promise<number> {
    let claimed: ClaimedDelivery[] = [];
    try {
      claimed = await this.store.claimDeliveries({
        now: this.clock.now().toISOString(),
        leaseUntil: this.leases.until(),
        claimToken: this.leases.claimToken,
        limit: room,
        perEndpoint: this.hold,
        perCompany: this.hold,
      });
    } catch (err) {
      this.logger.error({ err }, 'claiming webhook deliveries failed; retrying');
    }
    const takenOver = claimed.filter((c) => c.taken_over).length;
    if (takenOver > 0) this.observer?.takenOver?.('webhook_delivery', takenOver);
    this.enqueue(claimed);
    // An endpoint this claim gave deliveries to, holding half its share or more, may have more due than
    // its share let the claim take (the webhooks.delivery.rate row: one endpoint, thousands due).
    for (const c of claimed) {
      const lane = this.lanes.get(c.endpoint.id);
      if (lane && lane.held >= this.hold / 2) this.capped.add(lane.endpointId);
    }
    return claimed.length;
  }

  /** Holds claimed deliveries and queues an attempt of each in its endpoint's lane. */
  private enqueue(claimed: readonly ClaimedDelivery[]): void {
    for (const c of claimed) {
      let release = () => {};
      this.held.set(c.delivery.id, new Promise<void>((r) => (release = r)));
      let lane = this.lanes.get(c.endpoint.id);
      if (!lane) {
        lane = { endpointId: c.endpoint.id, company: c.delivery.company_uuid, queue: [], sending: 0, limit: this.endpointConcurrency, held: 0 };
        this.lanes.set(lane.endpointId, lane);
      }
      if (lane.queue.length === 0) this.ring.push(lane);
      lane.queue.push({ claimed: c, release });
      lane.held++;
      countUp(this.companyHeld, lane.company);
    }
    this.pump();
  }

  /**
   * The next queued delivery that may have a slot: going round the lanes from the last one served,
   * the first whose endpoint and company are under their limits. Null when none may.
   */
  private nextQueued(): { lane: Lane; next: Queued } | null {
    const count = this.ring.length;
    for (let i = 0; i < count; i++) {
      const at = (this.cursor + i) % count;
      const lane = this.ring[at] as Lane;
      if (lane.sending >= lane.limit || (this.companySending.get(lane.company) ?? 0) >= this.companyConcurrency) continue;
      const next = lane.queue.shift() as Queued;
      if (lane.queue.length === 0) {
        this.ring.splice(at, 1);
        this.cursor = this.ring.length === 0 ? 0 : at % this.ring.length;
      } else {
        this.cursor = (at + 1) % count;
      }
      return { lane, next };
    }
    return null;
  }

  /** Starts queued attempts while a slot is free, round the lanes (see nextQueued). */
  private pump(): void {
    while (this.sending < this.concurrency) {
      const picked = this.nextQueued();
      if (!picked) return;
      const { lane, next } = picked;
      const id = next.claimed.delivery.id;
      this.sending++;
      lane.sending++;
      countUp(this.companySending, lane.company);
      let answered = false;
      const freeSlot = (quickly = false) => {
        if (answered) return;
        answered = true;
        lane.limit = answeredQuickly(lane.limit, quickly, { floor: this.endpointConcurrency, ceiling: this.companyConcurrency });
        this.sending--;
        lane.sending--;
        countDown(this.companySending, lane.company);
        this.pump();
      };
      this.attempt(next.claimed, freeSlot)
        .catch((err) => this.logger.error({ err, delivery: id }, 'webhook attempt crashed'))
        .finally(() => {
          freeSlot();
          this.held.delete(id);
          this.recorded(lane);
          next.release();
          this.nudge();
        });
    }
  }

  /** One of the lane's attempts is recorded: forget an empty lane; claim again for a capped endpoint down to half its share. */
  private recorded(lane: Lane): void {
    lane.held--;
    countDown(this.companyHeld, lane.company);
    if (lane.held <= 0 && lane.queue.length === 0 && this.lanes.get(lane.endpointId) === lane) this.lanes.delete(lane.endpointId);
    if (this.capped.has(lane.endpointId) && lane.held <= this.hold / 2) {
      this.capped.delete(lane.endpointId);
      this.news = true;
    }
  }

  /**
   * Sends one attempt of a claimed delivery, signed, calls `answered` once its outcome is known, then
   * records it and logs it. One function from the send to the record: the mock's caller who saw the
   * delivery arrive reads its record right after (see batchWrites).
   */
  private async attempt(claimed: ClaimedDelivery, answered: (quickly: boolean) => void): Promise<void> {
    const { delivery, endpoint, payload } = claimed;
    const started = this.clock.now();
    const body = JSON.stringify(payload);
    let statusCode: number | null = null;
    let responseExcerpt: string | null = null;
    let error: string | null = null;
    let retryAfterS: number | null = null;
    const t0 = performance.now();
    const problem = await webhookTargetProblem(endpoint.url, {
      allowPrivate: this.allowPrivate,
      resolve: this.send.checksAddresses ? undefined : this.resolveHost,
    });
    if (problem) {
      error = `not sent: the URL ${problem}`;
    } else {
      const secrets = [endpoint.secret, ...endpoint.previous_secrets.filter((p) => p.expires_at > started.toISOString()).map((p) => p.secret)];
      try {
        const answer = await this.send({
          url: endpoint.url,
          headers: { 'content-type': 'application/json', 'user-agent': 'engagekit-webhooks/1', ...signedHeaders(delivery.event_id, body, secrets, started) },
          body,
          timeoutMs: this.timeoutMs,
          ...(delivery.trace_context && { traceContext: delivery.trace_context }),
        });
        statusCode = answer.status;
        retryAfterS = parseRetryAfter(answer.retryAfter, this.clock.now());
        responseExcerpt = answer.excerpt;
      } catch (e) {
        error = this.sendError(e);
      }
    }
    const latencyMs = Math.round((performance.now() - t0) * 10) / 10;
    const record = {
      attempt: delivery.attempt_count + 1,
      started_at: started.toISOString(),
      status_code: statusCode,
      latency_ms: latencyMs,
      response_excerpt: responseExcerpt,
      error,
    };
    const outcome = this.outcomeOf(record, retryAfterS);
    answered(outcome.status === 'succeeded' && latencyMs < QUICK_ANSWER_MS);
    this.observer?.webhookAttempt?.({ outcome: outcome.status, seconds: latencyMs / 1000 });
    const kept = await this.finish(delivery.id, claimed.claimToken, outcome);
    this.logAttempt(claimed, outcome, kept);
  }

  private logAttempt({ delivery, endpoint }: ClaimedDelivery, outcome: AttemptOutcome, kept: boolean): void {
    const { attempt, status_code: status, latency_ms: latencyMs, error } = outcome.attempt;
    const log = { delivery: delivery.id, event: delivery.event_id, endpoint: endpoint.id, attempt, status, latencyMs, outcome: outcome.status, error };
    if (!kept) this.logger.warn(log, 'webhook attempt finished after its claim was lost; another dispatcher owns the delivery');
    else if (outcome.status === 'succeeded') this.logger.info(log, 'webhook delivered');
    else this.logger.warn(log, 'webhook attempt failed');
  }

  /** What a failed send is recorded as. */
  private sendError(e: unknown): string {
    const name = (e as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${this.timeoutMs / 1000} s`;
    if (name === 'WebhookTargetError') return `not sent: the URL ${(e as Error).message}`;
    return `connection failed: ${(e as Error)?.message ?? String(e)}`;
  }

  /** A 2xx succeeds, a 410 fails and disables the endpoint; anything else is retried while the schedule lasts. */
  private outcomeOf(record: AttemptOutcome['attempt'], retryAfterS: number | null): AttemptOutcome {
    const statusCode = record.status_code;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { attempt: record, status: 'succeeded', nextAttemptAt: null };
    if (statusCode === 410) {
      return { attempt: record, status: 'failed', nextAttemptAt: null, disableEndpoint: 'The receiver answered 410 Gone: the endpoint was disabled.' };
    }
    const { schedule, jitter, random } = this;
    const next = nextAttemptAt({ schedule, attemptsMade: record.attempt, now: this.clock.now(), retryAfterS, jitter, random });
    return next ? { attempt: record, status: 'retry', nextAttemptAt: next.toISOString() } : { attempt: record, status: 'failed', nextAttemptAt: null };
  }

  /** Records a finished attempt, in the next batch (or at once); resolves to whether its claim still held. */
  private finish(id: string, claimToken: string, outcome: AttemptOutcome): Promise<boolean> {
    return new Promise((done, failed) => {
      this.batch.push({ id, claimToken, outcome, done, failed });
      if (!this.batchWrites) void this.write();
      else if (!this.writing) {
        this.writing = true;
        soon(async () => {
          while (this.batch.length > 0) await this.write();
          this.writing = false;
        });
      }
    });
  }

  private async write(): Promise<void> {
    const items = this.batch;
    this.batch = [];
    try {
      const kept = await this.store.finishAttempts(items, this.clock.now().toISOString());
      for (const item of items) item.done(kept.has(item.id));
    } catch (e) {
      for (const item of items) item.failed(e);
    }
  }
}
