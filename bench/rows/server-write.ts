import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { freshDatabase } from '../../packages/reference-server/test/helpers.ts';
import { atLeast, type Bench, inTurns, median, percentile, row, turnsNote } from '../lib.ts';
import { cpuSeconds, startPeerServer, startScriptServer } from '../processes.ts';
import { ADMIN_TOKEN, benchServer, startCommand } from './setup.ts';

const SECONDS = 4;
const ROUNDS = 3;
const CONNECTIONS = 50;
/** Sequential addOrder calls of each side for the single-connection latency: warm-up pairs, then measured pairs. */
const LATENCY_WARM_UP = 50;
const LATENCY_CALLS = 300;
/** How long a turn of ours may take to send its queued deliveries before the next turn starts. */
const DRAIN_MS = 30_000;

const MIGRATIONS = new URL('../../packages/reference-server/drizzle', import.meta.url).pathname;

/** The company both sides write for (its `company_id`). */
const COMPANY_ID = 'BENCH';

/** Orders made so far in this process: each body has a company_order_id and a phone number no other has. */
let made = 0;

/** A new order of a new customer: an addOrder body no earlier one shares a company_order_id or phone number with. */
function nextOrder(): string {
  made += 1;
  return JSON.stringify({
    company_id: COMPANY_ID,
    company_order_id: `W-${made}`,
    totalAmount: 100.5,
    firstName: 'Asha',
    lastName: 'Rao',
    phoneNumber: `+1415${String(made).padStart(7, '0')}`,
    postalCode: '560001',
    streetAddress1: '1 MG Road',
  });
}

/** A fresh key a request, as the SDK makes one for each write. */
const idempotencyKey = () => `engagekit-${randomUUID()}`;

/**
 * The peer's database: fresh, migrated with the reference server's migrations by drizzle's migrator,
 * with the company and its one webhook endpoint (enabled, every event type) pointing at `receiverUrl`.
 */
async function peerDatabase(receiverUrl: string) {
  const fresh = await freshDatabase('benchpeer');
  if (!fresh) throw new Error('DATABASE_URL is needed for the PostgreSQL rows');
  const client = new pg.Client({ connectionString: fresh.url });
  try {
    await client.connect();
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
    const uuid = randomUUID();
    await client.query(`INSERT INTO companies (uuid, company_id, name, timezone, created_at) VALUES ($1, $2, 'Bench', 'UTC', now())`, [uuid, COMPANY_ID]);
    await client.query(
      `INSERT INTO webhook_endpoints (id, company_uuid, url, description, events, enabled, secret, previous_secrets, created_at, updated_at)
       VALUES ('wh_bench', $1, $2, '', '[]', true, 'whsec_' || md5(random()::text), '[]', now(), now())`,
      [uuid, receiverUrl],
    );
  } catch (error) {
    await client.end().catch(() => {});
    await fresh.drop();
    throw error;
  }
  await client.end();
  return fresh;
}

/** CPU seconds the server processes of database `name` have used so far, by process id (`pg_stat_activity`, `/proc`). */
async function backendCpu(admin: pg.Client, name: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const s = cpuSeconds(pid);
    if (s !== null) cpu.set(pid, s);
  }
  return cpu;
}

/** What one turn of load gave. */
interface Turn {
  /** 201 answers a second. */
  rate: number;
  /** Server CPU a created order, ms (null without /proc). */
  serverMs: number | null;
  /** PostgreSQL CPU (the database's backends) a created order, ms. */
  dbMs: number | null;
  /** For ours: deliveries still pending when the load stopped, and how long they took to go out. */
  pendingAtEnd?: number;
  drainMs?: number;
  /** Still pending when the wait for them gave up. */
  leftAfterDrain?: number;
}

/**
 * One turn: `CONNECTIONS` connections POSTing new orders for `SECONDS`, each with a fresh
 * Idempotency-Key; every answer must be a 201. Reads the server's and its database's CPU around it.
 */
