/**
 * An Idempotency-Key across two instances on one PostgreSQL: instance A is killed (SIGKILL) while it
 * runs a request with the key, held mid-transaction by a lock the test holds. The same request sent to
 * instance B answers 409 `idempotency_in_progress` (with Retry-After) while A's lease on the key lives,
 * runs once the lease has run out (A's transaction died with it: no order), and is replayed after that.
 *
 * The lease is long (a minute), so that no load between A's claim and B's request can end it; the test
 * then runs it out itself, by moving the key's lease end into the past, as a minute without A's renewals
 * would.
 */
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, jsonCaller, type ServerProcess, sampleOrder, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'idempotency-instances-admin-01';
const LEASE_MS = 60_000;
const skip = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.skipIf(skip)('an Idempotency-Key whose instance is killed mid-request, on PostgreSQL', () => {
  it('is in progress on another instance while the lease lives, then runs there once, then replays', async () => {
    const db = await freshDatabase('idem_instances');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const env = { DATABASE_URL: db.url, ADMIN_TOKEN, DEMO_COMPANY: '0', RATE_LIMIT_PER_MINUTE: '0', LEASE_MS: String(LEASE_MS) };
    const start = async () => {
      const server = await startServerProcess(env);
      cleanups.push(() => server.stop('SIGKILL'));
      return server;
    };
    const a: ServerProcess = await start();
    const b: ServerProcess = await start();
    const admin = jsonCaller(a.url);
    const { data: company } = await admin('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Keys', company_id: 'KEYS' });
    const { data: tok } = await admin('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
    const order = sampleOrder('KEYS', 'ORD-K');
    const addOrder = (server: ServerProcess) =>
      fetch(`${server.url}/api/order/addOrder`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tok.token}`, 'content-type': 'application/json', 'idempotency-key': 'key-1' },
        body: JSON.stringify(order),
      });

    // ---- A's request waits, mid-transaction, for the order's lock, which the test holds ----
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`order:${company.uuid}:ORD-K`]);
    const first = addOrder(a).catch((e: Error) => e);
    await vi.waitFor(
      async () => {
        const { rows } = await holder.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        expect(rows[0].n).toBe(1);
      },
      { timeout: 10_000, interval: 20 },
    );

    // ---- A killed: its request never answers; B finds the key still held under A's lease ----
    expect(await a.stop('SIGKILL')).toBe(null);
    expect(await first).toBeInstanceOf(Error);
    const held = await addOrder(b);
    expect(held.status).toBe(409);
    expect(await held.json()).toMatchObject({ code: 'idempotency_in_progress' });
    const retryAfter = Number(held.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(LEASE_MS / 1000));
    await holder.query('SELECT pg_advisory_unlock_all()');

    // ---- once A's lease has run out, B takes the key over and runs the request: A's order never committed ----
    // A's lease on the key, as A wrote it, ends within LEASE_MS of now: the test then runs it out.
    const { rows: leased } = await holder.query(
      "SELECT extract(epoch FROM claim_until) * 1000 AS until FROM idempotency_keys WHERE key = 'key-1' AND status IS NULL",
    );
    expect(Number(leased[0]?.until)).toBeGreaterThan(Date.now());
    expect(Number(leased[0]?.until)).toBeLessThanOrEqual(Date.now() + LEASE_MS);
    const ranOut = await holder.query("UPDATE idempotency_keys SET claim_until = $1 WHERE key = 'key-1' AND status IS NULL RETURNING key", [
      new Date(Date.now() - 1000).toISOString(),
    ]);
    expect(ranOut.rowCount).toBe(1);
    let taken: Response | undefined;
    await vi.waitFor(
      async () => {
        taken = await addOrder(b);
        expect(taken.status).not.toBe(409);
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(taken?.status).toBe(201);
    expect(taken?.headers.get('idempotent-replayed')).toBe(null);
    const created = await taken?.json();

    // ---- and replays that answer from then on ----
    const again = await addOrder(b);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(created);
    const { rows } = await holder.query('SELECT count(*)::int AS n FROM orders WHERE company_order_id = $1', ['ORD-K']);
    expect(rows[0].n).toBe(1);
    expect(await b.stop()).toBe(0);
  });
});
