import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import autocannon from 'autocannon';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { freePort } from '../../packages/reference-server/test/helpers.ts';
import { atLeast, atMost, type Bench, inTurns, loadTest, median, row, sideBySide, turnsNote } from '../lib.ts';

const DOCUMENT = new URL('../../packages/contract/openapi.yaml', import.meta.url).pathname;
const PRISM = new URL('../node_modules/.bin/prism', import.meta.url).pathname;
// The command users run: bin/engagekit-mock.js, which imports the bundled CLI (dist/cli.js, built by `pnpm build`).
const MOCK_CLI = new URL('../../packages/mock-server/bin/engagekit-mock.js', import.meta.url).pathname;
// The peer of mock.startup.vs-node-http and mock.http.cpu.vs-node-http: a bare node:http server as an ES module.
const STARTUP_PEER = new URL('../startup-peer.mjs', import.meta.url).pathname;
const BENCH_DIR = new URL('..', import.meta.url).pathname;
const execFileAsync = promisify(execFile);

/**
 * The file of zod's main entry that the mock loads (zod as the runtime resolves it), for an ES module
 * import or a `require`: the floor rows load it beside their peers.
 */
function zodEntry(kind: 'import' | 'require'): string {
  const manifest = createRequire(new URL('../../packages/runtime/package.json', import.meta.url)).resolve('zod/package.json');
  const entry = JSON.parse(readFileSync(manifest, 'utf8')).exports['.'][kind] as string;
  return join(dirname(manifest), entry);
}

/** Spawns a server and resolves once GET /api/v2/health answers 200, with the milliseconds that took. */
async function spawnUntilHealthy(
  command: string,
  args: string[],
  port: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, ADMIN_TOKEN: 'bench-admin-token-0123456789', ...env } });
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

/** A campaign body the rows create. */
const CAMPAIGN = { name: 'bench', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } } as const;

/** SDK campaigns.get through `mock.fetch` vs the same SDK against Prism over HTTP, in turns. */
export const mockInProcess: Bench = {
  id: 'mock.inprocess.vs-prism',
  async run() {
    const prism = await startPrism();
    const mock = setupMockApi({ baseUrl: 'http://mock.bench', seed: 1 });
    try {
      const created = await createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch }).campaigns.create(
        CAMPAIGN,
      );
      const viaFetch = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
      // Prism drops kept-alive sockets now and then: the SDK's default retries carry its calls over that.
      const viaPrism = createClient({ baseUrl: prism.url, token: mock.company.token, uuid: mock.company.uuid });
      const r = await inTurns(
        3,
        { ours: () => opsPerSecond(() => viaFetch.campaigns.get(created.id)), prism: () => opsPerSecond(() => viaPrism.campaigns.get(created.id)) },
        { warmUp: true },
      );
      return row({
        id: 'mock.inprocess.vs-prism',
        metric: 'SDK campaigns.get ops/s through mock.fetch vs Prism over HTTP (10 concurrent callers, 3 rounds of 3 s in turns after a warm-up turn of each)',
        note: `ops/s by round: mock.fetch ${turnsNote(r.ours)}; prism ${turnsNote(r.prism)}`,
        ours: Math.round(r.ours.median),
        peer: Math.round(r.prism.median),
        unit: 'ops/s',
        better: 'higher',
        goal: atLeast(20),
      });
    } finally {
      await mock.close();
      await stop(prism.child);
    }
  },
};

/**
 * SDK campaigns.get through `mock.listen()` (MSW intercepting the global fetch) vs one handwritten MSW
 * handler answering the same JSON. Only one MSW server may intercept at a time: each round listens and
 * closes each side in turn (a new mock each round, same seed, so the same campaign id).
 */
