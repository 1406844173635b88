/**
 * `@engagekit/mock-server/node`: the engagekit API mocked in-process for Node test suites. The mock
 * IS the reference server's app on an in-memory store, so it cannot disagree with the server.
 */
import type { HttpHandler, UnhandledFrameHandle } from 'msw';
import { setupServer } from 'msw/node';
import { MockListenError, runtimeWithoutInterception } from './internal/interception.ts';
import { createMockHandlers, webhookPassthroughHandler } from './internal/msw-handlers.ts';
import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.ts';

export * from './index.ts';
export { MockListenError } from './internal/interception.ts';

/** Options of `listen()`. */
export interface ListenOptions {
  /** What MSW does with requests the mock does not own (other hosts): MSW's own option, default `'warn'`. */
  onUnhandledFrame?: UnhandledFrameHandle;
}

/** The in-process mock: everything of `createMockApi`, plus MSW interception. */
export interface SetupMockApi extends MockApi {
  /**
   * Intercepts every request to `baseUrl` and `orderBaseUrl` made through the global fetch (or any
   * client MSW intercepts) and hands it to the mock. Idempotent. Node only: under Bun or Deno, where
   * MSW would let the requests through to the network, it throws a `MockListenError` naming
   * `mock.fetch`, which works everywhere.
   */
  listen(options?: ListenOptions): void;
  /** Stops intercepting, stops the webhook dispatcher, drops the state. */
  close(): Promise<void>;
  /** The MSW handlers, for a suite that runs its own `setupServer`: `server.use(...mock.handlers)`. */
  readonly handlers: HttpHandler[];
}

/**
 * The engagekit API, mocked in-process: returns at once with a ready company and token.
 *
 * @example
 * import { setupMockApi } from '@engagekit/mock-server/node';
 * const mock = setupMockApi({ baseUrl: 'https://api.engagekit.test', seed: 1 });
 * beforeAll(() => mock.listen());
 * afterEach(() => mock.reset());
 * afterAll(() => mock.close());
 * // or, without interception: createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch })
 */
export function setupMockApi(options: MockApiOptions = {}): SetupMockApi {
  const mock = createMockApi(options);
  const handlers = createMockHandlers(mock);
  const closeCore = mock.close;
  let server: ReturnType<typeof setupServer> | undefined;
  return Object.assign(mock, {
    handlers,
    listen(listenOptions: ListenOptions = {}) {
      if (server) return;
      const runtime = runtimeWithoutInterception();
      if (runtime) throw new MockListenError(runtime, mock.baseUrl);
      server = setupServer(...handlers, webhookPassthroughHandler());
      server.listen({ onUnhandledFrame: listenOptions.onUnhandledFrame ?? 'warn' });
    },
    async close() {
      server?.close();
      server = undefined;
      await closeCore();
    },
  });
}