async function writeTurn(target: { url: string; pid: number; database: string; headers: Record<string, string> }, admin: pg.Client): Promise<Turn> {
  let created = 0;
  const other = new Map<number, number>();
  const dbBefore = await backendCpu(admin, target.database);
  const before = cpuSeconds(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/order/addOrder',
        headers: { 'content-type': 'application/json', ...target.headers },
        setupRequest: (req) => ({ ...req, body: nextOrder(), headers: { ...req.headers, 'idempotency-key': idempotencyKey() } }),
        onResponse: (status) => {
          if (status === 201) created++;
          else other.set(status, (other.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  const after = cpuSeconds(target.pid);
  const dbAfter = await backendCpu(admin, target.database);
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || other.size > 0) {
    throw new Error(
      `addOrder on ${target.url}: ${result.errors} errors, ${result.timeouts} timeouts, answers other than 201: ${JSON.stringify(Object.fromEntries(other)) || 'none'}`,
    );
  }
  let db = 0;
  for (const [pid, s] of dbAfter) db += s - (dbBefore.get(pid) ?? 0);
  const perOrder = (s: number) => (created > 0 ? (s * 1000) / created : null);
  return {
    rate: created / result.duration,
    serverMs: before === null || after === null ? null : perOrder(after - before),
    dbMs: dbAfter.size > 0 ? perOrder(db) : null,
  };
}

/**
 * Gives the planner statistics of `databaseUrl`'s tables, before each turn of either side (not counted),
 * as autovacuum does on a deployment: PostgreSQL here runs with it off, and without statistics an order
 * write's reads by company and order id or by phone were read through the company's other index, every
 * order and customer of the company (about 1,170 rows of orders an order at 1,100 orders).
 */
async function analyze(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** Waits (up to `DRAIN_MS`) until the database holds no pending delivery; gives how many there were and how long it took. */
async function drain(databaseUrl: string): Promise<{ pending: number; left: number; ms: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const count = async () => Number((await client.query(`SELECT count(*) AS n FROM deliveries WHERE status = 'pending'`)).rows[0].n);
    const t0 = performance.now();
    const pending = await count();
    let left = pending;
    while (left > 0 && performance.now() - t0 < DRAIN_MS) {
      await new Promise((ok) => setTimeout(ok, 100));
      left = await count();
    }
    return { pending, left, ms: performance.now() - t0 };
  } finally {
    await client.end();
  }
}

/** p50 and p99 of sequential addOrder calls, ours and the peer's in turns call by call (the order flipping each pair). */
async function singleConnection(ours: { url: string; headers: Record<string, string> }, peer: { url: string }) {
  const call = async (url: string, headers: Record<string, string>) => {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/order/addOrder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey(), ...headers },
      body: nextOrder(),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`addOrder on ${url}: ${res.status}`);
    return performance.now() - t0;
  };
  const times = { ours: [] as number[], peer: [] as number[] };
  for (let i = 0; i < LATENCY_WARM_UP + LATENCY_CALLS; i++) {
    const pair = i % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
    for (const side of pair) {
      const ms = side === 'ours' ? await call(ours.url, ours.headers) : await call(peer.url, {});
      if (i >= LATENCY_WARM_UP) times[side].push(ms);
    }
  }
  const of = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return { ours: of(times.ours), peer: of(times.peer) };
}

const ms = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(2));

/**
 * addOrder orders/s of the reference server on PostgreSQL (the `engagekit-server` command) against a
 * minimal Hono + drizzle app making the same writes in one transaction (bench/hono-drizzle-server.ts),
 * each on a fresh database with the company's one webhook endpoint.
 */
