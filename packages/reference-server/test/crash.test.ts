/**
 * A campaign run to 5,000 customers over the WhatsApp channel, its server process killed (SIGKILL) in
 * the middle of the run and started again on the same database: the run completes, every customer has
 * exactly one message record, and no phone number reaches the channel twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, it, vi } from 'vitest';
import { type FakeWhatsApp, startFakeWhatsApp } from './fake-whatsapp.ts';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'crash-test-admin-token-0001';
const CUSTOMERS = 5_000;
/** The run is killed once the channel has seen this many messages: well inside the run. */
const KILL_AFTER = 500;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Runs one query on the database the server used, once the server has stopped. */
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

function pgliteDatabase(): Database {
  const dataDir = mkdtempSync(join(tmpdir(), 'engagekit-crash-'));
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
    const customers = Array.from({ length: 1000 }, (_, i) => ({ phoneNumber: phoneOf(from + i), firstName: `Customer${from + i}` }));
    created += (await call('POST', `/api/v2/companies/${uuid}/customers`, ADMIN_TOKEN, { customers })).data.created;
  }
  return created;
}

// The two databases run side by side: most of each run is waiting on its database and its channel.
describe.concurrent.each(['postgres', 'pglite'] as const)('a campaign run on %s, its server killed with SIGKILL mid-run and started again', (database) => {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  it.skipIf(skip)(
    `completes, with exactly one message record per customer and no phone number sent twice${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`,
    async ({ expect }) => {
      const channel: FakeWhatsApp = await startFakeWhatsApp();
      cleanups.push(() => channel.close());
      const db = database === 'postgres' ? await postgresDatabase() : pgliteDatabase();
      const env = {
        ...db.env,
        ADMIN_TOKEN,
        DEMO_COMPANY: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        SCHEDULER_INTERVAL_MS: '100',
        CHANNEL: 'whatsapp',
        WHATSAPP_API_URL: channel.url,
        WHATSAPP_ACCESS_TOKEN: 'EAAG-crash-test',
        WHATSAPP_PHONE_NUMBER_ID: '1234567890',
      };
      let server: ServerProcess = await startServerProcess(env);
      cleanups.push(() => server.stop('SIGKILL'));
      let call = jsonCaller(server.url);

      // ---- a company with 5,000 customers, a template, and a campaign due now ----
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

      // ---- killed in the middle of the run ----
      await vi.waitFor(() => expect(channel.received.length).toBeGreaterThanOrEqual(KILL_AFTER), { timeout: 60_000, interval: 20 });
      expect(await server.stop('SIGKILL')).toBe(null);
      const receivedBeforeKill = channel.received.length;
      expect(receivedBeforeKill).toBeLessThan(CUSTOMERS);

      // ---- started again on the same database, it finishes the run ----
      server = await startServerProcess(env);
      call = jsonCaller(server.url);
      const getCampaign = async () => (await call('GET', `/agency/getCampaign/${campaign.id}?uuid=${company.uuid}`, tok.token)).data;
      await vi.waitFor(async () => expect((await getCampaign()).status).toBe('completed'), { timeout: 150_000, interval: 250 });
      expect(channel.received.length).toBeGreaterThan(receivedBeforeKill);

      // ---- the channel: no phone number twice ----
      expect(channel.duplicates()).toEqual(new Map());

      // ---- the public API: one run, one message per customer ----
      const { data: report } = await call('GET', `/agency/reportingCampaign?uuid=${company.uuid}`, tok.token);
      expect(report.customers.total).toBe(CUSTOMERS);
      expect(report.messages.total).toBe(CUSTOMERS);
      expect(report.messages.sent + report.messages.failed).toBe(CUSTOMERS);
      expect(report.campaigns_detail).toEqual([
        expect.objectContaining({ id: campaign.id, status: 'completed', runs: 1, messages: expect.objectContaining({ total: CUSTOMERS }) }),
      ]);

      // ---- the database itself, read once the server has stopped ----
      expect(await server.stop()).toBe(0);
      const [counts] = await db.query(
        `SELECT count(*)::int AS messages, count(DISTINCT customer_id)::int AS customers,
                count(*) FILTER (WHERE status = 'pending')::int AS pending, count(DISTINCT run_key)::int AS runs
           FROM messages WHERE campaign_id = $1`,
        [campaign.id],
      );
      expect(counts).toEqual({ messages: CUSTOMERS, customers: CUSTOMERS, pending: 0, runs: 1 });
      const [unmessaged] = await db.query(
        `SELECT count(*)::int AS n FROM customers c
          WHERE c.company_uuid = $1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.customer_id = c.id AND m.campaign_id = $2)`,
        [company.uuid, campaign.id],
      );
      expect(unmessaged).toEqual({ n: 0 });

      // Every message recorded as sent reached the channel. The one in flight at the kill (recorded,
      // no answer yet) is recorded as failed, interrupted, whether or not it reached the channel, and
      // is not sent again; the run sends one message at a time, so there is at most one.
      const rows = await db.query('SELECT phone_number, status, error FROM messages WHERE campaign_id = $1', [campaign.id]);
      const reached = new Set(channel.received.map((m) => `+${m.to}`));
      const sent = rows.filter((r) => r.status === 'sent');
      const failed = rows.filter((r) => r.status === 'failed');
      expect(sent.filter((r) => !reached.has(r.phone_number as string))).toEqual([]);
      expect(failed.length).toBeLessThanOrEqual(1);
      for (const r of failed) expect(r.error).toMatch(/^interrupted/);
      expect(report.messages.failed).toBe(failed.length);
      expect(channel.received.length).toBe(sent.length + failed.filter((r) => reached.has(r.phone_number as string)).length);
    },
    240_000,
  );
});
