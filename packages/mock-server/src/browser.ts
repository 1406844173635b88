/**
 * `@engagekit/mock-server/browser`: the engagekit API mocked inside a web app, through MSW's service
 * worker. Copy the worker script into the app's public directory first:
 * `npx engagekit-mock init public` (or `npx msw init public`).
 */
import type { HttpHandler, UnhandledFrameHandle } from 'msw';
import { setupWorker } from 'msw/browser';
import { createMockHandlers, webhookPassthroughHandler } from './internal/msw-handlers.ts';
import { createMockApi, type MockApi, type MockApiOptions } from './mock-api.ts';

export * from './index.ts';

/** Options of `start()`. */
export interface StartWorkerOptions {
  /** Where the app serves MSW's worker script. Default `/mockServiceWorker.js`. */
  serviceWorkerUrl?: string;
  /** Log every intercepted request in the console (default false). */
  logRequests?: boolean;
  /** What MSW does with requests the mock does not own: MSW's own option, default `'bypass'` (the app's own assets and APIs). */
  onUnhandledFrame?: UnhandledFrameHandle;
}

/** The mock in a browser: everything of `createMockApi`, plus the service worker. */
export interface SetupMockWorker extends MockApi {
  /** Registers the service worker and starts handing requests for `baseUrl` and `orderBaseUrl` to the mock. */
  start(options?: StartWorkerOptions): Promise<void>;
  /** Stops intercepting (the state stays). */
  stop(): void;
  /** Stops intercepting, stops the webhook dispatcher, drops the state. */
  close(): Promise<void>;
  /** The MSW handlers, for an app that runs its own `setupWorker`: `worker.use(...mock.handlers)`. */
  readonly handlers: HttpHandler[];
}

/**
 * The engagekit API, mocked in the browser: returns at once with a ready company and token.
 *
 * @example
 * import { setupMockWorker } from '@engagekit/mock-server/browser';
 * const mock = setupMockWorker({ baseUrl: 'https://api.engagekit.example', seed: 1 });
 * await mock.start();
 * // the app's own calls to https://api.engagekit.example now reach the mock
 */
export function setupMockWorker(options: MockApiOptions = {}): SetupMockWorker {
  const mock = createMockApi(options);
  const handlers = createMockHandlers(mock);
  const closeCore = mock.close;
  let worker: ReturnType<typeof setupWorker> | undefined;
  const stop = () => {
    worker?.stop();
    worker = undefined;
  };
  return Object.assign(mock, {
    handlers,
    async start(startOptions: StartWorkerOptions = {}) {
      if (worker) return;
      worker = setupWorker(...handlers, webhookPassthroughHandler());
      await worker.start({
        serviceWorker: { url: startOptions.serviceWorkerUrl ?? '/mockServiceWorker.js' },
        quiet: !startOptions.logRequests,
        onUnhandledFrame: startOptions.onUnhandledFrame ?? 'bypass',
      });
    },
    stop,
    async close() {
      stop();
      await closeCore();
    },
  });
}
