/**
 * The server's Prometheus metrics (prom-client): what it serves at `/metrics`. The runtime knows no
 * metrics library: it calls the hooks of `observer` (`RuntimeObserver`), and the server wraps what it
 * owns itself (its requests, the channel's sends, WhatsApp's status webhooks). Every name starts with
 * `engagekit_`; no label carries an unbounded value (no ids, no phone numbers, no companies). The
 * README's "Watching it run" lists them all.
 */
import type { ChannelAdapter, LeasedWork, RuntimeObserver } from '@engagekit/runtime';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { StatusesReceived } from '../channels/sink.ts';

/** What the scrape reads at the time it asks: the webhook backlog and the pool. */
export interface MetricsSources {
  /** Deliveries due now and not yet delivered, and the oldest one's due time (ISO, null when none). */
  webhookBacklog?: () => Promise<{ due: number; oldestDueAt: string | null }>;
  /** Attempts this instance has waiting for an answer. */
  webhooksInFlight?: () => number;
  /** PostgreSQL's pool: its size and its connections now (none on PGlite). */
  pool?: () => { max: number; total: number; idle: number; waiting: number };
}

/** The Meta error codes (and HTTP 429) that mean a rate limit: the throttle answers. */
const THROTTLE_CODES = new Set([4, 80007, 130429, 131056]);

/** Seconds buckets for the API's answers, from 1 ms to 10 s. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for outgoing calls (webhook receivers, WhatsApp), up to their 15 s timeout. */
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];
/** Seconds buckets for the status webhooks' lag: WhatsApp's time of a status to the server's. */
const LAG_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];

/** The server's metrics, their registry, and the hooks and wrappers that move them. */
export interface ServerMetrics {
  registry: Registry;
  /** The hooks the runtime calls (`RuntimeOptions.observer`). */
  observer: RuntimeObserver;
  /** An API request answered: its operation (`none` when it named none), its status and its duration. */
  request(operationId: string, status: number, seconds: number): void;
  /** The channel, its sends counted and timed; `limitPerSecond` is the pace it is configured to keep. */
  channel(channel: ChannelAdapter, limitPerSecond: number | null): ChannelAdapter;
  /** Statuses the provider reported by webhook, stored in one write at `now`: counted, with their lag and the `repeated` of them. */
  statusesReceived: StatusesReceived;
  /**
   * A query began to wait for a connection of the PostgreSQL pool: counts it, and gives what to call
   * with the seconds it waited once it has one (or gave up).
   */
  poolWait(): (seconds: number) => void;
  /** The text of a scrape (`registry.metrics()`). */
  scrape(): Promise<string>;
}

/** `2xx`, `4xx`... of a status. */
const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

type Registers = Registry[];

/** The webhook metrics: attempts and their durations, the backlog and what is in flight. */
function webhookMetrics(registers: Registers, sources: MetricsSources): Pick<RuntimeObserver, 'webhookAttempt'> {
  const attempts = new Counter({
    name: 'engagekit_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retry (tried again later) or failed (given up, or 410).',
    labelNames: ['outcome'],
    registers,
  });
  const seconds = new Histogram({
    name: 'engagekit_webhook_attempt_duration_seconds',
    help: "How long a webhook receiver took to answer an attempt (or the attempt's timeout).",
    buckets: CALL_BUCKETS,
    registers,
  });
  const backlog = sources.webhookBacklog;
  // One query answers both gauges: the first of the two collected in a scrape runs it.
  let reading: Promise<{ due: number; oldestDueAt: string | null }> | undefined;
  const readBacklog = () => {
    if (!backlog) return Promise.resolve({ due: 0, oldestDueAt: null });
    reading ??= backlog().finally(() => setTimeout(() => (reading = undefined), 0).unref?.());
    return reading;
  };
  new Gauge({
    name: 'engagekit_webhook_deliveries_due',
    help: 'Webhook deliveries due now and not delivered yet, on the whole database (every instance sees the same).',
    registers,
    async collect() {
      this.set((await readBacklog()).due);
    },
  });
  new Gauge({
    name: 'engagekit_webhook_oldest_due_age_seconds',
    help: 'How long the oldest due webhook delivery has waited past its due time; 0 when none is due.',
    registers,
    async collect() {
      const { oldestDueAt } = await readBacklog();
      this.set(oldestDueAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldestDueAt)) / 1000));
    },
  });
  new Gauge({
    name: 'engagekit_webhook_deliveries_in_flight',
    help: "Webhook attempts this instance has waiting for the receiver's answer.",
    registers,
    collect() {
      this.set(sources.webhooksInFlight?.() ?? 0);
    },
  });
  // Every labelled series starts at 0, so a rate() or an alert has a series before the first event.
  for (const outcome of ['succeeded', 'retry', 'failed']) attempts.inc({ outcome }, 0);
  return {
    webhookAttempt(attempt) {
      attempts.inc({ outcome: attempt.outcome });
      seconds.observe(attempt.seconds);
    },
  };
}

