import { spawn } from 'node:child_process';
import { atMost, type Bench, loadTest, median, percentile, row } from '../lib.ts';
import { benchServer, startCommand } from './setup.ts';

/** The limit health's p99 is held to under load, ms. */
const LIMIT_MS = 100;
const CONNECTIONS = 200;
const ROUNDS = 3;
/** Each round's read load, s; the probe starts 1 s into it and stops sending 1 s before its end. */
const LOAD_SECONDS = 8;
const WARM_UP_SECONDS = 3;
const PROBE_INTERVAL_MS = 50;
/** Probing the idle server before any load, for the note. */
const IDLE_PROBE_MS = 2000;

/**
 * Runs bench/health-probe.ts against `url`: once it is ready, `whenReady` starts (the load), and the
 * probe sends from `delayMs` later for `durationMs`. Resolves to the probe's times, ms, and what
 * `whenReady` gave; every answer must be a 200.
 */
async function probeDuring<T>(url: string, delayMs: number, durationMs: number, whenReady: () => Promise<T>): Promise<{ ms: number[]; during: T }> {
  const child = spawn(process.execPath, [new URL('../health-probe.ts', import.meta.url).pathname], {
    env: {
      ...process.env,
      PROBE_URL: url,
      PROBE_INTERVAL_MS: String(PROBE_INTERVAL_MS),
      PROBE_DELAY_MS: String(delayMs),
      PROBE_DURATION_MS: String(durationMs),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const exited = new Promise<number | null>((ok) => child.once('exit', ok));
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('ready')) ok();
    });
    void exited.then((code) => fail(new Error(`health probe exited ${code} before it was ready`)));
  });
  const during = await whenReady();
  const code = await exited;
  const line = out.split('\n').find((l) => l.startsWith('probe: '));
  if (code !== 0 || !line) throw new Error(`health probe exited ${code}: ${out.trim().slice(-500)}`);
  const result = JSON.parse(line.slice('probe: '.length)) as { ms: number[]; statuses: Record<string, number> };
  const other = Object.entries(result.statuses).filter(([status]) => status !== '200');
  if (other.length > 0) throw new Error(`GET /api/v2/health answered other than 200: ${JSON.stringify(result.statuses)}`);
  return { ms: result.ms, during };
}

const summary = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });
const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));

/**
 * `GET /api/v2/health` latency on PGlite (a fresh DATA_DIR) while 200 connections read a campaign,
 * measured by a sequential client of its own every ~50 ms; p99 against a 100 ms limit.
 */
export const healthUnderLoad: Bench = {
  id: 'server.health.pglite.p99',
  async run() {
    const s = await benchServer('pglite', { LOG_LEVEL: 'warn' }, startCommand);
    try {
      const health = `${s.url}/api/v2/health`;
      // The reads of the server.read rows: one seeded campaign, with the company's token.
      const read = (seconds: number) => () =>
        loadTest({
          url: `${s.url}/agency/getCampaign/${s.campaignId}?uuid=${s.uuid}`,
          connections: CONNECTIONS,
          seconds,
          headers: { authorization: `Bearer ${s.token}` },
        });
      const idle = summary((await probeDuring(health, 0, IDLE_PROBE_MS, async () => null)).ms);
      // A warm-up turn of the reads, not counted: the server's first seconds run code its JIT has not optimised.
      const warmUp = await read(WARM_UP_SECONDS)();
      const rounds: { ms: number[]; readRate: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await probeDuring(health, 1000, (LOAD_SECONDS - 2) * 1000, read(LOAD_SECONDS));
        rounds.push({ ms: r.ms, readRate: r.during });
      }
      const all = summary(rounds.flatMap((r) => r.ms));
      const byRound = rounds
        .map((r) => {
          const x = summary(r.ms);
          return `${x.n} probes, p50 ${fmt(x.p50)}, p99 ${fmt(x.p99)}, max ${fmt(x.max)} ms, reads ${Math.round(r.readRate)} req/s`;
        })
        .join('; ');
      return row({
        id: 'server.health.pglite.p99',
        metric: `GET /api/v2/health p99 latency, a probe every ~${PROBE_INTERVAL_MS} ms on a connection of its own, while ${CONNECTIONS} connections read getCampaign (PGlite; ${ROUNDS} rounds of ${LOAD_SECONDS} s after a ${WARM_UP_SECONDS} s warm-up of the reads), against a ${LIMIT_MS} ms limit`,
        note: `all ${all.n} probes: p50 ${fmt(all.p50)} ms, p99 ${fmt(all.p99)} ms, max ${fmt(all.max)} ms; by round: ${byRound}; reads in the warm-up ${Math.round(warmUp)} req/s (median of rounds ${Math.round(median(rounds.map((r) => r.readRate)))}); idle, before any load: ${idle.n} probes, p50 ${fmt(idle.p50)} ms, p99 ${fmt(idle.p99)} ms`,
        ours: Math.round(all.p99 * 10) / 10,
        peer: LIMIT_MS,
        unit: 'ms',
        better: 'lower',
        goal: atMost(1, `limit ${LIMIT_MS} ms`),
      });
    } finally {
      await s.stop();
    }
  },
};

export const benches: Bench[] = [healthUnderLoad];
