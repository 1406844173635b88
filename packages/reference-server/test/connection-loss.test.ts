/**
 * Connections lost under load, on PostgreSQL: a server process whose database connections are all
 * ended (`pg_terminate_backend`, as an operator or a server restart does) several times while
 * requests run, reads and writes, in transactions and out. The process stays up, answers only 2xx or
 * 503 `database_unavailable` meanwhile, and answers again by itself, its NOTIFY listener back too.
 *
 * Only the connections of the server's own database are ended: the PostgreSQL server is shared.
 */
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, jsonCaller, type ServerProcess, sampleOrder, startServerProcess } from './helpers.ts';

const skip = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set';
const ADMIN_TOKEN = 'connection-loss-admin-token-01';
/** How many times every connection of the server's database is ended. */
const TERMINATIONS = 5;
/** Requests the server answers between two terminations (and before the first): load runs on every connection. */
const ANSWERS_BETWEEN = 40;
/** Callers sending requests side by side. */
const CALLERS = 8;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A webhook receiver on loopback that takes every delivery, so that the dispatcher claims and records attempts throughout. */
async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

describe.skipIf(skip)('connections lost under load, on PostgreSQL', () => {
  it(`keeps the process up through ${TERMINATIONS} terminations of every connection of its database, answers only 2xx or 503 database_unavailable meanwhile, and answers again by itself`, {
    timeout: 150_000,
  }, async () => {
    const db = await freshDatabase('connloss');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const dbName = new URL(db.url).pathname.slice(1);
    // The terminations are sent from the database DATABASE_URL names, never from the server's own.
    const operator = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await operator.connect();
    cleanups.push(() => operator.end());
    const receiver = await startReceiver();
    cleanups.push(receiver.close);

    const server: ServerProcess = await startServerProcess(
      {
        DATABASE_URL: db.url,
        ADMIN_TOKEN,
        DEMO_COMPANY: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_RETRY_SCHEDULE: '0,1',
        SCHEDULER_INTERVAL_MS: '200',
      },
      60_000,
    );
    cleanups.push(() => server.stop('SIGKILL'));
    const call = jsonCaller(server.url);
    const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Lost', company_id: 'LOST' });
    const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
    await call('POST', `/api/v2/companies/${company.uuid}/webhooks`, ADMIN_TOKEN, { url: receiver.url });

    // ---- callers: reads, order writes (a transaction with its outbox event, some with an Idempotency-Key), campaign creates ----
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    let answered = 0;
    let stop = false;
    let n = 0;
    // When the last termination was sent, and when a request first succeeded after it.
    let lastTermination: number | undefined;
    let firstOkAfterLast: number | undefined;
    const count = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
    // Resolves once `more` further answers have come, rejects at the first failure or after 60 s.
    let onAnswer = () => {};
    const answers = (more: number) => {
      const target = answered + more;
      return new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`${more} answers did not come in 60 s (${answered - target + more} did)`)), 60_000);
        onAnswer = () => {
          if (failures.length > 0 || answered >= target) {
            clearTimeout(timer);
            onAnswer = () => {};
            if (failures.length > 0) fail(new Error(`${failures[0]}\nprocess output:\n${server.output()}`));
            else ok();
          }
        };
        onAnswer();
      });
    };
    const request = async (i: number) => {
      const kind = i % 4;
      const json = { authorization: `Bearer ${tok.token}`, 'content-type': 'application/json' };
      const [path, init]: [string, RequestInit] =
        kind === 0
          ? [`/api/order/addOrder`, { method: 'POST', headers: json, body: JSON.stringify(sampleOrder('LOST', `o-${i}`)) }]
          : kind === 1
            ? [
                `/api/order/addOrder`,
                { method: 'POST', headers: { ...json, 'idempotency-key': `k-${i}` }, body: JSON.stringify(sampleOrder('LOST', `k-${i}`)) },
              ]
            : kind === 2
              ? [
                  `/agency/createCampaign?uuid=${company.uuid}`,
                  {
                    method: 'POST',
                    headers: json,
                    body: JSON.stringify({
                      name: `c-${i}`,
                      schedule_type: 'once',
                      schedule: '2030-01-15T10:00:00Z',
                      template_payload: { template_name: 'welcome' },
                    }),
                  },
                ]
              : [`/agency/getCustomers?uuid=${company.uuid}`, { headers: json }];
      try {
        const res = await fetch(server.url + path, { ...init, signal: AbortSignal.timeout(30_000) });
        const body = (await res.json()) as { code?: string };
        count(res.status === 503 ? `503 ${body.code}` : String(res.status));
        if (res.status < 300 && lastTermination !== undefined && firstOkAfterLast === undefined) firstOkAfterLast = performance.now();
        if (!(res.status < 300 || (res.status === 503 && body.code === 'database_unavailable'))) {
          failures.push(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
        }
      } catch (error) {
        // The process gone (connection refused or reset), or an answer that never came.
        count('no answer');
        failures.push(`${init.method ?? 'GET'} ${path}: ${String(error)}`);
      }
      answered++;
      onAnswer();
    };
    const callers = Array.from({ length: CALLERS }, async () => {
      while (!stop && failures.length === 0) await request(n++);
    });

    // ---- every connection of the server's database ended, TERMINATIONS times, with load between ----
    const ended: number[] = [];
    try {
      for (let t = 0; t < TERMINATIONS; t++) {
        await answers(ANSWERS_BETWEEN);
        const { rows } = await operator.query<{ n: number }>(
          'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        );
        ended.push(rows[0]?.n ?? 0);
        if (t === TERMINATIONS - 1) lastTermination = performance.now();
      }
      // Load after the last one too: the requests it broke are answered, and the next ones reconnect.
      await answers(ANSWERS_BETWEEN);
    } finally {
      stop = true;
      await Promise.all(callers);
    }

    expect(failures, `answers other than 2xx or 503 database_unavailable (process output:\n${server.output()})`).toEqual([]);
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaughtException/);
    // Every termination ended connections of the server's (at least the pool's, under load).
    expect(
      ended.every((count) => count > 0),
      `connections ended each time: ${ended}`,
    ).toBe(true);

    // ---- it answers again by itself: a read and a write, and its NOTIFY listener is back ----
    await vi.waitFor(
      async () => {
        expect((await fetch(`${server.url}/agency/getCustomers?uuid=${company.uuid}`, { headers: { authorization: `Bearer ${tok.token}` } })).status).toBe(200);
        const write = await fetch(`${server.url}/api/order/addOrder`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tok.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(sampleOrder('LOST', 'after')),
        });
        expect(write.status).toBeLessThan(300);
        const { rows } = await operator.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'`, [
          dbName,
        ]);
        expect(rows[0]?.n).toBe(1);
      },
      { timeout: 30_000, interval: 100 },
    );
    const recoveredMs = Math.round((firstOkAfterLast ?? Number.NaN) - (lastTermination ?? Number.NaN));
    console.info(
      `connection loss: ${TERMINATIONS} terminations (${ended.join(', ')} connections ended), ${answered} answers ${JSON.stringify(Object.fromEntries(statuses))}, the first 2xx ${recoveredMs} ms after the last termination`,
    );

    // Still the same process: SIGTERM drains and exits 0.
    expect(await server.stop()).toBe(0);
  });
});