export const writeVsHonoDrizzle: Bench = {
  id: 'server.write.pg.vs-hono-drizzle',
  async run() {
    // The one endpoint of each side points at a receiver in a process of its own that answers 200 at once.
    const receiver = await startPeerServer('{}');
    const s = await benchServer('postgres', { LOG_LEVEL: 'warn' }, startCommand);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    let peerDb: Awaited<ReturnType<typeof peerDatabase>> | undefined;
    let team: Awaited<ReturnType<typeof startScriptServer>> | undefined;
    try {
      await s.call('POST', `/api/v2/companies/${s.uuid}/webhooks`, ADMIN_TOKEN, { url: receiver.url });
      peerDb = await peerDatabase(receiver.url);
      const peerUrl = peerDb.url;
      team = await startScriptServer('./hono-drizzle-server.ts', { DATABASE_URL: peerDb.url });
      await admin.connect();
      const ours = {
        url: s.url,
        pid: s.server.pid,
        database: new URL(s.databaseUrl as string).pathname.slice(1),
        headers: { authorization: `Bearer ${s.token}` },
      };
      const peer = { url: team.url, pid: team.pid, database: new URL(peerDb.url).pathname.slice(1), headers: {} };
      const turns: { ours: Turn[]; peer: Turn[] } = { ours: [], peer: [] };
      const sides = {
        ours: async () => {
          await analyze(s.databaseUrl as string);
          const t = await writeTurn(ours, admin);
          // Its deliveries go out before the next turn, so no turn of the peer runs beside this turn's dispatch.
          const d = await drain(s.databaseUrl as string);
          turns.ours.push({ ...t, pendingAtEnd: d.pending, drainMs: d.ms, leftAfterDrain: d.left });
          return t.rate;
        },
        peer: async () => {
          await analyze(peerUrl);
          const t = await writeTurn(peer, admin);
          turns.peer.push(t);
          return t.rate;
        },
      };
      const r = await inTurns(ROUNDS, sides, { warmUp: true });
      const latency = await singleConnection(ours, peer);
      // The first turn of each side is the warm-up.
      const counted = { ours: turns.ours.slice(1), peer: turns.peer.slice(1) };
      const medianOf = (ts: Turn[], k: 'serverMs' | 'dbMs') => {
        const xs = ts.map((t) => t[k]).filter((x): x is number => x !== null);
        return xs.length > 0 ? median(xs) : null;
      };
      const note = [
        `orders/s by round: reference server ${turnsNote(r.ours)}; Hono + drizzle ${turnsNote(r.peer)}`,
        `CPU an order (median of the rounds, ms): reference server process ${ms(medianOf(counted.ours, 'serverMs'))}, its PostgreSQL backends ${ms(medianOf(counted.ours, 'dbMs'))}; Hono + drizzle process ${ms(medianOf(counted.peer, 'serverMs'))}, its backends ${ms(medianOf(counted.peer, 'dbMs'))}`,
        `1 connection, ${LATENCY_CALLS} sequential addOrder calls of each side in turns after ${LATENCY_WARM_UP} of each: reference server p50 ${ms(latency.ours.p50)} ms, p99 ${ms(latency.ours.p99)} ms; Hono + drizzle p50 ${ms(latency.peer.p50)} ms, p99 ${ms(latency.peer.p99)} ms`,
        `the reference server also sends each delivery (its dispatcher, in the same process, to the receiver) and the peer does not: deliveries pending when each counted turn stopped ${counted.ours.map((t) => t.pendingAtEnd).join(', ')}, all sent ${counted.ours.map((t) => `${Math.round(t.drainMs ?? 0)} ms${t.leftAfterDrain ? ` (${t.leftAfterDrain} still pending)` : ''}`).join(', ')} later (not counted in either side's time)`,
      ].join('; ');
      return row({
        id: 'server.write.pg.vs-hono-drizzle',
        metric: `addOrder orders/s (201 answers a second), ${CONNECTIONS} connections, a new order and customer a request, a fresh Idempotency-Key each, one webhook endpoint (PostgreSQL; ${ROUNDS} rounds of ${SECONDS} s in turns after a warm-up turn of each)`,
        note,
        ours: Math.round(r.ours.median),
        peer: Math.round(r.peer.median),
        unit: 'orders/s',
        better: 'higher',
        goal: atLeast(0.5),
      });
    } finally {
      await admin.end().catch(() => {});
      await team?.stop();
      await peerDb?.drop();
      await s.stop();
      await receiver.stop();
    }
  },
};

export const benches: Bench[] = [writeVsHonoDrizzle];
