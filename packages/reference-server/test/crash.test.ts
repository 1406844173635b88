/**
 * Campaign runs to 1,000 customers, a server process killed (SIGKILL) in the middle of each: on PGlite
 * its one instance, started again on the same data; on PostgreSQL one of two instances, the other
 * taking its chunks over once their leases run out. Every run completes, every customer has exactly
 * one message record, and no phone number reaches the channel twice. The crash rule: only a message
 * whose hand-off to the provider was in flight at the kill is marked failed (interrupted), at most the
 * messages a chunk hands WhatsApp at once at its pace; with the simulated channel, which hands nothing
 * outside the process, none.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, it, vi } from 'vitest';
import { inFlightForPace } from '../../runtime/src/domain/send-pace.ts';
import { type FakeWhatsApp, startFakeWhatsApp } from './fake-whatsapp.ts';
import { freshDatabase, jsonCaller, pgliteDataDir, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'crash-test-admin-token-0001';
const CUSTOMERS = 1_000;
/**
 * An instance is stopped once this many messages are recorded: well inside the run, and inside a chunk
 * (not at the end of the first four, 200, where for a moment it may hold none).
 */
const KILL_AFTER = 225;
/** Chunks of 50 customers, 4 run at once by an instance: 20 chunks a run. */
const CHUNK_SIZE = 50;
const CONCURRENCY = 4;
/** WhatsApp's pace in the runs through it: 200 a second, so 1,000 messages take 5 s. */
const MESSAGES_PER_SECOND = 200;
/** The messages a chunk hands WhatsApp at once at that pace: at most that many a chunk are interrupted by a kill. */
const IN_FLIGHT = inFlightForPace(MESSAGES_PER_SECOND, CONCURRENCY);

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs one query on the database the servers use (on PGlite, once the server has stopped). */
type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Where a server keeps its data: the env that points it there, and a way to read it directly. */
interface Database {
  env: Record<string, string>;
  query: Query;
}

async function postgresDatabase(): Promise<Database> {
  const db = await freshDatabase('crash');
  if (!db) throw new Error('DATABASE_URL is needed');
  cleanups.push(() => db.drop());
  const query: Query = async (sql, params) => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  // The crash under test is the server process's, not PostgreSQL's: a commit PostgreSQL has accepted
  // survives it either way, so commits need not wait for the disk, which would slow each send's two writes.
  await query(`ALTER DATABASE "${new URL(db.url).pathname.slice(1)}" SET synchronous_commit = off`);
  return { env: { DATABASE_URL: db.url }, query };
}

async function pgliteDatabase(): Promise<Database> {
  const dataDir = await pgliteDataDir('engagekit-crash-');
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return {
    env: { DATA_DIR: dataDir },
    async query(sql, params) {
      // The server keeps PGlite in DATA_DIR/pglite; only one process may open it, so the server has stopped.
      const db = await PGlite.create(join(dataDir, 'pglite'));
      try {
        return (await db.query<Record<string, unknown>>(sql, params)).rows;
      } finally {
        await db.close();
      }
    },
  };
}

/** The i-th customer's phone number, E.164. */
const phoneOf = (i: number) => `+1555${String(i).padStart(7, '0')}`;

/** Imports `CUSTOMERS` customers through the admin API, a thousand a call (the most it takes); resolves to how many it created. */
async function importCustomers(call: ReturnType<typeof jsonCaller>, uuid: string): Promise<number> {
  let created = 0;
  for (let from = 0; from < CUSTOMERS; from += 1000) {
    const customers = Array.from({ length: Math.min(1000, CUSTOMERS - from) }, (_, i) => ({
      phoneNumber: phoneOf(from + i),
      firstName: `Customer${from + i}`,
    }));
    created += (await call('POST', `/api/v2/companies/${uuid}/customers`, ADMIN_TOKEN, { customers })).data.created;
  }
  return created;
}

/** One crash: where the data is, the channel the run goes through, and how many instances run it. */
interface Case {
  database: 'postgres' | 'pglite';
  channel: 'whatsapp' | 'simulated';
}

const cases: Case[] = [
  { database: 'postgres', channel: 'whatsapp' },
  { database: 'postgres', channel: 'simulated' },
  { database: 'pglite', channel: 'whatsapp' },
  { database: 'pglite', channel: 'simulated' },
];

