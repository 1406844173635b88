import { type Clock, systemClock } from '../clock.ts';
import { type HostResolver, type Logger, silentLogger } from '../context.ts';
import { webhookTargetProblem } from '../domain/webhook-target.ts';
import { createLeases, type Leases } from '../leases.ts';
import type { AttemptOutcome, ClaimedDelivery, DeliveryTaker, Store } from '../store/types.ts';
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
  const store = options.store;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const schedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const send = options.transport ?? fetchTransport(options.fetch ?? ((r: Request) => fetch(r)));
  const allowPrivate = options.allowPrivate ?? false;
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.attemptTimeoutMs ?? 15_000;
  const pollMs = options.pollIntervalMs ?? 1_000;
  const jitter = options.jitter ?? 0.1;
  const batchWrites = options.batchWrites ?? true;
  const random = options.random ?? Math.random;
  const ownLeases = options.leases === undefined;
  const leases = options.leases ?? createLeases({ store, clock, logger });
  const { claimToken } = leases;

  // Claimed deliveries, until their attempt is recorded (their leases are renewed with the instance's): stop() waits for
  // them. Of those, `queue` waits for a slot and `sending` (at most `concurrency`) waits for an answer;
  // a slot frees once the answer is in, before the attempt is recorded. It holds at most `window`, and
  // claims the next batch while half the window is still queued or in flight, so neither the claim's
  // round trip nor the recording holds sending up.
  const window = 4 * concurrency;
  const held = new Map<string, Promise<void>>();
  let queue: { claimed: ClaimedDelivery; release: () => void }[] = [];
  let sending = 0;
  const room = () => Math.max(0, window - held.size);
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let unsubscribe: (() => Promise<void>) | undefined;
  let stopTaking: (() => void) | undefined;

  // Finished attempts are written in batches, one statement at a time: those that finish while one runs
  // go into the next. With batchWrites off, each is written at once.
  let batch: { id: string; claimToken: string; outcome: AttemptOutcome; done: (kept: boolean) => void; failed: (e: unknown) => void }[] = [];
  let writing = false;
  function finish(id: string, claimToken: string, outcome: AttemptOutcome): Promise<boolean> {
    return new Promise((done, failed) => {
      batch.push({ id, claimToken, outcome, done, failed });
      if (!batchWrites) void write();
      else if (!writing) {
        writing = true;
        soon(async () => {
          while (batch.length > 0) await write();
          writing = false;
        });
      }
    });
  }
  async function write() {
    const items = batch;
    batch = [];
    try {
      const kept = await store.finishAttempts(items, clock.now().toISOString());
      for (const item of items) item.done(kept.has(item.id));
    } catch (e) {
      for (const item of items) item.failed(e);
    }
  }

  // What the loop looks at before claiming (see shouldClaim): news of due work, and whether the last claim filled every free place.
  let news = true;
  let backlog = false;
  let lastClaimAt = -Infinity;

  /** Queued work or a due time: claim at once (a free slot is enough). */
  function wake() {
    news = true;
    nudge();
  }

  /** An attempt was recorded: its place in the window is free, which alone claims nothing until enough are (see shouldClaim). */
  function nudge() {
    woken = true;
    wakeUp?.();
  }

  /** Sleeps `ms` unless nudged; a sleep that runs its course is news (a delivery may be due now). */
  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(() => {
        news = true;
        done();
      }, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  /** Sends one attempt, calls `answered` once its outcome is known, then records it. */
  async function attempt(claimed: ClaimedDelivery, answered: () => void): Promise<void> {
    const { delivery, endpoint, payload } = claimed;
    const started = clock.now();
    const attemptNo = delivery.attempt_count + 1;
    const body = JSON.stringify(payload);
    let statusCode: number | null = null;
    let responseExcerpt: string | null = null;
    let error: string | null = null;
    let retryAfterS: number | null = null;
    const t0 = performance.now();
    const problem = await webhookTargetProblem(endpoint.url, { allowPrivate, resolve: send.checksAddresses ? undefined : options.resolveHost });
    if (problem) {
      error = `not sent: the URL ${problem}`;
    } else {
      const secrets = [endpoint.secret, ...endpoint.previous_secrets.filter((p) => p.expires_at > started.toISOString()).map((p) => p.secret)];
      try {
        const answer = await send({
          url: endpoint.url,
          headers: { 'content-type': 'application/json', 'user-agent': 'engagekit-webhooks/1', ...signedHeaders(delivery.event_id, body, secrets, started) },
          body,
          timeoutMs,
        });
        statusCode = answer.status;
        retryAfterS = parseRetryAfter(answer.retryAfter, clock.now());
        responseExcerpt = answer.excerpt;
      } catch (e) {
        const name = (e as Error)?.name;
        error =
          name === 'TimeoutError' || name === 'AbortError'
            ? `no answer within ${timeoutMs / 1000} s`
            : name === 'WebhookTargetError'
              ? `not sent: the URL ${(e as Error).message}`
              : `connection failed: ${(e as Error)?.message ?? String(e)}`;
      }
    }
    const latencyMs = Math.round((performance.now() - t0) * 10) / 10;
    const now = clock.now();
    const record = {
      attempt: attemptNo,
      started_at: started.toISOString(),
      status_code: statusCode,
      latency_ms: latencyMs,
      response_excerpt: responseExcerpt,
      error,
    };
    let outcome: AttemptOutcome;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      outcome = { attempt: record, status: 'succeeded', nextAttemptAt: null };
    } else if (statusCode === 410) {
      outcome = { attempt: record, status: 'failed', nextAttemptAt: null, disableEndpoint: 'The receiver answered 410 Gone: the endpoint was disabled.' };
    } else {
      const next = nextAttemptAt({ schedule, attemptsMade: attemptNo, now, retryAfterS, jitter, random });
      outcome = next ? { attempt: record, status: 'retry', nextAttemptAt: next.toISOString() } : { attempt: record, status: 'failed', nextAttemptAt: null };
    }
    answered();
    const kept = await finish(delivery.id, claimed.claimToken, outcome);
    const log = {
      delivery: delivery.id,
      event: delivery.event_id,
      endpoint: endpoint.id,
      attempt: attemptNo,
      status: statusCode,
      latencyMs,
      outcome: outcome.status,
      error,
    };
    if (!kept) logger.warn(log, 'webhook attempt finished after its claim was lost; another dispatcher owns the delivery');
    else if (outcome.status === 'succeeded') logger.info(log, 'webhook delivered');
    else logger.warn(log, 'webhook attempt failed');
  }

  /** Starts queued attempts while a slot is free. */
  function pump() {
    while (sending < concurrency) {
      const next = queue.shift();
      if (!next) return;
      const id = next.claimed.delivery.id;
      sending++;
      let answered = false;
      const freeSlot = () => {
        if (answered) return;
        answered = true;
        sending--;
        pump();
      };
      attempt(next.claimed, freeSlot)
        .catch((err) => logger.error({ err, delivery: id }, 'webhook attempt crashed'))
        .finally(() => {
          freeSlot();
          held.delete(id);
          next.release();
          nudge();
        });
    }
  }

  /** Holds claimed deliveries and queues an attempt of each. */
  function enqueue(claimed: readonly ClaimedDelivery[]) {
    for (const c of claimed) {
      let release = () => {};
      held.set(c.delivery.id, new Promise<void>((r) => (release = r)));
      queue.push({ claimed: c, release });
    }
    pump();
  }

  /** Claims up to `room` due deliveries and queues an attempt of each; returns how many it claimed. */
  async function claimAndSend(room: number): Promise<number> {
    const now = clock.now();
    let claimed: ClaimedDelivery[] = [];
    try {
      claimed = await store.claimDeliveries({
        now: now.toISOString(),
        leaseUntil: leases.until(),
        claimToken,
        limit: room,
      });
    } catch (err) {
      logger.error({ err }, 'claiming webhook deliveries failed; retrying');
    }
    enqueue(claimed);
    return claimed.length;
  }

  /**
   * Takes the deliveries this process writes while it has room for them: leased by the write, handed
   * over at its commit, sent without a claim (see Store.takeOnWrite). Those handed over after stop()
   * lapse with their lease, as queued ones do.
   */
  const taker: DeliveryTaker = {
    claimToken,
    leaseUntil: (count) => (running && room() >= count ? leases.until() : null),
    take(claimed) {
      if (running) enqueue(claimed);
    },
  };

  async function settle() {
    for (;;) {
      const free = room();
      const claimed = free > 0 ? await claimAndSend(free) : 0;
      if (claimed === 0 && held.size === 0) return;
      await Promise.allSettled([...held.values()]);
    }
  }

  async function run() {
    while (running) {
      woken = false;
      if (performance.now() - lastClaimAt >= pollMs) news = true;
      const free = room();
      if (shouldClaim({ room: free, window, news, backlog })) {
        news = false;
        lastClaimAt = performance.now();
        backlog = (await claimAndSend(free)) === free;
      }
      if (!running) break;
      if (held.size > 0) {
        // Each attempt recorded nudges it; it looks for due work again at least every pollMs.
        await sleep(Math.max(0, lastClaimAt + pollMs - performance.now()));
        continue;
      }
      // Nothing in flight: sleep until the next delivery falls due (at most pollMs; one due already but
      // not claimable is leased elsewhere or its endpoint is disabled). Queued work wakes it.
      let waitMs = pollMs;
      const due = await store.nextDeliveryDue().catch(() => null);
      if (due) {
        const untilDue = Date.parse(due) - clock.now().getTime();
        if (untilDue > 0) waitMs = Math.min(pollMs, untilDue);
      }
      await sleep(waitMs);
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      unsubscribe = await store.onDeliveriesQueued(wake);
      stopTaking = store.takeOnWrite(taker);
      if (ownLeases) leases.start();
      loop = run();
    },
    async stop(graceMs = 10_000) {
      running = false;
      stopTaking?.();
      stopTaking = undefined;
      wake();
      await loop;
      // Queued attempts never start: their claims lapse within a lease, when any dispatcher sends them.
      for (const { claimed, release } of queue) {
        held.delete(claimed.delivery.id);
        release();
      }
      queue = [];
      await Promise.race([Promise.allSettled([...held.values()]), new Promise((r) => setTimeout(r, graceMs).unref?.())]);
      if (ownLeases) leases.stop();
      await unsubscribe?.();
    },
    wake,
    settle,
  };
}
