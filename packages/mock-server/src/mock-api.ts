/**
 * The mock's core, for any runtime: the reference runtime (`createRuntime`: the app, the webhook
 * dispatcher and the campaign scheduler) over an in-memory store, plus a clock a test can move,
 * channel outcomes, a request journal, snapshots, faults, state, webhooks and the control endpoints.
 * `setupMockApi` (Node, MSW), `setupMockWorker` (browsers, MSW's service worker) and the
 * `engagekit-mock` HTTP mode all wrap this one object.
 */
import { type EventType, matchOperation, type OperationId } from '@engagekit/contract';
import {
  type App,
  type Clock,
  canonicalUuid,
  createMemoryStore,
  createRandomIds,
  createRuntime,
  createSeededIds,
  DEMO_COMPANY,
  errorAnswer,
  HttpError,
  hashToken,
  type IdGenerator,
  type Logger,
  type MemorySnapshot,
  type MemoryStore,
  type Runtime,
  requestIdOf,
  resumeSeededIds,
  type SeededIds,
  type Store,
  silentLogger,
} from '@engagekit/runtime';
import { type ChannelState, createMockChannel, type MessageOutcome, type MockChannel, type MockMessage } from './internal/channel.ts';
import { createMockClock, type MockClock } from './internal/clock.ts';
import { CONTROL_PREFIX, createControlApp } from './internal/control.ts';
import { createFaults, delay, type Fault, type FaultOptions, faultCode, MockNetworkError, parseFault } from './internal/faults.ts';
import { createJournal, type MockRequest, type RequestFilter } from './internal/journal.ts';
import { createMockFetch } from './internal/mock-fetch.ts';
import { type LoadedData, loadData, type MockData, parseMockData } from './internal/sample-data.ts';
import { companyState, type MockState } from './internal/state.ts';
import { readyCompanyToken } from './internal/token.ts';
import {
  createWebhookSink,
  MOCK_WEBHOOK_SECRET,
  MOCK_WEBHOOK_URL,
  type MockWebhook,
  type WaitForWebhookOptions,
  type WebhookListener,
} from './internal/webhook-sink.ts';

/** The mock's company unless you choose another: the public docs' example company, as the reference server seeds it. */
export const DEFAULT_COMPANY = DEMO_COMPANY;

/** The admin token unless you choose another (`adminToken`, or `ADMIN_TOKEN` in HTTP mode). */
export const DEFAULT_ADMIN_TOKEN = 'engagekit-mock-admin-token';

/** The key the mock signs company tokens with unless you choose another; a mock token is worth nothing anywhere else. */
export const DEFAULT_JWT_SECRET = 'engagekit-mock-jwt-secret-not-for-production';

/** Seconds before each webhook attempt: fast, so a test sees a retry within a second. */
export const MOCK_RETRY_SCHEDULE = [0, 0.1, 0.3, 1];

/** Options of the mock; every one has a default. */
export interface MockApiOptions {
  /** Where your code sends agency (and admin) calls. Default `http://localhost:3000`. */
  baseUrl?: string;
  /** Where your code sends order calls. Default: `baseUrl`. */
  orderBaseUrl?: string;
  /** Makes generated ids (and so everything built from them) the same run after run; `reset()` starts the sequence again. */
  seed?: number | string;
  /** The admin token the mock accepts. Default `DEFAULT_ADMIN_TOKEN`. */
  adminToken?: string;
  /** The ready company. Default `DEFAULT_COMPANY`. */
  company?: { uuid?: string; company_id?: string; name?: string; timezone?: string };
  /** Signs company tokens (at least 32 characters). Default `DEFAULT_JWT_SECRET`. */
  jwtSecret?: string;
  /** Requests a minute per token; default 0, no limit. */
  rateLimitPerMinute?: number;
  /**
   * The mock's time (campaign runs, token expiry, webhook timestamps and retries). `'manual'`: a clock
   * that starts at the real time and moves only with `mock.clock.set()` and `mock.clock.advance()`,
   * which runs what falls due (and is back at its start after `reset()`). Default: the real clock, on
   * which campaigns run when due, as on the server.
   */
  clock?: Clock | 'manual';
  /** How many of the newest requests `mock.requests()` keeps. Default 1000; 0 keeps none. */
  requestLog?: number;
  /**
   * Register a webhook endpoint for the company at start and after every reset: to `url` (a receiver
   * you run, reached with the global fetch) or, without `url`, in-process to `onWebhook()` listeners.
   * Signed with `secret` (default `MOCK_WEBHOOK_SECRET`); retried on `retrySchedule` (default `MOCK_RETRY_SCHEDULE`).
   * `onWebhook` is a listener that, unlike those `mock.onWebhook()` adds, survives `reset()`.
   */
  webhooks?: { url?: string; events?: EventType[]; secret?: string; retrySchedule?: number[]; onWebhook?: WebhookListener };
  /** Sample data loaded through the API at start and after every reset (`ready` resolves when it is in). */
  data?: MockData;
  /** Where the app logs (default: nowhere). */
  logger?: Logger;
}

