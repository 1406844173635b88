/**
 * The mock's state, one generation at a time: a memory store, the runtime over it and the channel,
 * made at the start and again by every `reset()` and `restore()`. One app serves them all, handed the
 * current generation's store, ids and leases with each request (`serve`).
 */
import type { EventType } from '@engagekit/contract';
import {
  type AnsweredRequest,
  type App,
  type AppConfig,
  createApp,
  createCompany,
  createEndpoint,
  createMemoryStore,
  createRandomIds,
  createRuntime,
  createSeededIds,
  type IdGenerator,
  type Logger,
  type MemorySnapshot,
  type MemoryStore,
  type Runtime,
  resumeSeededIds,
  type SeededIds,
} from '@engagekit/runtime';
import { type ChannelState, createMockChannel, type MockChannel, type MockChannelOptions } from './channel.ts';
import type { MockClock } from './clock.ts';
import { headersOf, type Journal } from './journal.ts';
import { MOCK_WEBHOOK_URL, type WebhookListener, type WebhookSink } from './webhook-sink.ts';

/** The mock's state at one moment, from `mock.snapshot()`, for `mock.restore()`. Opaque; restore it as often as you like. */
export interface MockSnapshot {
  readonly store: MemorySnapshot;
  /** Where the seeded id sequence was (null with random ids). */
  readonly ids: number | null;
  /** The manual clock's time (null on the real clock). */
  readonly clock: number | null;
  readonly channel: ChannelState;
  readonly endpointMade: boolean;
}

/** What every generation of one mock shares: its settings, and the parts that outlive a reset. */
interface Shared {
  /** The ready company as the store holds it (its uuid in lower case). */
  company: { uuid: string; company_id: string; name: string; timezone: string };
  config: AppConfig;
  /** Seconds before each webhook attempt: the mock's `retrySchedule` for the runtime's dispatcher. */
  retrySchedule: number[];
  logger: Logger;
  /** The `webhooks` option: an endpoint registered at every start (`url`, `events`, `onWebhook`). */
  webhooks: { url?: string; events?: EventType[]; onWebhook?: WebhookListener } | undefined;
  webhookSecret: string;
  clock: MockClock & { restart(): void };
  journal: Journal;
  sink: WebhookSink;
  /** The `channel` option: how the channel reports. */
  channel: MockChannelOptions;
}

/** One generation: a store, the runtime over it and the channel, from a start, a reset or a restore. */
export class Generation {
  readonly ids: IdGenerator;
  readonly store: MemoryStore = createMemoryStore();
  readonly channel: MockChannel;
  readonly runtime: Runtime;
  /** True while the `data` option loads: other requests wait for it, and the journal leaves its requests out. */
  loading = false;
  /** Settles once the `data` option has loaded (at once without one); rejects if the API refused it. */
  ready: Promise<void> = Promise.resolve();
  endpointMade: boolean;
  dispatcherStarted = false;

  /** `app` is the one app of the mock's life: this generation's runtime makes none. */
  constructor(ids: IdGenerator, shared: Shared, app: App, from: MockSnapshot | undefined) {
    this.ids = ids;
    const id = shared.sink.nextGeneration();
    this.channel = createMockChannel(shared.clock, from?.channel, shared.channel);
    this.endpointMade = from?.endpointMade ?? false;
    this.runtime = createRuntime({
      store: this.store,
      clock: shared.clock,
      ids,
      logger: shared.logger,
      config: shared.config,
      channel: this.channel.channel,
      fetch: shared.sink.sender(id),
      // batchWrites off: a test that saw a webhook arrive reads its delivery record at once.
      webhooks: { retrySchedule: shared.retrySchedule, batchWrites: false },
      app,
    });
    // The memory store does all its work before its promise settles, so the company exists on return.
    if (from) this.store.restore(from.store);
    else void createCompany(this.store, this.write(shared), shared.company, ids);
  }

  /** Ids and the time for a write the mock makes itself, as a request's are. */
  write(shared: Pick<Shared, 'clock'>) {
    return { newId: (prefix: string) => this.ids.newId(prefix), now: shared.clock.now().toISOString() };
  }
}

