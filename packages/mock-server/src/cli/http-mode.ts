import { readFileSync } from 'node:fs';
import { type Http2Bindings, type HttpBindings, serve } from '@hono/node-server';
import { getPath } from 'hono/utils/url';
import { MockNetworkError } from '../internal/faults.ts';
import { noteRawHeaders } from '../internal/journal.ts';
import { type MockData, MockDataError, parseMockData } from '../internal/sample-data.ts';
import { createMockApi, DEFAULT_ADMIN_TOKEN, type MockApi, type MockApiOptions } from '../mock-api.ts';
import type { ServeOptions } from './options.ts';
import { SESSION_PREFIX, SESSIONS_PATH, Sessions } from './sessions.ts';

/** A running HTTP mock. */
interface RunningMock {
  url: string;
  /** The default session's mock: requests without a `/__session/{name}` prefix. */
  mock: MockApi;
  sessions: Sessions;
  /** The lines a person needs: tokens, the company, the control endpoints. */
  notices: string[];
  close(): Promise<void>;
}

const displayHost = (host: string) => (host.includes(':') ? `[${host}]` : host);

/** The sample data in `file`, checked; a MockDataError naming the file and what is wrong otherwise. */
function readDataFile(file: string): MockData {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MockDataError(`--data ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new MockDataError(`--data ${file} is not JSON: ${(e as Error).message}`);
  }
  return parseMockData(json, `--data ${file}`);
}

/** The options of every mock of the process, the default session's and each named one's: under `baseUrl`. */
function mockOptionsOf(opts: ServeOptions, data: MockData | undefined, baseUrl: string): MockApiOptions {
  return {
    baseUrl,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.adminToken ? { adminToken: opts.adminToken } : {}),
    ...(opts.webhookUrl ? { webhooks: { url: opts.webhookUrl } } : {}),
    ...(data ? { data } : {}),
    rateLimitPerMinute: opts.rateLimitPerMinute,
    ...(opts.manualClock ? { clock: 'manual' as const } : {}),
    ...(opts.webhookDelivery ? { webhookDelivery: opts.webhookDelivery } : {}),
  };
}

/** `request` answered by `mock`; a simulated network failure drops the connection. */
function answerWith(mock: MockApi, request: Request, env: HttpBindings | Http2Bindings): Promise<Response> {
  return mock.handle(request).catch((e: unknown) => {
    if (e instanceof MockNetworkError) {
      env.incoming.socket.destroy();
      return new Response(null, { status: 499 });
    }
    // The client went away while a fault held its answer back.
    if ((e as Error)?.name === 'AbortError') return new Response(null, { status: 499 });
    throw e;
  });
}

/**
 * Serves the memory engine on a port: the mock's handler (the reference app, faults and the
 * `/__mock` control endpoints) for requests without a prefix, and a session of its own under each
 * `/__session/{name}` (`sessions.ts`). A simulated network failure drops the connection.
 */
export async function serveMemoryMock(opts: ServeOptions): Promise<RunningMock> {
  const data = opts.dataFile ? readDataFile(opts.dataFile) : undefined;
  let mock: MockApi | undefined;
  let sessions: Sessions | undefined;
  /** The origin the mocks were made with: a session's request is put under it, whatever Host it came with. */
  let origin = '';
  const server = serve({
    hostname: opts.host,
    port: opts.port,
    fetch: (request: Request, env: HttpBindings | Http2Bindings) => {
      if (!mock || !sessions) return new Response('The mock is starting.', { status: 503, headers: { 'retry-after': '1' } });
      noteRawHeaders(request, env.incoming.rawHeaders);
      const path = getPath(request);
      if (path.startsWith(SESSION_PREFIX) || path === SESSIONS_PATH) {
        return sessions.route(request, path, (session, req) => answerWith(session, underOrigin(req, origin), env));
      }
      return answerWith(mock, request, env);
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', fail);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${displayHost(opts.host)}:${port}`;
  origin = url;
  mock = createMockApi(mockOptionsOf(opts, data, url));
  await mock.ready.catch(async (e: unknown) => {
    server.close();
    throw e instanceof MockDataError && opts.dataFile ? new MockDataError(`--data ${opts.dataFile}: ${e.message}`) : e;
  });
  sessions = new Sessions({
    idleMs: opts.sessionIdleMs,
    max: opts.maxSessions,
    make: (name) => createMockApi(mockOptionsOf(opts, data, `${url}${SESSION_PREFIX}${encodeURIComponent(name)}`)),
  });
  const notices = [
    opts.adminToken ? 'Admin token: the one in ADMIN_TOKEN' : `Admin token: ${DEFAULT_ADMIN_TOKEN} (set ADMIN_TOKEN to choose one)`,
    `Company: uuid ${mock.company.uuid}, company_id ${mock.company.company_id}`,
    `Company token (agency and orders): ${mock.company.token}`,
    `Webhook secret (endpoints the mock registers): ${mock.webhookSecret}${opts.webhookUrl ? `; endpoint: ${opts.webhookUrl}` : ''}`,
    `Control endpoints: ${url}/__mock (reset, fail, faults, seed, state, webhooks, clock, channel, messages, requests, snapshot, restore)`,
    `Sessions: ${url}${SESSION_PREFIX}{name} is a mock of its own, made on its first request (at most ${opts.maxSessions}, ended after ${opts.sessionIdleMs / 1000} s idle); GET ${url}${SESSIONS_PATH} lists them`,
  ];
  const running = mock;
  const live = sessions;
  return {
    url,
    mock: running,
    sessions: live,
    notices,
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      await live.close();
      await running.close();
    },
  };
}

/** `request` with its URL under `origin`, keeping its path (session prefix included), query, body and signal. */
function underOrigin(request: Request, origin: string): Request {
  const url = new URL(request.url);
  if (url.origin === origin) return request;
  return new Request(`${origin}${url.pathname}${url.search}`, request);
}