/** The mock's company: ready at once, with a company token (agency and orders scopes, expiring in 2100). */
export interface MockCompany {
  uuid: string;
  company_id: string;
  name: string;
  token: string;
}

/** A fetch function: a URL (absolute, or a path under `baseUrl`) or a Request. */
export type MockFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

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

/** The mock's state from its start, its last reset or restore: a store and the runtime over it. */
interface Generation {
  id: number;
  store: MemoryStore;
  ids: IdGenerator;
  runtime: Runtime;
  channel: MockChannel;
  dispatcherStarted: boolean;
  endpointMade: boolean;
}

/** A request's body as JSON; undefined when it is empty or not JSON. */
async function jsonOf(request: Request): Promise<unknown> {
  const text = await request.text().catch(() => '');
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Splits a base URL into its origin and its path prefix (no trailing slash). */
function parseBase(url: string) {
  const u = new URL(url);
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
}

/**
 * Creates the mock's core (no interception: see `setupMockApi` and `setupMockWorker`). Ready at once:
 * the company and its token exist when this returns.
 *
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const res = await mock.fetch(`/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${mock.company.token}` } });
 */
export function createMockApi(options: MockApiOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const orderBaseUrl = (options.orderBaseUrl ?? baseUrl).replace(/\/+$/, '');
  const bases = [parseBase(baseUrl), parseBase(orderBaseUrl)];
  const prefixed = bases.filter((b) => b.prefix !== '');
  const adminToken = options.adminToken ?? DEFAULT_ADMIN_TOKEN;
  const jwtSecret = options.jwtSecret ?? DEFAULT_JWT_SECRET;
  if (jwtSecret.length < 32) throw new TypeError('jwtSecret must be at least 32 characters.');
  if (options.data !== undefined) parseMockData(options.data, 'The data option');
  const clock = createMockClock(options.clock, () => current.runtime);
  const journal = createJournal(options.requestLog ?? 1000);
  const logger = options.logger ?? silentLogger;
  const given = { ...DEFAULT_COMPANY, ...options.company };
  // Kept and compared in lower case, as the API compares the uuids it is given.
  const companyRecord = { ...given, uuid: canonicalUuid(given.uuid) };
  const company: MockCompany = {
    uuid: companyRecord.uuid,
    company_id: companyRecord.company_id,
    name: companyRecord.name,
    token: readyCompanyToken(jwtSecret, companyRecord.uuid),
  };
  const webhookSecret = options.webhooks?.secret ?? MOCK_WEBHOOK_SECRET;
  const retrySchedule = options.webhooks?.retrySchedule ?? MOCK_RETRY_SCHEDULE;
  const config = { jwtSecret, adminTokenHash: hashToken(adminToken), rateLimitPerMinute: options.rateLimitPerMinute ?? 0, webhookAllowPrivate: true };

  let seed = options.seed;
  const faults = createFaults();
  const sink = createWebhookSink();
  let current: Generation;
  /** The API, made by the first generation and shared by the ones after it. */
  let app: App | undefined;
  /** Loading of the `data` option for the current generation; `loading` until it settles. */
  let dataLoad: Promise<void> = Promise.resolve();
  let loading = false;
  let closed = false;

  /** A fresh store holding only the company, or what `from` held: everything synchronous. */
  function newGeneration(from?: MockSnapshot): Generation {
    const store = createMemoryStore();
    const ids: IdGenerator = from && from.ids !== null ? resumeSeededIds(from.ids) : seed === undefined ? createRandomIds() : createSeededIds(seed);
    const id = sink.nextGeneration();
    const channel = createMockChannel(clock, from?.channel);
    const runtime = createRuntime({
      store,
      clock,
      ids,
      logger,
      config,
      channel: channel.channel,
      fetch: sink.sender(id),
      // batchWrites off: a test that saw a webhook arrive reads its delivery record at once.
      webhooks: { retrySchedule, batchWrites: false },
      // While the `data` option loads, every other request waits (handle()): what is answered then is
      // the loading, which the journal leaves out, as it holds what the code under test sent.
      onAnswered: ({ request, operationId, body, status, at }) => {
        if (!loading) journal.record({ method: request.method, url: request.url, headers: request.headers, operationId, body, status, at });
      },
      // One app for the mock's life: each generation points it at its own store.
      app,
    });
    app = runtime.app;
    const gen: Generation = { id, store, ids, runtime, channel, dispatcherStarted: false, endpointMade: from?.endpointMade ?? false };
    // The memory store does all its work before its promise settles, so the company exists on return.
    if (from) store.restore(from.store);
    else void store.createCompany({ ...companyRecord, created_at: clock.now().toISOString() });
    // On a manual clock, campaigns run as `clock.advance()` reaches them.
    if (!clock.manual) runtime.scheduler.start();
    // Start the dispatcher when the first delivery is queued: a mock that never sends keeps no dispatcher running.
    void store.onDeliveriesQueued(() => {
      if (gen.dispatcherStarted || closed || gen !== current) return;
      gen.dispatcherStarted = true;
      void runtime.dispatcher.start();
    });
    return gen;
  }

  function makeEndpoint(gen: Generation, url: string) {
    const now = clock.now().toISOString();
    gen.endpointMade = true;
    void gen.store.createEndpoint({
      id: gen.ids.newId('wh'),
      company_uuid: company.uuid,
      url,
      description: 'engagekit mock endpoint',
      events: options.webhooks?.events ?? [],
      enabled: true,
      disabled_reason: null,
      secret: webhookSecret,
      previous_secrets: [],
      created_at: now,
      updated_at: now,
    });
  }

  /** Only the `webhooks.onWebhook` option's listener stays across a reset or a restore. */
  function resetListeners() {
    sink.listeners.clear();
    if (options.webhooks?.onWebhook) sink.listeners.add(options.webhooks.onWebhook);
  }

  function start() {
    current = newGeneration();
    resetListeners();
    if (options.webhooks) makeEndpoint(current, options.webhooks.url ?? MOCK_WEBHOOK_URL);
    if (!options.data) {
      loading = false;
      dataLoad = Promise.resolve();
      return;
    }
    loading = true;
    const load = loadData(options.data, { send: route, baseUrl, company, adminToken }).then(() => {});
    dataLoad = load;
    // A refusal surfaces through `ready`, never as an unhandled rejection; calls go on with what got in.
    load
      .catch(() => {})
      .finally(() => {
        if (dataLoad === load) loading = false;
      });
  }

  /** Rewrites a request under a base URL with a path prefix to the path the app routes on. */
  async function toAppRequest(request: Request, url: URL): Promise<{ request: Request; path: string }> {
    for (const base of prefixed) {
      if (url.origin !== base.origin || !(url.pathname === base.prefix || url.pathname.startsWith(`${base.prefix}/`))) continue;
      const path = url.pathname.slice(base.prefix.length) || '/';
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      return {
        request: new Request(`${url.origin}${path}${url.search}`, { method: request.method, headers: request.headers, body, signal: request.signal }),
        path,
      };
    }
    return { request, path: url.pathname };
  }

  /** Faults, the control endpoints, then the app. A fault's delay follows `signal`. */
  async function route(incoming: Request, signal: AbortSignal = incoming.signal): Promise<Response> {
    const { request, path } =
      prefixed.length > 0 ? await toAppRequest(incoming, new URL(incoming.url)) : { request: incoming, path: new URL(incoming.url).pathname };
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return control.fetch(request);
    if (faults.size > 0) {
      const operationId = matchOperation(request.method, path)?.operation.operationId;
      const fault = operationId && faults.take(operationId);
      if (operationId && fault) {
        if (fault.delayMs) await delay(fault.delayMs, signal);
        // A request a fault answers is in the journal too; one only delayed goes on to the app, which logs it.
        if (fault.network || fault.status) {
          const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await jsonOf(request);
          const status = fault.network ? null : (fault.status as number);
          journal.record({ method: request.method, url: request.url, headers: request.headers, operationId, body, status, at: clock.now() });
        }
        if (fault.network) throw new MockNetworkError(operationId);
        if (fault.status) return faultResponse(operationId, fault, request);
      }
    }
    return current.runtime.app.fetch(request);
  }

  function faultResponse(operationId: OperationId, fault: FaultOptions, request: Request): Response {
    const status = fault.status as NonNullable<FaultOptions['status']>;
    const message = fault.message ?? `Simulated failure (engagekit mock): ${operationId} answered ${status}`;
    const headers = status === 429 || status === 503 ? { 'retry-after': String(fault.retryAfter ?? 0) } : undefined;
    return errorAnswer(new HttpError(status, message, { code: faultCode(fault), ...(headers ? { headers } : {}) }), requestIdOf(request, current.ids));
  }

  /** Every request: waits for sample data, when some is loading. `signal`: the caller's, when it is not the request's own (`mock.fetch`). */
  function handle(request: Request, signal?: AbortSignal): Promise<Response> {
    if (loading) return dataLoad.catch(() => {}).then(() => route(request, signal));
    return route(request, signal);
  }

  const fetch: MockFetch = createMockFetch(baseUrl, handle);

  /** The in-process endpoint, made on first use when the options asked for none. */
  function ensureEndpoint() {
    if (!current.endpointMade) makeEndpoint(current, MOCK_WEBHOOK_URL);
  }

  async function retire(gen: Generation) {
    await gen.runtime.close(500);
  }

  const api = {
    /** Agency and admin calls go here. */
    baseUrl,
    /** Order calls go here. */
    orderBaseUrl,
    /** The ready company and its token. */
    company,
    /** The admin token the mock accepts (`/api/v2/...`). */
    adminToken,
    /** The secret that signs webhooks to the endpoint the mock registers (`webhooks` option, `onWebhook()`). */
    webhookSecret,
    /**
     * Hands a request straight to the mock, no interception: for `createClient({ fetch: mock.fetch })`.
     * Any host is accepted; a path alone is taken under `baseUrl`. Works without `listen()`.
     */
    fetch,
    /** The mock as a `Request -> Response` handler (what MSW, the service worker and HTTP mode call). */
    handle: handle as (request: Request) => Promise<Response>,
    /** Resolves when the `data` option has been loaded (at once without one); rejects if it was refused. */
    get ready(): Promise<void> {
      return dataLoad;
    },
    /** The live store of the current state (replaced by `reset()`): for reads the API does not offer. */
    get store(): Store {
      return current.store;
    },
    /**
     * Makes the next call(s) of an operation fail or slow down. Faults are spent after `times` hits
     * (default 1) and cleared by `reset()`.
     * @example mock.fail('addOrder', { status: 503, times: 2 });
     * @example mock.fail('getCampaignData', { delayMs: 2000 });
     */
    fail(operationId: OperationId, faultOptions: FaultOptions): Fault {
      const fault = parseFault({ ...faultOptions, operationId }, 'fail(): ');
      return faults.add(fault.operationId, fault.options);
    },
    /** The faults still live. */
    faults: () => faults.list(),
    /** Removes every fault. */
    clearFaults: () => faults.clear(),
    /**
     * Back to the start: only the company and its token (plus the `webhooks` endpoint and `data`, when
     * set), no faults, no `onWebhook()` listeners (the `webhooks.onWebhook` option's stays), an empty
     * webhook log, the id sequence of `seed` from its start. Resolves when `data` is loaded again.
     */
    async reset(resetOptions: { seed?: number | string } = {}): Promise<void> {
      if (resetOptions.seed !== undefined) seed = resetOptions.seed;
      const old = current;
      faults.clear();
      journal.clear();
      clock.restart();
      start();
      await retire(old);
      await api.ready;
    },
    /**
     * The mock's time. With `clock: 'manual'`, `set()` puts it at a time and `advance('2h')` moves it
     * forward, running campaigns and webhook retries as they fall due.
     * @example await mock.clock.advance('1h'); expect(mock.messages({ campaignId })).toHaveLength(3);
     */
    clock: clock as MockClock,
    /** The messaging channel campaigns send through: set what it answers per phone number (or `'*'`). Cleared by `reset()`. */
    channel: {
      /** @example mock.channel.outcome('+14155550100', 'failed', { reason: 'not on WhatsApp' }); */
      outcome: (phoneNumber: string, status: MessageOutcome, outcomeOptions?: { reason?: string }) =>
        current.channel.outcome(phoneNumber, status, outcomeOptions),
      /** The outcomes set, by phone number. */
      outcomes: () => current.channel.outcomes(),
      /** Back to the simulated outcomes (deterministic under `seed`). */
      clearOutcomes: () => current.channel.clearOutcomes(),
    },
    /** The messages campaigns sent since the start or the last reset, oldest first: to whom, the template and its rendered variables, the outcome. */
    messages: (filter?: { campaignId?: string }): MockMessage[] => current.channel.messages(filter),
    /**
     * The requests your code sent (the newest `requestLog`, default 1000), oldest first: method, path,
     * operationId, query, JSON body, headers (token redacted) and the status answered. Cleared by `reset()`.
     * @example expect(mock.requests({ operationId: 'addOrder' })).toHaveLength(1);
     */
    requests: (filter?: RequestFilter): MockRequest[] => journal.list(filter),
    /** Forgets the requests logged so far. */
    clearRequests: () => journal.clear(),
    /**
     * The mock's state now: every record, the id sequence, the manual clock's time, channel outcomes and
     * messages sent. Much cheaper than `reset()` plus loading data again: load once, snapshot, and
     * `restore()` before each test.
     * @example const snap = mock.snapshot(); beforeEach(() => mock.restore(snap));
     */
    snapshot(): MockSnapshot {
      const ids = current.ids as Partial<SeededIds>;
      return {
        store: current.store.snapshot(),
        ids: ids.position ? ids.position() : null,
        clock: clock.manual ? clock.now().getTime() : null,
        channel: current.channel.snapshot(),
        endpointMade: current.endpointMade,
      };
    },
    /**
     * Back to a snapshot's state. As after `reset()`: no faults, no `onWebhook()` listeners (the
     * `webhooks.onWebhook` option's stays), an empty request journal and webhook log.
     */
    async restore(snapshot: MockSnapshot): Promise<void> {
      const old = current;
      faults.clear();
      journal.clear();
      current = newGeneration(snapshot);
      resetListeners();
      if (snapshot.clock !== null) clock.set(snapshot.clock);
      loading = false;
      dataLoad = Promise.resolve();
      await retire(old);
    },
    /** The company's state as the API shows it (default: the mock's company), for assertions. */
    async state(companyUuid: string = company.uuid): Promise<MockState> {
      const state = await companyState(current.store, companyUuid);
      if (!state) throw new TypeError(`state(): the mock has no company ${companyUuid}.`);
      return state;
    },
    /** Loads sample data through the API as the company; resolves to what was created. */
    async seed(data: MockData): Promise<LoadedData> {
      parseMockData(data, 'seed() data');
      return loadData(data, { send: handle, baseUrl, company, adminToken });
    },
    /**
     * Calls `listener` with every webhook the mock sends, until `reset()` or the returned function
     * removes it. Registers the in-process endpoint first if the `webhooks` option made none.
     */
    onWebhook(listener: WebhookListener): () => void {
      sink.listeners.add(listener);
      ensureEndpoint();
      return () => {
        sink.listeners.delete(listener);
      };
    },
    /** Every webhook request sent since the start or the last reset, oldest first (retries included). */
    get webhooks(): readonly MockWebhook[] {
      return sink.log;
    },
    /** Forgets the webhook log. */
    clearWebhooks: () => sink.clearLog(),
    /**
     * The first sent webhook matching `predicate` (already sent, or the next one); rejects after `timeoutMs` (5000).
     * @example const { event } = await mock.waitForWebhook((w) => w.event.type === 'order.created');
     */
    waitForWebhook: (predicate?: (webhook: MockWebhook) => boolean, waitOptions?: WaitForWebhookOptions) => sink.waitFor(predicate, waitOptions),
    /** Stops the webhook dispatcher and drops the state. */
    async close(): Promise<void> {
      closed = true;
      faults.clear();
      await retire(current);
    },
  };

  const control = createControlApp(
    {
      info: () => ({ company, adminToken, webhookSecret, baseUrl, orderBaseUrl, seed: seed ?? null }),
      reset: (o) => api.reset(o),
      fail: (input) => {
        const fault = parseFault(input);
        return faults.add(fault.operationId, fault.options);
      },
      faults: () => faults.list(),
      clearFaults: () => faults.clear(),
      state: (uuid) => api.state(uuid),
      get webhooks() {
        return sink.log;
      },
      clearWebhooks: () => sink.clearLog(),
      seed: (data) => api.seed(data),
      clock,
      channel: api.channel,
      messages: api.messages,
      requests: api.requests,
      clearRequests: api.clearRequests,
      snapshot: () => api.snapshot(),
      restore: (snapshot) => api.restore(snapshot as MockSnapshot),
    },
    (request) => requestIdOf(request, current.ids),
  );

  start();
  return api;
}

/** The mock's core: see `createMockApi`. */
export type MockApi = ReturnType<typeof createMockApi>;
