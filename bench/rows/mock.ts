import { type ChildProcess, spawn } from 'node:child_process';
import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import { freePort } from '../../packages/reference-server/test/helpers.ts';
import { type Bench, loadTest, median, row, sideBySide } from '../lib.ts';

const DOCUMENT = new URL('../../packages/contract/openapi.yaml', import.meta.url).pathname;
const PRISM = new URL('../node_modules/.bin/prism', import.meta.url).pathname;
// The bin users run (the bundled CLI once built, as `pnpm build` does).
const MOCK_CLI = new URL('../../packages/mock-server/dist/cli.js', import.meta.url).pathname;

/** Spawns a server and resolves once GET /api/v2/health answers 200, with the milliseconds that took. */
async function spawnUntilHealthy(command: string, args: string[], port: number): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, ADMIN_TOKEN: 'bench-admin-token-0123456789' } });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/health`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, ms: performance.now() - t0 };
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command} ${args.join(' ')} did not answer in 30 s`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });

const startPrism = async () => {
  const port = await freePort();
  const { child } = await spawnUntilHealthy(PRISM, ['mock', DOCUMENT, '--port', String(port), '--host', '127.0.0.1', '-v', 'error'], port);
  return { url: `http://127.0.0.1:${port}`, child };
};

/** SDK operations a second over `seconds` with `concurrency` callers. */
async function opsPerSecond(call: () => Promise<unknown>, seconds = 3, concurrency = 10): Promise<number> {
  for (let i = 0; i < 100; i++) await call();
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** The in-process and MSW rows share one Prism figure, measured in the same run. */
export const mockInProcess: Bench = {
  id: 'mock.inprocess.vs-prism',
  async run() {
    const prism = await startPrism();
    const mock = setupMockApi({ baseUrl: 'http://mock.bench', seed: 1 });
    try {
      const created = await createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch }).campaigns.create({
        name: 'bench',
        schedule_type: 'once',
        schedule: '2030-01-15T10:00:00Z',
        template_payload: { template_name: 'welcome' },
      });
      const viaFetch = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
      const viaMsw = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, maxRetries: 0 });
      // Prism drops kept-alive sockets now and then: the SDK's default retries carry its calls over that.
      const viaPrism = createClient({ baseUrl: prism.url, token: mock.company.token, uuid: mock.company.uuid });
      const prismOps: number[] = [];
      const fetchOps: number[] = [];
      const mswOps: number[] = [];
      for (let round = 0; round < 3; round++) {
        fetchOps.push(await opsPerSecond(() => viaFetch.campaigns.get(created.id)));
        prismOps.push(await opsPerSecond(() => viaPrism.campaigns.get(created.id)));
      }
      // MSW intercepts the global fetch (Prism's calls too) while it listens: its rounds come last.
      await mock.listen();
      for (let round = 0; round < 3; round++) mswOps.push(await opsPerSecond(() => viaMsw.campaigns.get(created.id)));
      const prismMedian = median(prismOps);
      return [
        row({
          id: 'mock.inprocess.vs-prism',
          metric: 'SDK campaigns.get ops/s through mock.fetch vs Prism over HTTP',
          ours: Math.round(median(fetchOps)),
          peer: Math.round(prismMedian),
          unit: 'ops/s',
          better: 'higher',
          goal: '>= 20',
          check: (ratio) => ratio >= 20,
        }),
        row({
          id: 'mock.msw.vs-prism',
          metric: 'SDK campaigns.get ops/s through MSW interception vs Prism over HTTP',
          ours: Math.round(median(mswOps)),
          peer: Math.round(prismMedian),
          unit: 'ops/s',
          better: 'higher',
          goal: 'report',
        }),
      ];
    } finally {
      await mock.close();
      await stop(prism.child);
    }
  },
};

/** The HTTP mock's req/s at 50 connections vs Prism's, on getCampaign. */
export const mockHttp: Bench = {
  id: 'mock.http.vs-prism',
  async run() {
    const port = await freePort();
    const { child } = await spawnUntilHealthy(process.execPath, [MOCK_CLI, '--port', String(port), '--seed', '1'], port);
    const prism = await startPrism();
    try {
      const base = `http://127.0.0.1:${port}`;
      const { data: info } = await (await fetch(`${base}/__mock`)).json();
      const { token, uuid } = info.company as { token: string; uuid: string };
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const created = await (
        await fetch(`${base}/agency/createCampaign?uuid=${uuid}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'bench', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'w' } }),
        })
      ).json();
      const path = `/agency/getCampaign/${created.data.id}?uuid=${uuid}`;
      const r = await sideBySide(
        3,
        () => loadTest({ url: base + path, connections: 50, seconds: 3, headers: { authorization: `Bearer ${token}` } }),
        () => loadTest({ url: prism.url + path, connections: 50, seconds: 3, headers: { authorization: `Bearer ${token}` } }),
      );
      return row({
        id: 'mock.http.vs-prism',
        metric: 'HTTP mock getCampaign req/s at 50 connections vs Prism (quiet logging)',
        ours: Math.round(r.ours),
        peer: Math.round(r.peer),
        unit: 'req/s',
        better: 'higher',
        goal: '>= 4',
        check: (ratio) => ratio >= 4,
      });
    } finally {
      await stop(child);
      await stop(prism.child);
    }
  },
};

/** Spawn to first 200: the HTTP mock vs Prism. */
export const mockStartup: Bench = {
  id: 'mock.startup.vs-prism',
  async run() {
    const ours = async () => {
      const port = await freePort();
      const { child, ms } = await spawnUntilHealthy(process.execPath, [MOCK_CLI, '--port', String(port)], port);
      await stop(child);
      return ms;
    };
    const peer = async () => {
      const port = await freePort();
      const { child, ms } = await spawnUntilHealthy(PRISM, ['mock', DOCUMENT, '--port', String(port), '--host', '127.0.0.1', '-v', 'error'], port);
      await stop(child);
      return ms;
    };
    const r = await sideBySide(5, ours, peer);
    return row({
      id: 'mock.startup.vs-prism',
      metric: 'spawn to first 200 on /api/v2/health',
      ours: Math.round(r.ours),
      peer: Math.round(r.peer),
      unit: 'ms',
      better: 'lower',
      goal: '<= 0.3',
      check: (ratio) => ratio <= 0.3,
    });
  },
};

export const benches: Bench[] = [mockInProcess, mockHttp, mockStartup];