/** The generations of one mock: the current one, and how the next one is made. */
export class Generations {
  #current: Generation;
  #closed = false;
  /** The one app of the mock's life, made without a store: every request brings its generation's (`serve`). */
  readonly #app: App;
  /** The seed of the id sequence (undefined: random ids); `reset({ seed })` changes it. */
  seed: number | string | undefined;
  readonly #shared: Shared;

  constructor(shared: Shared, seed: number | string | undefined) {
    this.#shared = shared;
    this.seed = seed;
    this.#app = createApp({ config: shared.config, clock: shared.clock, logger: shared.logger, onAnswered: this.#answered });
    this.#current = this.#make(undefined);
  }

  get current(): Generation {
    return this.#current;
  }

  /** Answers `request` from the current generation's store, ids and leases. */
  serve(request: Request): Response | Promise<Response> {
    return this.#app.fetch(request, this.#current.runtime.bindings);
  }

  /** Makes the next generation current, fresh (`from` undefined) or from a snapshot; resolves once the one before has stopped. */
  async replace(from?: MockSnapshot): Promise<void> {
    const old = this.#current;
    this.#current = this.#make(from);
    await old.runtime.close(500);
  }

  /** The journal's entry for each request the app answered; while the `data` option loads, none: the journal holds what the code under test sent. */
  readonly #answered = ({ request, operationId, body, status, at, companyUuid }: AnsweredRequest) => {
    if (this.#current.loading) return;
    this.#shared.journal.record({
      method: request.method,
      url: request.url,
      headers: headersOf(request),
      operationId,
      body,
      status,
      ended: 'answered',
      companyUuid,
      at,
    });
  };

  #make(from: MockSnapshot | undefined): Generation {
    const shared = this.#shared;
    const seed = this.seed;
    const ids = from && from.ids !== null ? resumeSeededIds(from.ids) : seed === undefined ? createRandomIds() : createSeededIds(seed);
    const gen = new Generation(ids, shared, this.#app, from);
    // On a manual clock, campaigns run as `clock.advance()` reaches them.
    if (!shared.clock.manual) gen.runtime.scheduler.start();
    // Start the dispatcher when the first delivery is queued: a mock that never sends keeps no dispatcher running.
    void gen.store.onDeliveriesQueued(() => {
      if (gen.dispatcherStarted || this.#closed || gen !== this.#current) return;
      gen.dispatcherStarted = true;
      void gen.runtime.dispatcher.start();
    });
    // Only the `webhooks.onWebhook` option's listener outlives a reset or a restore.
    shared.sink.dropListeners(shared.webhooks?.onWebhook);
    if (!from && shared.webhooks) this.#makeEndpoint(gen, shared.webhooks.url ?? MOCK_WEBHOOK_URL);
    return gen;
  }

  /** The in-process endpoint, made on first use when the options asked for none. */
  ensureEndpoint(): void {
    if (!this.#current.endpointMade) this.#makeEndpoint(this.#current, MOCK_WEBHOOK_URL);
  }

  #makeEndpoint(gen: Generation, url: string): void {
    const write = gen.write(this.#shared);
    gen.endpointMade = true;
    void createEndpoint(
      gen.store,
      write,
      { ...this.#shared.company, created_at: write.now },
      {
        url,
        description: 'engagekit mock endpoint',
        events: this.#shared.webhooks?.events ?? [],
        secret: this.#shared.webhookSecret,
      },
      // The in-process sink, or a receiver the test runs (on this machine, often): not a partner's registration.
      { allowPrivate: true },
    );
  }

  /** The current generation's state: records, the id sequence, the manual clock's time, the channel. */
  snapshot(): MockSnapshot {
    const gen = this.#current;
    const ids = gen.ids as Partial<SeededIds>;
    return {
      store: gen.store.snapshot(),
      ids: ids.position ? ids.position() : null,
      clock: this.#shared.clock.manual ? this.#shared.clock.now().getTime() : null,
      channel: gen.channel.snapshot(),
      endpointMade: gen.endpointMade,
    };
  }

  /** Stops the current generation's dispatcher and scheduler; no dispatcher starts after it. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#current.runtime.close(500);
  }
}