/** The campaign metrics: messages, runs, take-overs and retries. */
function campaignMetrics(registers: Registers): RuntimeObserver {
  const messages = new Counter({
    name: 'engagekit_campaign_messages_total',
    help: "Campaign messages recorded after a send, by status (sent, failed, or delivered or read when the provider's status came with the answer) and the provider's error code (empty when none).",
    labelNames: ['status', 'error_code'],
    registers,
  });
  const runs = new Counter({
    name: 'engagekit_campaign_runs_total',
    help: "Campaign runs by event: started (this instance planned it), completed, failed (every message failed, or the provider refused the configuration) and paused (on a provider's refusal).",
    labelNames: ['event'],
    registers,
  });
  const takeovers = new Counter({
    name: 'engagekit_lease_takeovers_total',
    help: 'Work this instance claimed from an instance whose lease ran out (it died, or stopped, holding it), by kind of work: campaign_chunk or webhook_delivery.',
    labelNames: ['work'],
    registers,
  });
  const retries = new Counter({
    name: 'engagekit_channel_retries_total',
    help: 'Messages put back to be sent again after a refusal for now (a rate limit, a temporary fault).',
    registers,
  });
  for (const event of ['started', 'completed', 'failed', 'paused']) runs.inc({ event }, 0);
  for (const work of ['campaign_chunk', 'webhook_delivery'] satisfies LeasedWork[]) takeovers.inc({ work }, 0);
  return {
    runsStarted: (count) => runs.inc({ event: 'started' }, count),
    runEnded: (end) => runs.inc({ event: end }),
    campaignPaused: () => runs.inc({ event: 'paused' }),
    takenOver: (work, count) => takeovers.inc({ work }, count),
    messagesRecorded(outcomes, deferrals) {
      for (const o of outcomes) messages.inc({ status: o.status, error_code: o.error_code === null ? '' : String(o.error_code) });
      for (const d of deferrals) if (d.next_attempt_at !== null) retries.inc();
    },
  };
}

/** The channel metrics: sends against the limit, throttle answers, and the statuses reported by webhook. */
function channelMetrics(registers: Registers): Pick<ServerMetrics, 'channel' | 'statusesReceived'> {
  const sends = new Counter({
    name: 'engagekit_channel_sends_total',
    help: 'Sends to the messaging channel by outcome (sent or failed); rate() of it is the send rate to set against engagekit_channel_send_limit_per_second.',
    labelNames: ['channel', 'outcome'],
    registers,
  });
  const sendSeconds = new Histogram({
    name: 'engagekit_channel_send_duration_seconds',
    help: 'How long the channel took to answer a send.',
    labelNames: ['channel'],
    buckets: CALL_BUCKETS,
    registers,
  });
  const limit = new Gauge({
    name: 'engagekit_channel_send_limit_per_second',
    help: 'The messages a second the channel is configured to keep to (WHATSAPP_MESSAGES_PER_SECOND), shared by every instance.',
    labelNames: ['channel'],
    registers,
  });
  const throttled = new Counter({
    name: 'engagekit_channel_throttled_total',
    help: "Sends the provider refused for a rate limit (HTTP 429, or Meta's codes 4, 80007, 130429, 131056), by code.",
    labelNames: ['channel', 'code'],
    registers,
  });
  const statuses = new Counter({
    name: 'engagekit_channel_statuses_total',
    help: 'Message statuses the provider reported by webhook, by status.',
    labelNames: ['status'],
    registers,
  });
  const statusLag = new Histogram({
    name: 'engagekit_channel_status_lag_seconds',
    help: "How long after the provider's time of a status its webhook reached the server.",
    buckets: LAG_BUCKETS,
    registers,
  });
  const duplicates = new Counter({
    name: 'engagekit_channel_status_duplicates_total',
    help: "Statuses that arrived again: the same message and status as one received before, in the same write or an earlier one (by any instance) that stored it; a sent counts only when it comes twice in one write, since the send's answer records sent first.",
    registers,
  });
  return {
    channel(channel, limitPerSecond) {
      const name = channel.name;
      for (const outcome of ['sent', 'failed']) sends.inc({ channel: name, outcome }, 0);
      if (limitPerSecond !== null) limit.set({ channel: name }, limitPerSecond);
      return {
        ...channel,
        async send(message) {
          const started = performance.now();
          const result = await channel.send(message);
          sendSeconds.observe({ channel: name }, (performance.now() - started) / 1000);
          sends.inc({ channel: name, outcome: result.status === 'failed' ? 'failed' : 'sent' });
          const code = result.errorCode ?? null;
          if (result.status === 'failed' && ((code !== null && THROTTLE_CODES.has(code)) || result.failure?.httpStatus === 429)) {
            throttled.inc({ channel: name, code: code === null ? '' : String(code) });
          }
          return result;
        },
      };
    },
    statusesReceived(received, now, repeated) {
      for (const s of received) {
        statuses.inc({ status: s.status });
        const at = Date.parse(s.at);
        if (!Number.isNaN(at)) statusLag.observe(Math.max(0, (now.getTime() - at) / 1000));
      }
      duplicates.inc(repeated);
    },
  };
}