export const mockMsw: Bench = {
  id: 'mock.msw.vs-msw-handwritten',
  async run() {
    const baseUrl = 'http://mock.bench';
    const probe = setupMockApi({ baseUrl, seed: 1 });
    const auth = { baseUrl, token: probe.company.token, uuid: probe.company.uuid, maxRetries: 0 };
    const created = await createClient({ ...auth, fetch: probe.fetch }).campaigns.create(CAMPAIGN);
    const answer = await probe.fetch(`/agency/getCampaign/${created.id}?uuid=${probe.company.uuid}`, {
      headers: { authorization: `Bearer ${probe.company.token}` },
    });
    const sameBody = (await answer.json()) as Record<string, unknown>;
    await probe.close();
    const client = createClient(auth);
    // CPU microseconds a call, beside ops/s: both sides run in this process, so on a shared machine it says more.
    const cpuPerCall: { ours: number[]; peer: number[] } = { ours: [], peer: [] };
    const measure = async (side: 'ours' | 'peer') => {
      const c0 = process.cpuUsage();
      let calls = 0;
      const ops = await opsPerSecond(() => {
        calls++;
        return client.campaigns.get(created.id);
      }, 1.5);
      const cpu = process.cpuUsage(c0);
      cpuPerCall[side].push((cpu.user + cpu.system) / calls);
      return ops;
    };
    const ours = async () => {
      const mock = setupMockApi({ baseUrl, seed: 1 });
      await createClient({ ...auth, fetch: mock.fetch }).campaigns.create(CAMPAIGN);
      mock.listen({ onUnhandledFrame: 'error' });
      try {
        return await measure('ours');
      } finally {
        await mock.close();
      }
    };
    const peer = async () => {
      const server = setupServer(http.get(`${baseUrl}/agency/getCampaign/:id`, () => HttpResponse.json(sameBody)));
      server.listen({ onUnhandledFrame: 'error' });
      try {
        return await measure('peer');
      } finally {
        server.close();
      }
    };
    const r = await sideBySide(9, ours, peer);
    return row({
      id: 'mock.msw.vs-msw-handwritten',
      metric:
        'SDK campaigns.get ops/s through mock.listen() (MSW) vs one handwritten MSW handler answering the same JSON (10 concurrent callers, 9 rounds of 1.5 s in turns)',
      ours: Math.round(r.ours),
      peer: Math.round(r.peer),
      unit: 'ops/s',
      better: 'higher',
      goal: atLeast(0.9),
      note: `CPU a call (median): ours ${median(cpuPerCall.ours).toFixed(0)} µs, peer ${median(cpuPerCall.peer).toFixed(0)} µs`,
    });
  },
};

/** The three calls of one partner test case: create a campaign, get it, list the campaigns. */
async function partnerCase(client: ReturnType<typeof createClient>, i: number) {
  const campaign = await client.campaigns.create({ ...CAMPAIGN, name: `case ${i}` });
  const again = await client.campaigns.get(campaign.id);
  const page = await client.campaigns.list();
  if (again.id !== campaign.id || page.data.length !== 1) throw new Error(`partner case ${i}: got ${again.id}, ${page.data.length} campaigns`);
}

const CASES = 1000;

/**
 * A partner's suite of 1,000 cases, each from a clean state then create + get + list through the SDK:
 * on the mock (`mock.reset()` before each case, `mock.fetch`) vs what partners write today, handwritten
 * MSW handlers for those three operations over an array cleared before each case (`resetHandlers()`).
 */
