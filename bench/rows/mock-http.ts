/** The HTTP mock's rows: its command's throughput and its process's CPU a request, against a bare node:http server. */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { atMost, type Bench, inTurns, loadTest, row, turnsNote } from '../lib.ts';
import { cpuSeconds, freePort, spawnUntilHealthy, startPeerServer, startPrism, stopChild } from '../processes.ts';
import { CAMPAIGN, HONO_PEER, MOCK_CLI, STARTUP_PEER } from './mock-common.ts';

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
  // The peers answer every request with the very body the mock gives for this campaign, and the Hono
  // floor with the headers it gives too (its own x-request-id each time).
  const answer = await fetch(base + path, { headers });
  const answerHeaders = Object.fromEntries([...answer.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  const body = await answer.text();
  return { child, base, path, body, answerHeaders, headers: { authorization: `Bearer ${token}` } };
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
      await stopChild(mock.child);
      await stopChild(prism.child);
    }
  },
};

const CPU_REQUESTS = 40_000;

/** CPU seconds the process `pid` has used so far; it must still run. */
function cpuOf(pid: number): number {
  const seconds = cpuSeconds(pid);
  if (seconds === null) throw new Error(`no /proc/${pid}/stat: the process is gone`);
  return seconds;
}

/** CPU microseconds the process `pid` uses a request while autocannon sends it `CPU_REQUESTS` requests at 50 connections. */
async function cpuPerRequest(pid: number, url: string, headers: Record<string, string>): Promise<number> {
  const before = cpuOf(pid);
  const result = await autocannon({ url, connections: 50, amount: CPU_REQUESTS, headers });
  const used = (cpuOf(pid) - before) * 1e6;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`cpuPerRequest(${url}): ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return used / CPU_REQUESTS;
}

/**
 * CPU a request of the HTTP mock's process against a bare node:http server's process (the plain
 * module `startup-peer.mjs`) answering the same body to the same requests, in turns. The server's own
 * CPU time, read from /proc around a fixed number of requests, does not swing with the load
 * generator's share of the cores as req/s does. A third side, a bare Hono app on the adapter the mock
 * runs on answering the same body and headers (`hono-peer.mjs`), is the floor of any app served so
 * (`mock.http.cpu.floor.vs-node-http`, reported): what is above it is the mock's own work.
 */
export const mockHttpCpu: Bench = {
  id: 'mock.http.cpu.vs-node-http',
  async run() {
    const mock = await httpMockWithCampaign();
    const peerPort = await freePort();
    const peer = await spawnUntilHealthy(process.execPath, [STARTUP_PEER], peerPort, { PORT: String(peerPort), PEER_BODY: mock.body });
    const honoPort = await freePort();
    const hono = await spawnUntilHealthy(process.execPath, [HONO_PEER], honoPort, {
      PORT: String(honoPort),
      PEER_BODY: mock.body,
      PEER_HEADERS: JSON.stringify(mock.answerHeaders),
    });
    try {
      const pidOf = (child: ChildProcess) => child.pid as number;
      const r = await inTurns(
        5,
        {
          ours: () => cpuPerRequest(pidOf(mock.child), mock.base + mock.path, mock.headers),
          peer: () => cpuPerRequest(pidOf(peer.child), `http://127.0.0.1:${peerPort}${mock.path}`, mock.headers),
          hono: () => cpuPerRequest(pidOf(hono.child), `http://127.0.0.1:${honoPort}${mock.path}`, mock.headers),
        },
        { warmUp: true },
      );
      const metric = `engagekit-mock getCampaign: CPU time (user + system, /proc) of its process a request over ${CPU_REQUESTS.toLocaleString('en')} requests at 50 connections (autocannon), vs a bare node:http server's process answering the same body to the same requests; a warm-up turn of each, then 5 rounds in turns`;
      const tenths = (median: number) => Math.round(median * 10) / 10;
      return [
        row({
          id: 'mock.http.cpu.vs-node-http',
          metric,
          note: `µs CPU a request by round: engagekit-mock ${turnsNote(r.ours, 1)}; node:http ${turnsNote(r.peer, 1)}; a bare Hono app on @hono/node-server ${turnsNote(r.hono, 1)}`,
          ours: tenths(r.ours.median),
          peer: tenths(r.peer.median),
          unit: 'µs CPU',
          better: 'lower',
          goal: atMost(2.5),
        }),
        row({
          id: 'mock.http.cpu.floor.vs-node-http',
          metric: `${metric}; ours: a bare Hono app on @hono/node-server (the mock's adapter) answering the same body with the mock's headers, a third side of the same turns`,
          ours: tenths(r.hono.median),
          peer: tenths(r.peer.median),
          unit: 'µs CPU',
          better: 'lower',
        }),
      ];
    } finally {
      await stopChild(hono.child);
      await stopChild(peer.child);
      await stopChild(mock.child);
    }
  },
};

export const benches: Bench[] = [mockHttp, mockHttpCpu];
