import { type App, createApp } from './app.ts';
import { createScheduler, type Scheduler, type SchedulerOptions } from './campaigns/scheduler.ts';
import { systemClock } from './clock.ts';
import type { AppBindings, AppDeps } from './context.ts';
import { nextCampaignDue } from './domain/campaign-runs.ts';
import { type ChannelAdapter, createSimulatedChannel } from './domain/channel.ts';
import { nextDeliveryDue } from './domain/webhooks.ts';
import { createRandomIds } from './ids.ts';
import { createLeases } from './leases.ts';
import { silentLogger } from './logger.ts';
import type { Store } from './store/ports.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from './webhooks/dispatcher.ts';

/** What the runtime is made of; every part but the store and the app's config has a default. */
export interface RuntimeOptions extends AppDeps {
  /** What the runtime's work and its app's requests read and write; `close()` closes it. */
  store: Store;
  /** The messaging channel campaigns are sent through. Default: the simulated channel (5% of messages fail; statuses at once). */
  channel?: ChannelAdapter;
  /** How webhook attempts are sent. Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** The webhook dispatcher's settings (retry schedule, batching...). Private targets follow `config.webhookAllowPrivate`. */
  webhooks?: Omit<DispatcherOptions, 'store' | 'clock' | 'logger' | 'fetch' | 'allowPrivate' | 'resolveHost' | 'leases' | 'observer'>;
  /** The campaign scheduler's settings (how often it looks for due campaigns, chunk size and concurrency). */
  campaigns?: Omit<SchedulerOptions, 'store' | 'channel' | 'clock' | 'logger' | 'ids' | 'leases' | 'observer'>;
  /** How long an instance's leases last (a dead instance's work is taken over after it). Default 10 s. */
  leaseMs?: number;
  /**
   * An app made earlier, to serve this runtime's requests instead of a new app: the caller hands it
   * the runtime's `bindings` with each request (`app.fetch(request, runtime.bindings)`); it keeps its
   * own config and hooks. The mock keeps one app across its resets this way.
   */
  app?: App;
}

/** The API and the work behind it, on one store: what the server runs, and what the mock runs in-process. */
export interface Runtime {
  /** The API: a `fetch(Request) => Response` handler. */
  app: App;
  /**
   * What the runtime's requests are served from: its store, ids and leases. The app it made serves a
   * request that brings none from them; an app passed in (`app`) is handed them with each request.
   */
  bindings: AppBindings;
  /** Sends webhooks: claims due deliveries, signs and sends them, retries. */
  dispatcher: Dispatcher;
  /** Runs due campaigns through the channel. */
  scheduler: Scheduler;
  /** Starts the dispatcher and the scheduler. */
  start(): Promise<void>;
  /**
   * Runs what is due now, campaigns then webhook attempts, and resolves when they have finished. With
   * a clock that moves only when told (the mock's manual clock), this is what brings due work.
   */
  runDue(): Promise<void>;
  /** When the next campaign run or webhook attempt falls due after `after`; null when nothing waits. */
  nextDue(after: Date): Promise<Date | null>;
  /**
   * For a clock that moves only when told: moves it (with `setTime`) to `until`, stopping at each due
   * time on the way to run what falls due then (`runDue`), in due order. Resolves once all of it has run.
   */
  advanceTo(until: Date, setTime: (time: Date) => void): Promise<void>;
  /** Stops the scheduler (runs hand back at a clean point), then the dispatcher (attempts in flight get `graceMs`), then closes the store. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Puts the reference server together on a store: the app, the webhook dispatcher and the campaign
 * scheduler, sharing one clock, id generator and logger. The server and the mock both run this.
 *
 * @example
 * const runtime = createRuntime({ store: createMemoryStore(), config: { jwtSecret, adminTokenHash, rateLimitPerMinute: 0, webhookAllowPrivate: true } });
 * await runtime.start();
 * const res = await runtime.app.request('/api/v2/health');
 * await runtime.close();
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? createRandomIds();
  const logger = options.logger ?? silentLogger;
  const { store } = options;
  // One token for everything this instance claims, renewed while it runs (leases.ts).
  const { observer } = options;
  const leases = createLeases({ store, clock, logger, observer, ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}) });
  const bindings: AppBindings = { store, ids, leases };
  const app = options.app ?? createApp({ ...options, clock, ids, logger, leases });
  const dispatcher = createDispatcher({
    ...options.webhooks,
    store,
    clock,
    logger,
    leases,
    allowPrivate: options.config.webhookAllowPrivate,
    resolveHost: options.resolveHost,
    observer,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const channel = options.channel ?? createSimulatedChannel({ clock });
  const scheduler = createScheduler({ ...options.campaigns, store, clock, logger, ids, leases, channel, observer });
  async function runDue() {
    await scheduler.tick();
    await dispatcher.settle();
  }
  async function nextDue(after: Date) {
    const [campaign, delivery] = await Promise.all([nextCampaignDue(store, after), nextDeliveryDue(store, after)]);
    const status = channel.nextStatusDue?.() ?? null;
    const times = [campaign, delivery, status !== null && status > after ? status : null].filter((t): t is Date => t !== null).map((t) => t.getTime());
    return times.length === 0 ? null : new Date(Math.min(...times));
  }
  return {
    app,
    bindings,
    dispatcher,
    scheduler,
    async start() {
      leases.start();
      await dispatcher.start();
      scheduler.start();
    },
    runDue,
    nextDue,
    async advanceTo(until, setTime) {
      await runDue();
      for (;;) {
        const next = await nextDue(clock.now());
        if (!next || next > until) break;
        setTime(next);
        await runDue();
      }
      setTime(until);
      await runDue();
    },
    async close(graceMs) {
      await scheduler.stop();
      await dispatcher.stop(graceMs);
      leases.stop();
      await store.close();
    },
  };
}