export const mockPartnerSuite: Bench = {
  id: 'mock.partner-suite',
  async run() {
    const baseUrl = 'http://mock.bench';
    const mock = setupMockApi({ baseUrl, seed: 1 });
    const client = createClient({ baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
    const ours = async () => {
      const t0 = performance.now();
      for (let i = 0; i < CASES; i++) {
        await mock.reset();
        await partnerCase(client, i);
      }
      return performance.now() - t0;
    };
    // The handwritten peer: what a partner's test file holds without the mock.
    let campaigns: Record<string, unknown>[] = [];
    const envelope = (data: unknown) => ({ success: true, message: 'ok', data });
    const server = setupServer(
      http.post(`${baseUrl}/agency/createCampaign`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        const now = new Date().toISOString();
        const campaign = {
          id: `cmp_${campaigns.length + 1}`,
          uuid: mock.company.uuid,
          status: 'scheduled',
          days: null,
          startDate: '2030-01-15',
          endDate: null,
          next_run_at: '2030-01-15T10:00:00.000Z',
          created_at: now,
          updated_at: now,
          ...body,
        };
        campaigns.push(campaign);
        return HttpResponse.json(envelope(campaign), { status: 201 });
      }),
      http.get(`${baseUrl}/agency/getCampaign/:id`, ({ params }) => {
        const campaign = campaigns.find((c) => c.id === params.id);
        return campaign ? HttpResponse.json(envelope(campaign)) : HttpResponse.json({ success: false, message: 'No campaign data found.' }, { status: 404 });
      }),
      http.get(`${baseUrl}/agency/getCampaignData`, ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page') ?? 1);
        const limit = Number(url.searchParams.get('limit') ?? 10);
        const data = campaigns.slice((page - 1) * limit, page * limit);
        return HttpResponse.json({ ...envelope(data), pagination: { total: campaigns.length, page, limit, totalPages: Math.ceil(campaigns.length / limit) } });
      }),
    );
    const viaMsw = createClient({ baseUrl, token: mock.company.token, uuid: mock.company.uuid, maxRetries: 0 });
    const peer = async () => {
      server.listen({ onUnhandledFrame: 'error' });
      try {
        const t0 = performance.now();
        for (let i = 0; i < CASES; i++) {
          server.resetHandlers();
          campaigns = [];
          await partnerCase(viaMsw, i);
        }
        return performance.now() - t0;
      } finally {
        server.close();
      }
    };
    try {
      const r = await sideBySide(3, ours, peer);
      return row({
        id: 'mock.partner-suite',
        metric: `${CASES} test cases, each mock.reset() then SDK campaigns.create + get + list through mock.fetch, vs handwritten MSW handlers (array cleared, resetHandlers()); total ms`,
        ours: Math.round(r.ours),
        peer: Math.round(r.peer),
        unit: 'ms',
        better: 'lower',
        goal: atMost(0.5),
      });
    } finally {
      await mock.close();
    }
  },
};

const HEAP_LIMIT_BYTES = 2 * 1024 * 1024;
const HEAP_MOCKS = 20;

/** 100 mixed requests a test might make: campaigns created, read and listed, orders added, customers listed. */
async function hundredRequests(mock: ReturnType<typeof setupMockApi>) {
  const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push((await client.campaigns.create({ ...CAMPAIGN, name: `c${i}` })).id);
  for (let i = 0; i < 40; i++) await client.campaigns.get(ids[i % ids.length] as string);
  for (let i = 0; i < 20; i++) await client.campaigns.list({ page: 1, limit: 10 });
  for (let i = 0; i < 20; i++) {
    await client.orders.add({
      company_id: mock.company.company_id,
      company_order_id: `ORD-${i}`,
      totalAmount: 10 + i,
      firstName: `C${i}`,
      phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
      postalCode: '94107',
      streetAddress1: '1 Market St',
    });
  }
  for (let i = 0; i < 10; i++) await client.customers.list({ page: 1, limit: 10 });
}

/** Heap one `setupMockApi()` retains after 100 requests (20 mocks kept alive, averaged), vs a 2 MB limit. */
export const mockInstanceHeap: Bench = {
  id: 'mock.instance.heap',
  async run() {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 10));
        gc();
      }
      return process.memoryUsage().heapUsed;
    };
    // A first mock loads and compiles what every mock shares (modules, schemas): not one instance's cost.
    const warm = setupMockApi({ seed: 1 });
    await hundredRequests(warm);
    await warm.close();
    const perMock: number[] = [];
    for (let round = 0; round < 3; round++) {
      const before = await settle();
      const kept = [];
      for (let i = 0; i < HEAP_MOCKS; i++) {
        const mock = setupMockApi({ seed: i + 1 });
        await hundredRequests(mock);
        kept.push(mock);
      }
      const after = await settle();
      perMock.push((after - before) / kept.length);
      for (const mock of kept) await mock.close();
    }
    const ours = Math.round(median(perMock) / 1024);
    return row({
      id: 'mock.instance.heap',
      metric: `heap retained by one setupMockApi() after 100 mixed requests through mock.fetch (${HEAP_MOCKS} mocks kept alive, after gc, median of 3 rounds), vs a 2 MB limit`,
      ours,
      peer: HEAP_LIMIT_BYTES / 1024,
      unit: 'KiB',
      better: 'lower',
      goal: atMost(1),
    });
  },
};

