/**
 * The mock's core, for any runtime: the reference runtime (`createRuntime`: the app, the webhook
 * dispatcher and the campaign scheduler) over an in-memory store, plus a clock a test can move,
 * channel outcomes, a request journal, snapshots, faults, state, webhooks and the control endpoints.
 * `setupMockApi` (Node, MSW), `setupMockWorker` (browsers, MSW's service worker) and the
 * `engagekit-mock` HTTP mode all wrap this one object.
 */
import type { OperationId } from '@engagekit/contract';
import { requestIdOf, type Store } from '@engagekit/runtime';
import type { MessageOutcome, MockMessage } from './internal/channel.ts';
import { createMockClock, type MockClock } from './internal/clock.ts';
import { type ControlTarget, createControlApp } from './internal/control.ts';
import { createFaults, type Fault, type FaultOptions, parseFault } from './internal/faults.ts';
import { type Generation, Generations, type MockSnapshot } from './internal/generations.ts';
import { createJournal, type Journal, type MockRequest, type RequestFilter } from './internal/journal.ts';
import { createMockFetch } from './internal/mock-fetch.ts';
import { createRouter, parseBase } from './internal/router.ts';
import { type LoadedData, loadData, type MockData, parseMockData } from './internal/sample-data.ts';
import { companyState, type MockState } from './internal/state.ts';
import { createWebhookSink, type MockWebhook, type WaitForWebhookOptions, type WebhookListener, type WebhookSink } from './internal/webhook-sink.ts';
import { type MockApiOptions, type MockCompany, type MockFetch, settingsOf } from './mock-options.ts';

export type { MockSnapshot } from './internal/generations.ts';
export {
  DEFAULT_ADMIN_TOKEN,
  DEFAULT_COMPANY,
  DEFAULT_JWT_SECRET,
  MOCK_RETRY_SCHEDULE,
  type MockApiOptions,
  type MockCompany,
  type MockFetch,
  type WebhookDelivery,
} from './mock-options.ts';

/**
 * The mock's core (no interception: see `setupMockApi` and `setupMockWorker`). Every member works
 * detached from the object (`const { fetch, reset } = mock`). `createMockApi(options)` makes one, as
 * `new MockApi(options)` does; every mock is one (`mock instanceof MockApi`), `setupMockApi`'s and
 * `setupMockWorker`'s too.
 */
export class MockApi {
  /** Agency and admin calls go here. */
  readonly baseUrl: string;
  /** Order calls go here. */
  readonly orderBaseUrl: string;
  /** The ready company and its token. */
  readonly company: MockCompany;
  /** The admin token the mock accepts (`/api/v2/...`). */
  readonly adminToken: string;
  /** The secret that signs webhooks to the endpoint the mock registers (`webhooks` option, `onWebhook()`). */
  readonly webhookSecret: string;
  /**
   * The mock's time. With `clock: 'manual'`, `set()` puts it at a time and `advance('2h')` moves it
   * forward, running campaigns and webhook retries as they fall due.
   * @example await mock.clock.advance('1h'); expect(mock.messages({ campaignId })).toHaveLength(3);
   */
  readonly clock: MockClock;
  /**
   * Hands a request straight to the mock, no interception: for `createClient({ fetch: mock.fetch })`.
   * Any host is accepted; a path alone is taken under `baseUrl`. Works without `listen()`.
   */
  readonly fetch: MockFetch;
  /** The mock as a `Request -> Response` handler (what MSW, the service worker and HTTP mode call). */
  readonly handle: (request: Request) => Promise<Response>;

  readonly #options: MockApiOptions;
  readonly #clock: ReturnType<typeof createMockClock>;
  readonly #faults = createFaults();
  readonly #journal: Journal;
  readonly #sink: WebhookSink;
  readonly #generations: Generations;
  /** Sends a request to the mock without waiting for sample data (what loads the sample data). */
  readonly #route: (request: Request) => Promise<Response>;

