import pg from 'pg';
import { type ServerProcess, startServerProcess } from '../../packages/reference-server/test/helpers.ts';
import { atLeast, atMost, type Bench, row } from '../lib.ts';
import { benchServer, insertImportedCustomers } from './setup.ts';

const CUSTOMERS = 100_000;
const LIMIT_PER_S = 2_000;
/** The run is given up on (with an error) after this long. */
const GIVE_UP_MS = 120_000;

/**
 * Messages a second a due campaign to 100,000 customers records and sends through the simulated
 * channel (the reference server's default CHANNEL), PostgreSQL, against 2,000 a second.
 */
export const sendRate: Bench = {
  id: 'campaigns.send.rate',
  async run() {
    const s = await benchServer('postgres', { SCHEDULER_INTERVAL_MS: '100' });
    const db = new pg.Client({ connectionString: s.databaseUrl });
    try {
      await db.connect();
      // Straight into the table: through the API they would take a hundred calls of 1,000.
      await insertImportedCustomers(db, s.uuid, CUSTOMERS, 'cus_bench_');
      await db.query('ANALYZE customers');
      const campaign = await s.call('POST', `/agency/createCampaign?uuid=${s.uuid}`, s.token, {
        name: 'send rate',
        schedule_type: 'once',
        schedule: new Date(Date.now() + 1000).toISOString(),
        template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      const started = Date.now();
      let status = campaign.status as string;
      while (status !== 'completed' && status !== 'failed') {
        if (Date.now() - started > GIVE_UP_MS) {
          const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1', [campaign.id])).rows;
          const rate = Math.round(n / ((Date.now() - started) / 1000));
          throw new Error(`campaign run not finished after ${GIVE_UP_MS / 1000} s: ${n} of ${CUSTOMERS} messages recorded (~${rate}/s, status ${status})`);
        }
        await new Promise((ok) => setTimeout(ok, 250));
        status = (await s.call('GET', `/agency/getCampaign/${campaign.id}?uuid=${s.uuid}`, s.token)).status;
      }
      // From the first message recorded to the campaign's completion, both by the server's clock.
      const [r] = (
        await db.query(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'pending')::int AS pending,
                  extract(epoch FROM (SELECT updated_at FROM campaigns WHERE id = $1) - min(created_at)) AS seconds
             FROM messages WHERE campaign_id = $1`,
          [campaign.id],
        )
      ).rows;
      if (r.n !== CUSTOMERS || r.pending !== 0) throw new Error(`the run recorded ${r.n} messages (${r.pending} pending) for ${CUSTOMERS} customers`);
      const seconds = Number(r.seconds);
      const ours = Math.round(CUSTOMERS / seconds);
      return row({
        id: 'campaigns.send.rate',
        metric: `messages/s a due campaign to ${CUSTOMERS.toLocaleString('en')} customers records and sends (simulated channel, PostgreSQL), first message to completed`,
        ours,
        peer: LIMIT_PER_S,
        unit: 'messages/s',
        better: 'higher',
        goal: atLeast(1, `limit ${LIMIT_PER_S.toLocaleString('en')}/s`),
        note: `one run (it takes the whole bench): ${seconds.toFixed(1)} s for ${CUSTOMERS} messages`,
      });
    } finally {
      await db.end().catch(() => {});
      await s.stop();
    }
  },
};

const TAKEOVER_CUSTOMERS = 100_000;
const LEASE_MS = 10_000;
/** Instance A is killed once this many messages are recorded. */
const KILL_AT = 20_000;

/**
 * A due campaign to 100,000 customers on PostgreSQL, run by two instances; instance A is killed
 * (SIGKILL) a fifth of the way in. Two rows: the seconds from the kill to the first message sent in a
 * chunk A held (against the lease plus a second: the take-over waits for the lease by design), and the
 * share of customers with exactly one message once B has finished (against 1).
 */
export const takeover: Bench = {
  id: 'campaigns.takeover',
  async run() {
    const s = await benchServer('postgres', { SCHEDULER_INTERVAL_MS: '100', LEASE_MS: String(LEASE_MS) });
    const db = new pg.Client({ connectionString: s.databaseUrl });
    let b: ServerProcess | undefined;
    try {
      await db.connect();
      await insertImportedCustomers(db, s.uuid, TAKEOVER_CUSTOMERS, 'cus_take_');
      await db.query('ANALYZE customers');
      const campaign = await s.call('POST', `/agency/createCampaign?uuid=${s.uuid}`, s.token, {
        name: 'takeover',
        schedule_type: 'once',
        schedule: new Date(Date.now() + 500).toISOString(),
        template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
      });
      const query = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows;
      const until = async (what: string, done: () => Promise<boolean>) => {
        const started = Date.now();
        while (!(await done())) {
          if (Date.now() - started > 180_000) throw new Error(`gave up waiting for ${what}`);
          await new Promise((ok) => setTimeout(ok, 20));
        }
      };
      // A alone claims the first chunks: their token is A's.
      let tokenOfA = '';
      await until('A to claim chunks', async () => {
        const rows = await query('SELECT DISTINCT claim_token FROM campaign_chunks WHERE campaign_id = $1 AND claim_token IS NOT NULL', [campaign.id]);
        tokenOfA = (rows[0]?.claim_token as string) ?? '';
        return rows.length > 0;
      });
      b = await startServerProcess(s.env, 60_000);
      await until(
        `${KILL_AT} messages`,
        async () => (await query('SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1', [campaign.id]))[0]?.n >= KILL_AT,
      );
      const held = (await query('SELECT id FROM campaign_chunks WHERE claim_token = $1 AND NOT done', [tokenOfA])).map((r) => r.id as string);
      await s.server.stop('SIGKILL');
      const [{ killed_at }] = await query('SELECT now() AS killed_at');
      await until('the run to complete', async () => (await query('SELECT status FROM campaigns WHERE id = $1', [campaign.id]))[0]?.status === 'completed');
      // The first message of a chunk A held that was recorded or answered after the kill.
      const [first] = await query(
        `SELECT extract(epoch FROM min(greatest(m.created_at, m.updated_at)) - $3::timestamptz) AS seconds
           FROM messages m JOIN campaign_chunks k ON k.id = ANY($2) AND m.customer_id > coalesce(k.after_id, '') AND m.customer_id <= coalesce(k.through_id, m.customer_id)
          WHERE m.campaign_id = $1 AND greatest(m.created_at, m.updated_at) > $3`,
        [campaign.id, held, killed_at],
      );
      const [counts] = await query(
        `SELECT count(*)::int AS messages, count(DISTINCT customer_id)::int AS customers, count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE error LIKE 'interrupted%')::int AS interrupted,
                extract(epoch FROM (SELECT updated_at FROM campaigns WHERE id = $1) - min(created_at)) AS seconds
           FROM messages WHERE campaign_id = $1`,
        [campaign.id],
      );
      const exactlyOnce = counts.messages === TAKEOVER_CUSTOMERS ? counts.customers / TAKEOVER_CUSTOMERS : 0;
      const limitS = LEASE_MS / 1000 + 1;
      return [
        row({
          id: 'campaigns.takeover.first-message',
          metric: `seconds from SIGKILL of one of two instances to the first message sent in a chunk it held (PostgreSQL, LEASE_MS ${LEASE_MS})`,
          ours: Number(Number(first.seconds).toFixed(2)),
          peer: limitS,
          unit: 's',
          better: 'lower',
          goal: atMost(1, `limit: the lease and a second`),
          note: `${held.length} chunks held at the kill`,
        }),
        row({
          id: 'campaigns.killed.100k.exactly-once',
          metric: `share of ${TAKEOVER_CUSTOMERS.toLocaleString('en')} customers with exactly one message, one of two instances killed mid-run (simulated channel)`,
          ours: exactlyOnce,
          peer: 1,
          unit: 'share',
          better: 'higher',
          goal: atLeast(1),
          note: `${counts.messages} messages for ${counts.customers} customers; ${counts.interrupted} failed as interrupted, ${counts.failed} failed in all (the simulated channel fails 5%); the run took ${Number(counts.seconds).toFixed(1)} s`,
        }),
      ];
    } finally {
      await b?.stop();
      await db.end().catch(() => {});
      await s.stop();
    }
  },
};

export const benches: Bench[] = [sendRate, takeover];