/** The HTTP mock (the command), one campaign in it, and the request the HTTP rows send: its getCampaign. */
async function httpMockWithCampaign() {
  const port = await freePort();
  const { child } = await spawnUntilHealthy(process.execPath, [MOCK_CLI, '--port', String(port), '--seed', '1'], port);
  const base = `http://127.0.0.1:${port}`;
  const { data: info } = await (await fetch(`${base}/__mock`)).json();
  const { token, uuid } = info.company as { token: string; uuid: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await (await fetch(`${base}/agency/createCampaign?uuid=${uuid}`, { method: 'POST', headers, body: JSON.stringify(CAMPAIGN) })).json();
  const path = `/agency/getCampaign/${created.data.id}?uuid=${uuid}`;
  // The peers answer every request with the very body the mock gives for this campaign.
  const body = await (await fetch(base + path, { headers })).text();
  return { child, base, path, body, headers: { authorization: `Bearer ${token}` } };
}

/**
 * The HTTP mock's getCampaign req/s at 50 connections vs a bare node:http server answering the same
 * body, in turns (ours, the peer, Prism), medians of 3 rounds; reported. Wall-clock throughput here
 * is the load generator's and the server's share of two cores: `mock.http.cpu.vs-node-http` measures
 * the server's own CPU, and carries the goal.
 */
export const mockHttp: Bench = {
  id: 'mock.http.vs-node-http',
  async run() {
    const { startPeerServer } = await import('../lib.ts');
    const mock = await httpMockWithCampaign();
    const prism = await startPrism();
    const peer = await startPeerServer(mock.body);
    try {
      const load = (url: string) => loadTest({ url, connections: 50, seconds: 3, headers: mock.headers });
      const r = await inTurns(
        3,
        { ours: () => load(mock.base + mock.path), bare: () => load(peer.url + mock.path), prism: () => load(prism.url + mock.path) },
        { warmUp: true },
      );
      const note = `req/s by round: engagekit-mock ${turnsNote(r.ours)}; node:http ${turnsNote(r.bare)}; prism ${turnsNote(r.prism)}`;
      return [
        row({
          id: 'mock.http.vs-node-http',
          metric:
            'engagekit-mock getCampaign req/s at 50 connections vs a bare node:http server answering the same body (3 rounds of 3 s in turns after a warm-up turn of each)',
          note,
          ours: Math.round(r.ours.median),
          peer: Math.round(r.bare.median),
          unit: 'req/s',
          better: 'higher',
        }),
        row({
          id: 'mock.http.vs-prism',
          metric: 'the same engagekit-mock figure vs prism mock -v error on the same request (in turns)',
          note,
          ours: Math.round(r.ours.median),
          peer: Math.round(r.prism.median),
          unit: 'req/s',
          better: 'higher',
        }),
      ];
    } finally {
      await peer.stop();
      await stop(mock.child);
      await stop(prism.child);
    }
  },
};

/** Microseconds of CPU a clock tick of /proc's counters stands for. */
const TICK_MICROS = 1e6 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100);

/** CPU microseconds (user + system) the process `pid` has used so far, from /proc/<pid>/stat (Linux). */
function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command's name, which stands in parentheses and may hold spaces: the state
  // (field 3) first, so utime and stime (fields 14 and 15) are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
}

const CPU_REQUESTS = 40_000;