// The runs go side by side: most of each is waiting on its database and its channel.
describe.concurrent.each(cases)(
  'a campaign run on $database through the $channel channel, an instance killed with SIGKILL mid-run',
  ({ database, channel: channelName }) => {
    const skip = database === 'postgres' && !process.env.DATABASE_URL;
    const instances = database === 'postgres' ? 'one of two instances killed, the other takes its chunks over' : 'its one instance killed and started again';
    it.skipIf(skip)(
      `completes (${instances}), with one message record per customer, no phone number sent twice, and ${channelName === 'whatsapp' ? 'at most the messages a chunk has in flight' : 'no message'} failed as interrupted${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`,
      async ({ expect }) => {
        // WhatsApp's pace (200 a second) makes the 775 after KILL_AFTER take nearly 4 s: the window in
        // which the first instance is stopped. Each answer takes 20 ms.
        const channel: FakeWhatsApp = await startFakeWhatsApp({ delayMs: 20 });
        cleanups.push(() => channel.close());
        const db = database === 'postgres' ? await postgresDatabase() : await pgliteDatabase();
        const env = {
          ...db.env,
          ADMIN_TOKEN,
          DEMO_COMPANY: '0',
          RATE_LIMIT_PER_MINUTE: '0',
          SCHEDULER_INTERVAL_MS: '100',
          CAMPAIGN_CHUNK_SIZE: String(CHUNK_SIZE),
          CAMPAIGN_CHUNK_CONCURRENCY: String(CONCURRENCY),
          LEASE_MS: '2000',
          ...(channelName === 'whatsapp'
            ? {
                CHANNEL: 'whatsapp',
                WHATSAPP_API_URL: channel.url,
                WHATSAPP_ACCESS_TOKEN: 'EAAG-crash-test',
                WHATSAPP_PHONE_NUMBER_ID: '1234567890',
                WHATSAPP_APP_SECRET: 'crash-test-app-secret',
                WHATSAPP_VERIFY_TOKEN: 'crash-test-verify-token',
                WHATSAPP_MESSAGES_PER_SECOND: String(MESSAGES_PER_SECOND),
              }
            : // Nothing fails of itself; each send takes a second, so the run is under way long enough to be killed.
              { CHANNEL: 'simulated', SIMULATED_FAILURE_RATE: '0', SIMULATED_LATENCY_MS: '1000' }),
        };
        // The four runs start their servers side by side, beside the rest of the suite; on PGlite a start
        // recovers the database in WebAssembly first. On a loaded 2-core machine that has taken longer
        // than 30 s.
        const start = async () => {
          const server = await startServerProcess(env, 120_000);
          cleanups.push(() => server.stop('SIGKILL'));
          return server;
        };
        const first = await start();
        const call = jsonCaller(first.url);

        // ---- a company with 1,000 customers, a template, and a campaign due now ----
        const { data: company } = await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Crash', company_id: 'CRASH' });
        const { data: tok } = await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {});
        expect(await importCustomers(call, company.uuid)).toBe(CUSTOMERS);
        await call('POST', `/agency/template?uuid=${company.uuid}`, tok.token, { template_name: 'welcome', phone_number: '6363978748', wam_id: 'wam-crash' });
        const { data: campaign } = await call('POST', `/agency/createCampaign?uuid=${company.uuid}`, tok.token, {
          name: 'everyone',
          schedule_type: 'once',
          schedule: new Date().toISOString(),
          template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
        });
        const recorded = async (via: ServerProcess) =>
          (await jsonCaller(via.url)('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token)).data.messages.total as number;

        // ---- the first instance stopped in the middle of the run ----
        // It is frozen (SIGSTOP) once it has recorded KILL_AFTER messages, so that however long a second
        // instance takes to start on a loaded machine, the first cannot finish the run meanwhile; it is
        // killed (SIGKILL) from there, at once if a check in between fails. On PostgreSQL the second
        // instance joins while the first is frozen and takes its chunks over once their leases run out;
        // on PGlite the first is started again. That the run was unfinished at the freeze is checked at
        // the end, from the database: messages answered after it. (Two live instances claiming chunks
        // side by side are tested in campaign-runs-instances.test.ts, where no start-up can race them.)
        await vi.waitFor(async () => expect(await recorded(first)).toBeGreaterThanOrEqual(KILL_AFTER), { timeout: 60_000, interval: 20 });
        const frozenAt = new Date();
        process.kill(first.pid, 'SIGSTOP');
        const receivedBeforeKill = channel.received.length;
        let tokenOfFirst: string | undefined;
        let heldAtKill: Record<string, unknown>[] = [];
        let survivor: ServerProcess | undefined;
        let exitOfFirst: number | null | undefined;
        try {
          if (database === 'postgres') {
            const tokens = await db.query('SELECT DISTINCT claim_token FROM campaign_chunks WHERE claim_token IS NOT NULL');
            expect(tokens).toHaveLength(1);
            tokenOfFirst = tokens[0]?.claim_token as string;
            heldAtKill = await db.query('SELECT id FROM campaign_chunks WHERE claim_token = $1 AND NOT done', [tokenOfFirst]);
            survivor = await start();
          }
        } finally {
          exitOfFirst = await first.stop('SIGKILL');
        }
        expect(exitOfFirst).toBe(null);
        const last = survivor ?? (await start());

        // ---- the survivor, or the first started again, finishes the run ----
        const callLast = jsonCaller(last.url);
        const getCampaign = async () => (await callLast('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data;
        await vi.waitFor(async () => expect((await getCampaign()).status).toBe('completed'), { timeout: 150_000, interval: 250 });
        if (channelName === 'whatsapp') expect(channel.received.length).toBeGreaterThan(receivedBeforeKill);

        // ---- the channel: no phone number twice ----
        expect(channel.duplicates()).toEqual(new Map());

        // ---- the public API: one run, one message per customer ----
        const { data: report } = await callLast('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token);
        expect(report.customers.total).toBe(CUSTOMERS);
        expect(report.messages.total).toBe(CUSTOMERS);
        expect(report.messages.sent + report.messages.failed).toBe(CUSTOMERS);
        expect(report.campaigns_detail).toEqual([
          expect.objectContaining({ id: campaign.id, status: 'completed', runs: 1, messages: expect.objectContaining({ total: CUSTOMERS }) }),
        ]);

        // ---- the database itself, read once every server has stopped ----
        expect(await last.stop()).toBe(0);
        // `answeredAfterFreeze`: the run was unfinished at the freeze (timestamps in UTC, as the server writes them).
        const [counts] = await db.query(
          `SELECT count(*)::int AS messages, count(DISTINCT customer_id)::int AS customers,
                count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS unanswered, count(DISTINCT run_key)::int AS runs,
                count(*) FILTER (WHERE updated_at > $2::timestamp)::int AS "answeredAfterFreeze"
           FROM messages WHERE campaign_id = $1`,
          [campaign.id, frozenAt.toISOString()],
        );
        expect(counts).toEqual({ messages: CUSTOMERS, customers: CUSTOMERS, unanswered: 0, runs: 1, answeredAfterFreeze: expect.any(Number) });
        expect(counts?.answeredAfterFreeze).toBeGreaterThan(0);
        const [unmessaged] = await db.query(
          `SELECT count(*)::int AS n FROM customers c
          WHERE c.company_uuid = $1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.customer_id = c.id AND m.campaign_id = $2)`,
          [company.uuid, campaign.id],
        );
        expect(unmessaged).toEqual({ n: 0 });
        const [chunks] = await db.query('SELECT count(*)::int AS n, count(*) FILTER (WHERE done)::int AS done FROM campaign_chunks WHERE campaign_id = $1', [
          campaign.id,
        ]);
        expect(chunks).toEqual({ n: CUSTOMERS / CHUNK_SIZE, done: CUSTOMERS / CHUNK_SIZE });

        // ---- who took over: the chunks the killed instance held were finished by another ----
        if (database === 'postgres') {
          expect(heldAtKill.length).toBeGreaterThan(0);
          const after = await db.query('SELECT id, claim_token FROM campaign_chunks WHERE id = ANY($1)', [heldAtKill.map((r) => r.id)]);
          expect(after.filter((r) => r.claim_token === tokenOfFirst)).toEqual([]);
        }

        // ---- the crash rule ----
        // A message the WhatsApp channel had in flight at the kill (marked sending, no answer yet) is
        // failed, interrupted, whether or not it reached the provider, and not sent again: at most
        // IN_FLIGHT a chunk the killed instance ran. The simulated channel hands nothing outside the process: every
        // message it had recorded is sent after the take-over, none failed.
        const rows = await db.query('SELECT phone_number, status, error FROM messages WHERE campaign_id = $1', [campaign.id]);
        const failed = rows.filter((r) => r.status === 'failed');
        for (const r of failed) expect(r.error).toMatch(/^interrupted/);
        expect(report.messages.failed).toBe(failed.length);
        if (channelName === 'simulated') {
          expect(failed).toEqual([]);
        } else {
          expect(failed.length).toBeLessThanOrEqual(CONCURRENCY * IN_FLIGHT);
          const reached = new Set(channel.received.map((m) => `+${m.to}`));
          const sent = rows.filter((r) => r.status !== 'failed');
          expect(sent.filter((r) => !reached.has(r.phone_number as string))).toEqual([]);
          expect(channel.received.length).toBe(sent.length + failed.filter((r) => reached.has(r.phone_number as string)).length);
        }
      },
      240_000,
    );
  },
);
