/**
 * The health probe of server.health.pglite.p99, in a process of its own so that the load generator's
 * work does not delay it: prints `ready`, waits PROBE_DELAY_MS, then for PROBE_DURATION_MS sends
 * GET PROBE_URL one request at a time on one kept-alive connection, a request every PROBE_INTERVAL_MS
 * (or at once when the last took longer), and prints `probe: {"ms": [...], "statuses": {...}}`.
 */
import { Agent, request } from 'node:http';

const url = new URL(process.env.PROBE_URL ?? '');
const interval = Number(process.env.PROBE_INTERVAL_MS ?? 50);
const delay = Number(process.env.PROBE_DELAY_MS ?? 0);
const duration = Number(process.env.PROBE_DURATION_MS ?? 1000);
/** A probe slower than this fails the run: the server is not answering at all. */
const TIMEOUT_MS = 60_000;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET: its status and wall time in ms, from the request to the answer's last byte. */
function probe(): Promise<{ status: number; ms: number }> {
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const req = request(url, { agent, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => ok({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in ${TIMEOUT_MS} ms`)));
    req.on('error', fail);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

console.log('ready');
await sleep(delay);
const ms: number[] = [];
const statuses: Record<number, number> = {};
const end = performance.now() + duration;
while (performance.now() < end) {
  const t0 = performance.now();
  const r = await probe();
  ms.push(r.ms);
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  await sleep(Math.max(0, interval - (performance.now() - t0)));
}
console.log(`probe: ${JSON.stringify({ ms, statuses })}`);
agent.destroy();