/** CPU microseconds the process `pid` uses a request while autocannon sends it `CPU_REQUESTS` requests at 50 connections. */
async function cpuPerRequest(pid: number, url: string, headers: Record<string, string>): Promise<number> {
  const before = processCpuMicros(pid);
  const result = await autocannon({ url, connections: 50, amount: CPU_REQUESTS, headers });
  const used = processCpuMicros(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`cpuPerRequest(${url}): ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return used / CPU_REQUESTS;
}

/**
 * CPU a request of the HTTP mock's process against a bare node:http server's process (the plain
 * module `startup-peer.mjs`) answering the same body to the same requests, in turns. The server's own
 * CPU time, read from /proc around a fixed number of requests, does not swing with the load
 * generator's share of the cores as req/s does.
 */
export const mockHttpCpu: Bench = {
  id: 'mock.http.cpu.vs-node-http',
  async run() {
    const mock = await httpMockWithCampaign();
    const peerPort = await freePort();
    const peer = await spawnUntilHealthy(process.execPath, [STARTUP_PEER], peerPort, { PORT: String(peerPort), PEER_BODY: mock.body });
    try {
      const pidOf = (child: ChildProcess) => child.pid as number;
      const r = await inTurns(
        5,
        {
          ours: () => cpuPerRequest(pidOf(mock.child), mock.base + mock.path, mock.headers),
          peer: () => cpuPerRequest(pidOf(peer.child), `http://127.0.0.1:${peerPort}${mock.path}`, mock.headers),
        },
        { warmUp: true },
      );
      return row({
        id: 'mock.http.cpu.vs-node-http',
        metric: `engagekit-mock getCampaign: CPU time (user + system, /proc) of its process a request over ${CPU_REQUESTS.toLocaleString('en')} requests at 50 connections (autocannon), vs a bare node:http server's process answering the same body to the same requests; a warm-up turn of each, then 5 rounds in turns`,
        note: `µs CPU a request by round: engagekit-mock ${turnsNote(r.ours, 1)}; node:http ${turnsNote(r.peer, 1)}`,
        ours: Math.round(r.ours.median * 10) / 10,
        peer: Math.round(r.peer.median * 10) / 10,
        unit: 'µs CPU',
        better: 'lower',
        goal: atMost(2.5),
      });
    } finally {
      await stop(peer.child);
      await stop(mock.child);
    }
  },
};

/**
 * Spawn to first 200: the HTTP mock against the runtime's own floor, a bare node:http server answering
 * the same body, in turns. Both with a compile cache of the row's own, filled by a start of each that is
 * not counted, as every start after a version's first one finds it. A third side in the same turns, the
 * same server importing zod first (`mock.startup.floor.vs-node-http`), is the floor of any mock whose
 * contract is written in zod: what the libraries cost before the mock's own code.
 */
export const mockStartup: Bench = {
  id: 'mock.startup.vs-node-http',
  async run() {
    const compileCache = mkdtempSync(join(tmpdir(), 'engagekit-bench-compile-cache-'));
    const env = { NODE_COMPILE_CACHE: compileCache };
    let body = '';
    const ours = async () => {
      const port = await freePort();
      const { child, ms } = await spawnUntilHealthy(process.execPath, [MOCK_CLI, '--port', String(port)], port, env);
      body ||= await (await fetch(`http://127.0.0.1:${port}/api/v2/health`)).text();
      await stop(child);
      return ms;
    };
    const bareServer = (preload?: string) => async () => {
      const port = await freePort();
      const peerEnv = { ...env, PORT: String(port), PEER_BODY: body, ...(preload ? { PEER_PRELOAD: preload } : {}) };
      const { child, ms } = await spawnUntilHealthy(process.execPath, [STARTUP_PEER], port, peerEnv);
      await stop(child);
      return ms;
    };
    const sides = { ours, peer: bareServer(), floor: bareServer(pathToFileURL(zodEntry('import')).href) };
    const r = await inTurns(9, sides, { warmUp: true }).finally(() => rmSync(compileCache, { recursive: true, force: true }));
    return [
      row({
        id: 'mock.startup.vs-node-http',
        metric: 'spawn to first 200 on /api/v2/health: engagekit-mock vs a bare node:http server answering the same body, medians of 9 in turns',
        note: `engagekit-mock by round: ${turnsNote(r.ours)} ms; node:http: ${turnsNote(r.peer)} ms`,
        ours: Math.round(r.ours.median),
        peer: Math.round(r.peer.median),
        unit: 'ms',
        better: 'lower',
        goal: atMost(1.3),
      }),
      row({
        id: 'mock.startup.floor.vs-node-http',
        metric:
          "the same node:http server importing zod's main entry (the one the mock loads) before it listens vs the bare one, in the same turns as mock.startup.vs-node-http: the floor under that row",
        note: `node:http with zod by round: ${turnsNote(r.floor)} ms`,
        ours: Math.round(r.floor.median),
        peer: Math.round(r.peer.median),
        unit: 'ms',
        better: 'lower',
      }),
    ];
  },
};

/**
 * CPU milliseconds (user + system) a fresh Node process spends in `require`s of modules, one after
 * another, read inside it: what each Jest test file pays, as Jest gives every file a module registry of
 * its own (node:test a process). CPU time: the wall time of the same loads spread a quarter either way here.
 */
