import { readFileSync } from 'node:fs';
import { type Http2Bindings, type HttpBindings, serve } from '@hono/node-server';
import { MockNetworkError } from '../internal/faults.ts';
import { type MockData, MockDataError, parseMockData } from '../internal/sample-data.ts';
import { createMockApi, DEFAULT_ADMIN_TOKEN, type MockApi } from '../mock-api.ts';
import type { ServeOptions } from './options.ts';

/** A running HTTP mock. */
interface RunningMock {
  url: string;
  mock: MockApi;
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

/**
 * Serves the memory engine on a port: the mock's handler (the reference app, faults and the
 * `/__mock` control endpoints). A simulated network failure drops the connection.
 */
export async function serveMemoryMock(opts: ServeOptions): Promise<RunningMock> {
  const data = opts.dataFile ? readDataFile(opts.dataFile) : undefined;
  let mock: MockApi | undefined;
  const server = serve({
    hostname: opts.host,
    port: opts.port,
    fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
      if (!mock) return new Response('The mock is starting.', { status: 503, headers: { 'retry-after': '1' } });
      try {
        return await mock.handle(request);
      } catch (e) {
        if (e instanceof MockNetworkError) {
          env.incoming.socket.destroy();
          return new Response(null, { status: 499 });
        }
        // The client went away while a fault held its answer back.
        if ((e as Error)?.name === 'AbortError') return new Response(null, { status: 499 });
        throw e;
      }
    },
  });
  await new Promise<void>((ok, fail) => {
    server.once('listening', ok);
    server.once('error', fail);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const url = `http://${displayHost(opts.host)}:${port}`;
  mock = createMockApi({
    baseUrl: url,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.adminToken ? { adminToken: opts.adminToken } : {}),
    ...(opts.webhookUrl ? { webhooks: { url: opts.webhookUrl } } : {}),
    ...(data ? { data } : {}),
    rateLimitPerMinute: opts.rateLimitPerMinute,
    ...(opts.manualClock ? { clock: 'manual' as const } : {}),
  });
  await mock.ready.catch(async (e: unknown) => {
    server.close();
    throw e instanceof MockDataError && opts.dataFile ? new MockDataError(`--data ${opts.dataFile}: ${e.message}`) : e;
  });
  const notices = [
    opts.adminToken ? 'Admin token: the one in ADMIN_TOKEN' : `Admin token: ${DEFAULT_ADMIN_TOKEN} (set ADMIN_TOKEN to choose one)`,
    `Company: uuid ${mock.company.uuid}, company_id ${mock.company.company_id}`,
    `Company token (agency and orders): ${mock.company.token}`,
    `Webhook secret (endpoints the mock registers): ${mock.webhookSecret}${opts.webhookUrl ? `; endpoint: ${opts.webhookUrl}` : ''}`,
    `Control endpoints: ${url}/__mock (reset, fail, faults, seed, state, webhooks, clock, channel, messages, requests, snapshot, restore)`,
  ];
  const running = mock;
  return {
    url,
    mock: running,
    notices,
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      await running.close();
    },
  };
}