/** The database metrics: 503s, lease renewals and, on PostgreSQL, the pool. */
function databaseMetrics(
  registers: Registers,
  pool: MetricsSources['pool'],
): { observer: Pick<RuntimeObserver, 'leaseRenewal' | 'databaseUnavailable'> } & Pick<ServerMetrics, 'poolWait'> {
  const unavailable = new Counter({
    name: 'engagekit_db_unavailable_total',
    help: 'Requests answered 503 database_unavailable: the database refused connections, or the pool stayed busy past DATABASE_POOL_WAIT_MS.',
    registers,
  });
  const renewals = new Counter({
    name: 'engagekit_lease_renewals_total',
    help: "Renewals of this instance's leases, by outcome (ok or failed).",
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of ['ok', 'failed']) renewals.inc({ outcome }, 0);
  if (pool) {
    new Gauge({
      name: 'engagekit_db_pool_size',
      help: 'The most connections the PostgreSQL pool opens (DATABASE_POOL_SIZE).',
      registers,
      collect() {
        this.set(pool().max);
      },
    });
    new Gauge({
      name: 'engagekit_db_pool_connections',
      help: 'Connections of the PostgreSQL pool by state: idle or busy.',
      labelNames: ['state'],
      registers,
      collect() {
        const { total, idle } = pool();
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'busy' }, total - idle);
      },
    });
    new Gauge({
      name: 'engagekit_db_pool_waiting',
      help: 'Queries waiting for a connection of the PostgreSQL pool.',
      registers,
      collect() {
        this.set(pool().waiting);
      },
    });
  }
  // Registered on PostgreSQL alone, as the gauges are: PGlite has no pool.
  const waits = pool
    ? new Counter({
        name: 'engagekit_db_pool_waits_total',
        help: 'Queries that had to wait for a connection of the PostgreSQL pool: every connection busy (DATABASE_POOL_SIZE), counted as the wait begins.',
        registers,
      })
    : undefined;
  const waitSeconds = pool
    ? new Histogram({
        name: 'engagekit_db_pool_wait_seconds',
        help: 'How long a query that waited for a connection of the PostgreSQL pool waited, until it had one or gave up (DATABASE_POOL_WAIT_MS).',
        buckets: REQUEST_BUCKETS,
        registers,
      })
    : undefined;
  return {
    observer: {
      leaseRenewal: (ok) => renewals.inc({ outcome: ok ? 'ok' : 'failed' }),
      databaseUnavailable: () => unavailable.inc(),
    },
    poolWait() {
      waits?.inc();
      return (seconds) => waitSeconds?.observe(seconds);
    },
  };
}

/**
 * Creates the server's metrics in a registry of their own, with the default Node metrics (process_*
 * and nodejs_*, as Node dashboards expect them).
 *
 * @example
 * const metrics = createMetrics({ pool: () => store.poolStats() });
 * createRuntime({ ..., observer: metrics.observer });
 * const text = await metrics.scrape();
 */
export function createMetrics(sources: MetricsSources = {}): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requestSeconds = new Histogram({
    name: 'engagekit_http_request_duration_seconds',
    help: 'API requests answered, by operationId and status class, and how long each took.',
    labelNames: ['operation', 'status_class'],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const database = databaseMetrics(registers, sources.pool);
  const observer: RuntimeObserver = {
    ...webhookMetrics(registers, sources),
    ...campaignMetrics(registers),
    ...database.observer,
  };
  return {
    registry,
    observer,
    poolWait: database.poolWait,
    request(operationId, status, seconds) {
      requestSeconds.observe({ operation: operationId, status_class: statusClass(status) }, seconds);
    },
    ...channelMetrics(registers),
    scrape: () => registry.metrics(),
  };
}