async function requireCpuMs(...specifiers: string[]): Promise<number> {
  return (await requireCpuSteps(...specifiers)).at(-1) as number;
}

/** `requireCpuMs`, read after each `require`: the CPU milliseconds spent so far, one figure a module. */
async function requireCpuSteps(...specifiers: string[]): Promise<number[]> {
  const script = `const c = process.cpuUsage(); const at = []; for (const m of ${JSON.stringify(specifiers)}) { require(m); const u = process.cpuUsage(c); at.push((u.user + u.system) / 1000); } console.log(JSON.stringify(at));`;
  const { stdout } = await execFileAsync(process.execPath, ['-e', script], { cwd: BENCH_DIR });
  return JSON.parse(stdout) as number[];
}

/**
 * The CommonJS files the mock's Node entry requires, as it resolves them: msw/node (the very copy, which
 * the bench's own msw, installed beside other peers, is not), the runtime and the contract.
 */
function mockEntries(): { msw: string; runtime: string; contract: string } {
  const fromMock = createRequire(new URL('../../packages/mock-server/package.json', import.meta.url));
  const runtime = fromMock.resolve('@engagekit/runtime');
  return { msw: fromMock.resolve('msw/node'), runtime, contract: createRequire(runtime).resolve('@engagekit/contract') };
}

/**
 * The mock's Node entry, as a partner's Jest suite loads it, vs msw/node, which handwritten handlers
 * load. A third side in the same turns, msw/node and then zod's main entry (`mock.load.floor.vs-msw`),
 * is the floor of a mock on msw whose contract is written in zod, before any code of ours. Its processes
 * then require the contract, the runtime and the mock's entry too, each read apart: the note says what
 * each of our parts adds there. (The mock's CommonJS build carries msw's code, since msw ships only ES
 * modules, so its entry loads that copy too; Node's own modules that both need, msw/node has loaded.)
 */
export const mockLoad: Bench = {
  id: 'mock.load.vs-msw',
  async run() {
    const zod = zodEntry('require');
    const { msw, contract, runtime } = mockEntries();
    const parts: number[][] = [];
    const floor = async () => {
      const at = await requireCpuSteps(msw, zod, contract, runtime, '@engagekit/mock-server/node');
      parts.push(at.slice(1).map((ms, i) => ms - (at[i] as number)));
      return at[1] as number;
    };
    const sides = { ours: () => requireCpuMs('@engagekit/mock-server/node'), peer: () => requireCpuMs(msw), floor };
    const r = await inTurns(15, sides, { warmUp: true });
    const counted = parts.slice(1); // the warm-up turn's is not
    const partMedian = (i: number) => median(counted.map((p) => p[i] as number)).toFixed(1);
    return [
      row({
        id: 'mock.load.vs-msw',
        metric:
          "require('@engagekit/mock-server/node') in a fresh process vs require('msw/node'): CPU ms (user + system) read inside the process, medians of 15 in turns",
        note: `ours by turn: ${turnsNote(r.ours)}; msw/node: ${turnsNote(r.peer)}`,
        ours: Math.round(r.ours.median),
        peer: Math.round(r.peer.median),
        unit: 'ms CPU',
        better: 'lower',
        goal: atMost(1.4),
      }),
      row({
        id: 'mock.load.floor.vs-msw',
        metric:
          "require('msw/node') and then zod's main entry (the one the mock loads) in a fresh process vs require('msw/node'), in the same turns as mock.load.vs-msw: the floor under that row",
        note: `msw/node and zod by turn: ${turnsNote(r.floor)}; then, in the same processes (medians): zod ${partMedian(0)} ms of it, the contract ${partMedian(1)}, the runtime ${partMedian(2)}, the mock's entry with its copy of msw's code ${partMedian(3)}`,
        ours: Math.round(r.floor.median),
        peer: Math.round(r.peer.median),
        unit: 'ms CPU',
        better: 'lower',
      }),
    ];
  },
};

export const benches: Bench[] = [mockInProcess, mockMsw, mockPartnerSuite, mockInstanceHeap, mockHttp, mockHttpCpu, mockStartup, mockLoad];
