import pg from 'pg';
import { type Bench, median, row } from '../lib.ts';
import { benchServer } from './setup.ts';

const LIMIT_MS = 100;

/** reportingCampaign latency with 100,000 messages over 100 campaigns (PostgreSQL), against a 100 ms limit. */
export const report100k: Bench = {
  id: 'server.report.100k-messages',
  async run() {
    const s = await benchServer('postgres');
    try {
      await s.call('POST', `/api/v2/companies/${s.uuid}/customers`, 'bench-admin-token-0123456789', {
        customers: [{ phoneNumber: '+14155550100', firstName: 'Bench' }],
      });
      const db = new pg.Client({ connectionString: s.databaseUrl });
      await db.connect();
      await db.query(
        `INSERT INTO campaigns (id, company_uuid, seq, name, status, schedule_type, schedule, template_payload, created_at, updated_at)
         SELECT 'cmp_r' || g, $1, g + 1, 'report ' || g, 'completed', 'once', '2025-01-01', c.template_payload, now(), now()
           FROM generate_series(1, 99) AS g, (SELECT template_payload FROM campaigns WHERE company_uuid = $1 LIMIT 1) AS c`,
        [s.uuid],
      );
      await db.query('UPDATE companies SET campaign_seq = 100 WHERE uuid = $1', [s.uuid]);
      await db.query(
        `INSERT INTO messages (id, company_uuid, campaign_id, customer_id, phone_number, status, run_key, created_at, updated_at)
         SELECT 'msg_' || g, $1, 'cmp_r' || (g % 99 + 1), 'cus_' || g, '+1415' || lpad(g::text, 7, '0'),
                (ARRAY['sent','delivered','read','read','failed'])[g % 5 + 1], '2025-01-01T00:00:00.000Z', now(), now()
           FROM generate_series(1, 100000) AS g`,
        [s.uuid],
      );
      // The counters the store keeps beside every message write, as the scheduler would have left them.
      await db.query(`INSERT INTO message_counts SELECT company_uuid, campaign_id, status, count(*) FROM messages WHERE company_uuid = $1 GROUP BY 1, 2, 3`, [
        s.uuid,
      ]);
      await db.query(`INSERT INTO campaign_runs SELECT DISTINCT company_uuid, campaign_id, run_key FROM messages WHERE company_uuid = $1`, [s.uuid]);
      await db.query('ANALYZE messages');
      await db.query('ANALYZE message_counts');
      const plan = (await db.query(`EXPLAIN SELECT campaign_id, count(*) FROM messages WHERE company_uuid = $1 GROUP BY campaign_id`, [s.uuid])).rows
        .map((r) => r['QUERY PLAN'])
        .join(' / ');
      await db.end();
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        const data = await s.call('GET', `/agency/reportingCampaign?uuid=${s.uuid}`, s.token);
        times.push(performance.now() - t0);
        if (data.messages.total !== 100_000) throw new Error(`report counted ${data.messages.total} messages`);
      }
      const ours = Math.round(median(times.slice(5)) * 10) / 10;
      return row({
        id: 'server.report.100k-messages',
        metric: 'reportingCampaign p50 latency, 100,000 messages (PostgreSQL)',
        ours,
        peer: LIMIT_MS,
        unit: 'ms',
        better: 'lower',
        goal: `<= 1 (limit ${LIMIT_MS} ms)`,
        check: (ratio) => ratio <= 1,
        note: `plan: ${plan.slice(0, 160)}`,
      });
    } finally {
      await s.stop();
    }
  },
};

export const benches: Bench[] = [report100k];
