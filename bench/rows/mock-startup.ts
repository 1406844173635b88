/** The mock's start rows: spawn to first answer of its command, and the CPU of loading its Node entry. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import { atMost, type Bench, inTurns, median, row, turnsNote } from '../lib.ts';
import { freePort, spawnUntilHealthy, stopChild } from '../processes.ts';
import { CAMPAIGN, MOCK_CLI, STARTUP_PEER } from './mock-common.ts';

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
      await stopChild(child);
      return ms;
    };
    const bareServer = (preload?: string) => async () => {
      const port = await freePort();
      const peerEnv = { ...env, PORT: String(port), PEER_BODY: body, ...(preload ? { PEER_PRELOAD: preload } : {}) };
      const { child, ms } = await spawnUntilHealthy(process.execPath, [STARTUP_PEER], port, peerEnv);
      await stopChild(child);
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
        goal: atMost(1.8),
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

/** msw/node's CommonJS file as the mock resolves it: the very copy, which the bench's own msw, installed beside other peers, is not. */
function mswNodeEntry(): string {
  return createRequire(new URL('../../packages/mock-server/package.json', import.meta.url)).resolve('msw/node');
}

/**
 * The mock's Node entry, as a partner's Jest suite loads it, vs msw/node, which handwritten handlers
 * load. A third side in the same turns, msw/node and then zod's main entry (`mock.load.floor.vs-msw`),
 * is the floor of a mock on msw whose contract is written in zod, before any code of ours. Its processes
 * then require the mock's entry too, read apart: the note says what it adds there. (The entry carries
 * the runtime, the contract and its own zod, tree-shaken, and msw's code, since msw ships only ES
 * modules; Node's own modules that both need, msw/node has loaded.)
 */
export const mockLoad: Bench = {
  id: 'mock.load.vs-msw',
  async run() {
    const zod = zodEntry('require');
    const msw = mswNodeEntry();
    const parts: number[][] = [];
    const floor = async () => {
      const at = await requireCpuSteps(msw, zod, '@engagekit/mock-server/node');
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
        note: `msw/node and zod by turn: ${turnsNote(r.floor)}; then, in the same processes (medians): zod ${partMedian(0)} ms of it, the mock's entry (the runtime, the contract, zod and msw's code it carries) ${partMedian(1)}`,
        ours: Math.round(r.floor.median),
        peer: Math.round(r.peer.median),
        unit: 'ms CPU',
        better: 'lower',
      }),
    ];
  },
};

/** CPU milliseconds (user + system) a fresh Node process spends running `script` (an ES module), read inside it from its first line to its last. */
async function scriptCpuMs(script: string): Promise<number> {
  const timed = `const c0 = process.cpuUsage();\n${script}\nconst u = process.cpuUsage(c0);\nconsole.log((u.user + u.system) / 1000);`;
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', timed], { cwd: BENCH_DIR });
  return Number(stdout.trim().split('\n').at(-1));
}

/**
 * What a partner's test file pays before its first answer, in a fresh process: import the mock's Node
 * entry and the SDK, `setupMockApi` with a campaign in its data, and one SDK `campaigns.get` through
 * `mock.fetch`; against msw with one handwritten handler answering the same call (msw/node, msw and the
 * SDK imported, `setupServer(...).listen()`, the same SDK call). CPU time read inside each process.
 */
export const mockFirstAnswer: Bench = {
  id: 'mock.first-answer.vs-msw',
  async run() {
    const baseUrl = 'http://mock.bench';
    // The campaign the seeded mock makes from its data, and its answer, for the handwritten side.
    const probe = setupMockApi({ baseUrl, seed: 1, data: { campaigns: [CAMPAIGN] } });
    await probe.ready;
    const client = createClient({ baseUrl, token: probe.company.token, uuid: probe.company.uuid, fetch: probe.fetch, maxRetries: 0 });
    const [campaign] = (await client.campaigns.list()).data;
    if (!campaign) throw new Error('mock.first-answer: the data option made no campaign');
    const answer = await (
      await probe.fetch(`/agency/getCampaign/${campaign.id}?uuid=${probe.company.uuid}`, { headers: { authorization: `Bearer ${probe.company.token}` } })
    ).json();
    await probe.close();
    const auth = JSON.stringify({ baseUrl, token: probe.company.token, uuid: probe.company.uuid, maxRetries: 0 });
    const check = `if (got.id !== ${JSON.stringify(campaign.id)}) throw new Error('wrong campaign');`;
    const ours = () =>
      scriptCpuMs(`const { setupMockApi } = await import('@engagekit/mock-server/node');
const { createClient } = await import('@engagekit/sdk');
const mock = setupMockApi({ baseUrl: ${JSON.stringify(baseUrl)}, seed: 1, data: { campaigns: [${JSON.stringify(CAMPAIGN)}] } });
await mock.ready;
const got = await createClient({ ...${auth}, fetch: mock.fetch }).campaigns.get(${JSON.stringify(campaign.id)});
${check}`);
    const peer = () =>
      scriptCpuMs(`const { setupServer } = await import('msw/node');
const { http, HttpResponse } = await import('msw');
const { createClient } = await import('@engagekit/sdk');
const server = setupServer(http.get(${JSON.stringify(`${baseUrl}/agency/getCampaign/:id`)}, () => HttpResponse.json(${JSON.stringify(answer)})));
server.listen({ onUnhandledFrame: 'error' });
const got = await createClient(${auth}).campaigns.get(${JSON.stringify(campaign.id)});
${check}
server.close();`);
    const r = await inTurns(15, { ours, peer }, { warmUp: true });
    return row({
      id: 'mock.first-answer.vs-msw',
      metric:
        'a fresh process to the first answered SDK campaigns.get: import the mock and the SDK, setupMockApi with a campaign in its data, the call through mock.fetch; vs msw/node with one handwritten handler answering the same call; CPU ms read inside each process, medians of 15 in turns',
      note: `ours by turn: ${turnsNote(r.ours)}; msw: ${turnsNote(r.peer)}`,
      ours: Math.round(r.ours.median),
      peer: Math.round(r.peer.median),
      unit: 'ms CPU',
      better: 'lower',
      goal: atMost(1.4),
    });
  },
};

export const benches: Bench[] = [mockStartup, mockLoad, mockFirstAnswer];
