/**
 * The database unavailable on PostgreSQL: a pool that stays full past its wait, and a database that
 * goes away (its connections cut, new ones refused). Every operation answers 503 with the error code
 * `database_unavailable` and `Retry-After`, never 500, and answers again once the database is back.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlStore, type SqlStore } from '../src/store/sql/open.ts';
import { freshDatabase } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

const skip = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };

/** A TCP relay on loopback to the database, which can cut every connection and refuse new ones, then take them again. */
async function relayTo(target: URL) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  await listen(0);
  const port = (server.address() as { port: number }).port;
  return {
    port,
    async down() {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      });
    },
    up: () => listen(port),
    close: () => new Promise<void>((ok) => (server.listening ? server.close(() => ok()) : ok())),
  };
}

/** Expects the 503 of an unavailable database. */
async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  const body = await res.json();
  expect(body).toMatchObject({ success: false, code: 'database_unavailable', message: expect.stringMatching(/database is unavailable/) });
}

describe.skipIf(skip)('the database unavailable, on PostgreSQL', () => {
  it('answers 503 database_unavailable with Retry-After while the pool stays full past its wait, and answers again once a connection is free', async () => {
    const db = await freshDatabase('unavailable');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const store: SqlStore = await openSqlStore({ databaseUrl: db.url, poolSize: 1, poolWaitMs: 200 });
    cleanups.push(() => store.close());
    const { fetch } = await inProcessApp({ store });

    // The pool's one connection, held by a transaction until released.
    let release = () => {};
    const held = store.transaction(() => new Promise<void>((ok) => (release = ok)));
    // A failed expectation below still gives it back, so that the store closes.
    cleanups.push(async () => {
      release();
      await held;
    });
    await new Promise((ok) => setTimeout(ok, 50));
    await expectUnavailable(await fetch('/api/v2/companies', { headers: admin }));
    await expectUnavailable(await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Busy', company_id: 'BUSY' }) }));

    // Retry-After is drawn for each answer, from 1 to 4 s, so that the clients failed together do not retry together.
    const answers = await Promise.all(Array.from({ length: 24 }, () => fetch('/api/v2/companies', { headers: admin })));
    const retryAfters = answers.map((res) => {
      expect(res.status).toBe(503);
      return Number(res.headers.get('retry-after'));
    });
    for (const seconds of retryAfters) expect([1, 2, 3, 4]).toContain(seconds);
    expect(new Set(retryAfters).size, `Retry-After of 24 answers: ${retryAfters}`).toBeGreaterThan(1);

    release();
    await held;
    expect((await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Free', company_id: 'FREE' }) })).status).toBe(201);
  });

  it('fails a transaction whose connection is ended under it with StoreUnavailableError, then runs the next on a new connection', async () => {
    const db = await freshDatabase('lost');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const store = await openSqlStore({ databaseUrl: db.url });
    cleanups.push(() => store.close());
    const { fetch } = await inProcessApp({ store });
    const created = await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Lost', company_id: 'LOST' }) });
    const { uuid } = (await created.json()).data;
    // Sent from the database DATABASE_URL names: only this test's database loses its connections.
    const operator = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await operator.connect();
    cleanups.push(() => operator.end());
    const endAll = () =>
      operator.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
        new URL(db.url).pathname.slice(1),
      ]);

    const lost = store.transaction(async (tx) => {
      expect(await tx.getCompany(uuid)).toMatchObject({ name: 'Lost' });
      await endAll();
      return tx.getCompany(uuid);
    });
    await expect(lost).rejects.toMatchObject({ name: 'StoreUnavailableError', retryAfterS: expect.any(Number) });
    expect(await store.transaction((tx) => tx.getCompany(uuid))).toMatchObject({ name: 'Lost' });
    expect((await fetch(`/api/v2/companies/${uuid}`, { headers: admin })).status).toBe(200);
  });

  it('answers 503 database_unavailable while the database refuses connections, and answers again once it takes them', async () => {
    const db = await freshDatabase('refused');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const relay = await relayTo(new URL(db.url));
    cleanups.push(relay.close);
    const url = new URL(db.url);
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    // Refused connections fail at once, so a long wait costs the test nothing while the database is down,
    // and load cannot make the first connection after it is up take longer than the wait.
    const store = await openSqlStore({ databaseUrl: url.toString(), poolWaitMs: 10_000 });
    cleanups.push(() => store.close());
    const { fetch } = await inProcessApp({ store });
    expect((await fetch('/api/v2/companies', { headers: admin })).status).toBe(200);

    await relay.down();
    // The pooled connections that were cut, and the new ones refused.
    for (let i = 0; i < 3; i++) await expectUnavailable(await fetch('/api/v2/companies', { headers: admin }));
    await expectUnavailable(await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Down', company_id: 'DOWN' }) }));

    await relay.up();
    expect((await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Up', company_id: 'UP' }) })).status).toBe(201);
  });
});