  constructor(options: MockApiOptions) {
    const settings = settingsOf(options);
    this.#options = options;
    this.baseUrl = settings.baseUrl;
    this.orderBaseUrl = settings.orderBaseUrl;
    this.company = settings.company;
    this.adminToken = settings.adminToken;
    this.webhookSecret = settings.webhookSecret;
    this.#journal = createJournal(options.requestLog ?? 1000);
    this.#sink = createWebhookSink(settings.webhookDelivery === 'record');
    const clock = createMockClock(options.clock, () => this.#generations.current.runtime);
    this.clock = clock;
    this.#clock = clock;
    this.#generations = new Generations(
      { ...settings, company: settings.companyRecord, webhooks: options.webhooks, clock, journal: this.#journal, sink: this.#sink },
      options.seed,
    );
    const control = createControlApp(this.#controlTarget(), (request) => requestIdOf(request, this.#generations.current.ids));
    const prefixed = [parseBase(this.baseUrl), parseBase(this.orderBaseUrl)].filter((b) => b.prefix !== '');
    const router = createRouter({ prefixed, control, faults: this.#faults, journal: this.#journal, clock, generations: this.#generations });
    this.#route = router.route;
    this.handle = router.handle;
    this.fetch = createMockFetch(this.baseUrl, router.handle);
    this.#loadData(this.#generations.current);
  }

  /** Loads the `data` option into `gen` through the API; requests to `gen` wait for it. */
  #loadData(gen: Generation): void {
    const data = this.#options.data;
    if (!data) return;
    gen.loading = true;
    const load = loadData(data, { send: this.#route, baseUrl: this.baseUrl, company: this.company, adminToken: this.adminToken }).then(() => {});
    gen.ready = load;
    // A refusal surfaces through `ready`, never as an unhandled rejection; calls go on with what got in.
    load
      .catch(() => {})
      .finally(() => {
        gen.loading = false;
      });
  }

  /** Resolves when the `data` option has been loaded (at once without one); rejects if it was refused. */
  get ready(): Promise<void> {
    return this.#generations.current.ready;
  }

  /** The live store of the current state (replaced by `reset()`): for reads the API does not offer. */
  get store(): Store {
    return this.#generations.current.store;
  }

  /**
   * Makes the next call(s) of an operation fail or slow down. Faults are spent after `times` hits
   * (default 1) and cleared by `reset()`.
   * @example mock.fail('addOrder', { status: 503, times: 2 });
   * @example mock.fail('getCampaignData', { delayMs: 2000 });
   */
  readonly fail = (operationId: OperationId, faultOptions: FaultOptions): Fault => {
    const fault = parseFault({ ...faultOptions, operationId }, 'fail(): ');
    return this.#faults.add(fault.operationId, fault.options);
  };
  /** The faults still live. */
  readonly faults = () => this.#faults.list();
  /** Removes every fault. */
  readonly clearFaults = () => this.#faults.clear();

  /**
   * Back to the start: only the company and its token (plus the `webhooks` endpoint and `data`, when
   * set), no faults, no `onWebhook()` listeners (the `webhooks.onWebhook` option's stays), an empty
   * webhook log, the id sequence of `seed` from its start. Resolves when `data` is loaded again.
   */
  readonly reset = async (resetOptions: { seed?: number | string } = {}): Promise<void> => {
    if (resetOptions.seed !== undefined) this.#generations.seed = resetOptions.seed;
    this.#faults.clear();
    this.#journal.clear();
    this.#clock.restart();
    const retired = this.#generations.replace();
    this.#loadData(this.#generations.current);
    await retired;
    await this.ready;
  };

  /** The messaging channel campaigns send through: set what it answers per phone number (or `'*'`). Cleared by `reset()`. */
  readonly channel = {
    /** @example mock.channel.outcome('+14155550100', 'failed', { reason: 'not on WhatsApp' }); */
    outcome: (phoneNumber: string, status: MessageOutcome, outcomeOptions?: { reason?: string }) =>
      this.#generations.current.channel.outcome(phoneNumber, status, outcomeOptions),
    /** The outcomes set, by phone number. */
    outcomes: () => this.#generations.current.channel.outcomes(),
    /** Back to the simulated outcomes (deterministic under `seed`). */
    clearOutcomes: () => this.#generations.current.channel.clearOutcomes(),
  };
  /** The messages campaigns sent since the start or the last reset, oldest first: to whom, the template and its rendered variables, the outcome. */
  readonly messages = (filter?: { campaignId?: string }): MockMessage[] => this.#generations.current.channel.messages(filter);

  /**
   * The requests your code sent (the newest `requestLog`, default 1000), oldest first: method, path,
   * operationId, query, JSON body, headers (token redacted) and the status answered. Cleared by `reset()`.
   * @example expect(mock.requests({ operationId: 'addOrder' })).toHaveLength(1);
   */
  readonly requests = (filter?: RequestFilter): MockRequest[] => this.#journal.list(filter);
  /** Forgets the requests logged so far. */
  readonly clearRequests = () => this.#journal.clear();

  /**
   * The mock's state now: every record, the id sequence, the manual clock's time, channel outcomes and
   * messages sent. Much cheaper than `reset()` plus loading data again: load once, snapshot, and
   * `restore()` before each test.
   * @example const snap = mock.snapshot(); beforeEach(() => mock.restore(snap));
   */
  readonly snapshot = (): MockSnapshot => this.#generations.snapshot();
  /**
   * Back to a snapshot's state. As after `reset()`: no faults, no `onWebhook()` listeners (the
   * `webhooks.onWebhook` option's stays), an empty request journal and webhook log.
   */
  readonly restore = async (snapshot: MockSnapshot): Promise<void> => {
    this.#faults.clear();
    this.#journal.clear();
    const retired = this.#generations.replace(snapshot);
    if (snapshot.clock !== null) this.clock.set(snapshot.clock);
    await retired;
  };

  /** The company's state as the API shows it (default: the mock's company), for assertions. */
  readonly state = async (companyUuid: string = this.company.uuid): Promise<MockState> => {
    const state = await companyState(this.#generations.current.store, companyUuid);
    if (!state) throw new TypeError(`state(): the mock has no company ${companyUuid}.`);
    return state;
  };
  /** Loads sample data through the API as the company; resolves to what was created. */
  readonly seed = async (data: MockData): Promise<LoadedData> => {
    parseMockData(data, 'seed() data');
    return loadData(data, { send: this.handle, baseUrl: this.baseUrl, company: this.company, adminToken: this.adminToken });
  };

  /**
   * Calls `listener` with every webhook the mock sends, until `reset()` or the returned function
   * removes it. Registers the in-process endpoint first if the `webhooks` option made none.
   */
  readonly onWebhook = (listener: WebhookListener): (() => void) => {
    this.#sink.listeners.add(listener);
    this.#generations.ensureEndpoint();
    return () => {
      this.#sink.listeners.delete(listener);
    };
  };
  /** Every webhook request sent since the start or the last reset, oldest first (retries included). */
  get webhooks(): readonly MockWebhook[] {
    return this.#sink.log;
  }
  /** Forgets the webhook log. */
  readonly clearWebhooks = () => this.#sink.clearLog();
  /**
   * The first sent webhook matching `predicate` (already sent, or the next one); rejects after `timeoutMs` (5000).
   * @example const { event } = await mock.waitForWebhook((w) => w.event.type === 'order.created');
   */
  readonly waitForWebhook = (predicate?: (webhook: MockWebhook) => boolean, waitOptions?: WaitForWebhookOptions) => this.#sink.waitFor(predicate, waitOptions);

  /** Stops the webhook dispatcher and drops the state. */
  readonly close = async (): Promise<void> => {
    this.#faults.clear();
    await this.#generations.close();
  };

  /** What the control endpoints drive: this mock, a fault given as a request's body. */
  #controlTarget(): ControlTarget {
    const sink = this.#sink;
    return {
      info: () => ({
        company: this.company,
        adminToken: this.adminToken,
        webhookSecret: this.webhookSecret,
        baseUrl: this.baseUrl,
        orderBaseUrl: this.orderBaseUrl,
        seed: this.#generations.seed ?? null,
      }),
      reset: this.reset,
      fail: (input) => {
        const fault = parseFault(input);
        return this.#faults.add(fault.operationId, fault.options);
      },
      faults: this.faults,
      clearFaults: this.clearFaults,
      state: this.state,
      get webhooks() {
        return sink.log;
      },
      clearWebhooks: this.clearWebhooks,
      seed: this.seed,
      clock: this.#clock,
      channel: this.channel,
      messages: this.messages,
      requests: this.requests,
      clearRequests: this.clearRequests,
      snapshot: this.snapshot,
      restore: (snapshot) => this.restore(snapshot as MockSnapshot),
    };
  }
}

/**
 * Creates the mock's core (no interception: see `setupMockApi` and `setupMockWorker`). Ready at once:
 * the company and its token exist when this returns.
 *
 * @example
 * const mock = createMockApi({ seed: 1 });
 * const res = await mock.fetch(`/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${mock.company.token}` } });
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return new MockApi(options);
}
