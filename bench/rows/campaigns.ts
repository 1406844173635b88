import pg from 'pg';
import { atLeast, type Bench, row } from '../lib.ts';
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

export const benches: Bench[] = [sendRate];
