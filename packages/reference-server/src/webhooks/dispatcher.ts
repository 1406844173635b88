import { type Clock, systemClock } from '../clock.ts';
import { type HostResolver, type Logger, silentLogger } from '../context.ts';
import { webhookTargetProblem } from '../domain/webhook-target.ts';
import type { AttemptOutcome, ClaimedDelivery, Store } from '../store/types.ts';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt, parseRetryAfter } from './retry.ts';
import { signedHeaders } from './sign.ts';

/** Options of the webhook dispatcher; every one has a default but the store. */
export interface DispatcherOptions {
  store: Store;
  clock?: Clock;
  logger?: Logger;
  /** Seconds before each attempt; its length is the number of attempts. Default: DEFAULT_RETRY_SCHEDULE. */
  retrySchedule?: number[];
  /** Allow loopback and private targets (tests, development). Default false. */
  allowPrivate?: boolean;
  /** Resolves target hosts, to refuse private addresses again at delivery time (DNS can change). */
  resolveHost?: HostResolver | undefined;
  /** How attempts are sent. Default: the global fetch. The mock passes its own. */
  fetch?: (request: Request) => Promise<Response>;
  /** Attempts in flight at once. Default 64. */
  concurrency?: number;
  /** Time allowed for one attempt. Default 15 s. */
  attemptTimeoutMs?: number;
  /** How long a claim holds before another dispatcher may take the delivery over; renewed while an attempt runs. Default 6 s. */
  leaseMs?: number;
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

const EXCERPT_BYTES = 512;

/** Runs `f` after the I/O already queued (setImmediate in Node; a timer where there is none, as in browsers). */
const soon: (f: () => void) => void = typeof setImmediate === 'function' ? (f) => setImmediate(f) : (f) => setTimeout(f, 0);

/** Reads at most `max` bytes of a response body as text. */
async function excerpt(res: Response, max = EXCERPT_BYTES): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
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
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.attemptTimeoutMs ?? 15_000;
  const leaseMs = options.leaseMs ?? 6_000;
  const pollMs = options.pollIntervalMs ?? 1_000;
  const jitter = options.jitter ?? 0.1;
  const batchWrites = options.batchWrites ?? true;
  const random = options.random ?? Math.random;
  const claimToken = `dsp_${crypto.randomUUID()}`;

  const inFlight = new Map<string, Promise<void>>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let unsubscribe: (() => Promise<void>) | undefined;
  let renewTimer: ReturnType<typeof setInterval> | undefined;

  // Finished attempts are written in batches: one statement for all that finish in the same moment.
  let batch: { id: string; claimToken: string; outcome: AttemptOutcome; done: (kept: boolean) => void; failed: (e: unknown) => void }[] = [];
  function finish(id: string, claimToken: string, outcome: AttemptOutcome): Promise<boolean> {
    return new Promise((done, failed) => {
      batch.push({ id, claimToken, outcome, done, failed });
      if (!batchWrites) flush();
      else if (batch.length === 1) soon(flush);
    });
  }
  function flush() {
    const items = batch;
    batch = [];
    store.finishAttempts(items, clock.now().toISOString()).then(
      (kept) => {
        for (const item of items) item.done(kept.has(item.id));
      },
      (e) => {
        for (const item of items) item.failed(e);
      },
    );
  }

  function wake() {
    woken = true;
    wakeUp?.();
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, endpoint, payload } = claimed;
    const started = clock.now();
    const attemptNo = delivery.attempt_count + 1;
    const body = JSON.stringify(payload);
    let statusCode: number | null = null;
    let responseExcerpt: string | null = null;
    let error: string | null = null;
    let retryAfterS: number | null = null;
    const t0 = performance.now();
    const problem = await webhookTargetProblem(endpoint.url, { allowPrivate: options.allowPrivate ?? false, resolve: options.resolveHost });
    if (problem) {
      error = `not sent: the URL ${problem}`;
    } else {
      const secrets = [endpoint.secret, ...endpoint.previous_secrets.filter((p) => p.expires_at > started.toISOString()).map((p) => p.secret)];
      try {
        const res = await send(
          new Request(endpoint.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'engagekit-webhooks/1', ...signedHeaders(delivery.event_id, body, secrets, started) },
            body,
            redirect: 'manual',
            signal: AbortSignal.timeout(timeoutMs),
          }),
        );
        statusCode = res.status;
        retryAfterS = parseRetryAfter(res.headers.get('retry-after'), clock.now());
        responseExcerpt = await excerpt(res).catch(() => null);
      } catch (e) {
        const name = (e as Error)?.name;
        error =
          name === 'TimeoutError' || name === 'AbortError'
            ? `no answer within ${timeoutMs / 1000} s`
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

  /** Claims up to `room` due deliveries and starts an attempt of each; returns how many it claimed. */
  async function claimAndSend(room: number): Promise<number> {
    const now = clock.now();
    let claimed: ClaimedDelivery[] = [];
    try {
      claimed = await store.claimDeliveries({
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
        claimToken,
        limit: room,
      });
    } catch (err) {
      logger.error({ err }, 'claiming webhook deliveries failed; retrying');
    }
    for (const c of claimed) {
      const p = attempt(c)
        .catch((err) => logger.error({ err, delivery: c.delivery.id }, 'webhook attempt crashed'))
        .finally(() => {
          inFlight.delete(c.delivery.id);
          wake();
        });
      inFlight.set(c.delivery.id, p);
    }
    return claimed.length;
  }

  async function settle() {
    for (;;) {
      const room = concurrency - inFlight.size;
      const claimed = room > 0 ? await claimAndSend(room) : 0;
      if (claimed === 0 && inFlight.size === 0) return;
      await Promise.allSettled([...inFlight.values()]);
    }
  }

  async function run() {
    while (running) {
      woken = false;
      const room = concurrency - inFlight.size;
      const claimed = room > 0 ? await claimAndSend(room) : 0;
      if (!running) break;
      // A full batch: more may be due right now.
      if (claimed > 0 && claimed === room) continue;
      // Otherwise sleep until the next delivery falls due (at most pollMs; one due already but not
      // claimable is leased elsewhere or its endpoint is disabled). A queued write or a finished attempt wakes it.
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
      renewTimer = setInterval(
        () => {
          if (inFlight.size === 0) return;
          const until = new Date(clock.now().getTime() + leaseMs).toISOString();
          store.extendClaims([...inFlight.keys()], claimToken, until).catch((err) => logger.warn({ err }, 'renewing webhook claims failed'));
        },
        Math.max(50, Math.floor(leaseMs / 3)),
      );
      renewTimer.unref?.();
      loop = run();
    },
    async stop(graceMs = 10_000) {
      running = false;
      wake();
      await loop;
      await Promise.race([Promise.allSettled([...inFlight.values()]), new Promise((r) => setTimeout(r, graceMs).unref?.())]);
      if (renewTimer) clearInterval(renewTimer);
      await unsubscribe?.();
    },
    wake,
    settle,
  };
}
