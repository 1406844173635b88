import pg from 'pg';
import { atMost, type Bench, median, row } from '../lib.ts';
import { benchServer, insertImportedCustomers } from './setup.ts';

const LIMIT_MS = 10;
const CAMPAIGNS = 1_000;
const CUSTOMERS = 1_000;
const MESSAGES = CAMPAIGNS * CUSTOMERS;

/**
 * reportingCampaign latency with 1,000,000 messages over 1,000 campaigns (PostgreSQL), against a 10 ms
 * limit. The data is what 1,000 completed runs to 1,000 customers leave behind, written with SQL the
 * way the store writes it: the messages, their counts by campaign and status, and the runs.
 */
export const report1m: Bench = {
  id: 'server.report.1m-messages',
  async run() {
    const s = await benchServer('postgres');
    const db = new pg.Client({ connectionString: s.databaseUrl });
    try {
      await db.connect();
      await insertImportedCustomers(db, s.uuid, CUSTOMERS, 'cus_r');
      // 999 more campaigns (the bench server made one), each completed after one run, with the per-company seq the store keeps.
      await db.query(
        `INSERT INTO campaigns (id, company_uuid, seq, name, status, schedule_type, schedule, template_payload, end_date, next_run_at, created_at, updated_at)
         SELECT 'cmp_r' || lpad(g::text, 4, '0'), $1, g + 1, 'report ' || g, 'completed', 'once', '2025-01-01', c.template_payload, '2025-01-01', NULL, now(), now()
           FROM generate_series(1, ${CAMPAIGNS - 1}) AS g, (SELECT template_payload FROM campaigns WHERE company_uuid = $1 LIMIT 1) AS c`,
        [s.uuid],
      );
      await db.query(`UPDATE companies SET campaign_seq = ${CAMPAIGNS} WHERE uuid = $1`, [s.uuid]);
      // One run of every campaign to every customer, the statuses spread about as the simulated channel spreads them.
      await db.query(
        `INSERT INTO messages (id, company_uuid, campaign_id, customer_id, phone_number, status, error, run_key, provider_message_id, variables, created_at, updated_at)
         SELECT 'msg_' || c.id || '_' || u.id, $1, c.id, u.id, u.phone_number,
                (ARRAY['read','read','read','delivered','delivered','sent','failed'])[(hashtext(c.id || u.id) & 65535) % 7 + 1],
                NULL, '2025-01-01T00:00:00.000Z', NULL, jsonb_build_object('first_name', u.first_name), '2025-01-01', '2025-01-01'
           FROM campaigns AS c, customers AS u WHERE c.company_uuid = $1 AND u.company_uuid = $1`,
        [s.uuid],
      );
      // The counters the store keeps with every message write, as the runs would have left them.
      await db.query(`INSERT INTO message_counts SELECT company_uuid, campaign_id, status, count(*) FROM messages WHERE company_uuid = $1 GROUP BY 1, 2, 3`, [
        s.uuid,
      ]);
      await db.query(`INSERT INTO campaign_runs SELECT DISTINCT company_uuid, campaign_id, run_key FROM messages WHERE company_uuid = $1`, [s.uuid]);
      await db.query('VACUUM ANALYZE');
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        const data = await s.call('GET', `/agency/reportingCampaign?uuid=${s.uuid}`, s.token);
        times.push(performance.now() - t0);
        if (data.messages.total !== MESSAGES) throw new Error(`report counted ${data.messages.total} messages`);
      }
      // What the report's reads cost in the database, each as the store sends it (they go together, each on a connection of its own).
      const statements = [
        `SELECT count(*) FROM customers WHERE company_uuid = $1`,
        `SELECT status, count(*) FROM campaigns WHERE company_uuid = $1 GROUP BY status`,
        `SELECT count(*), sum(total_amount) FROM orders WHERE company_uuid = $1`,
        `SELECT status, sum(n) FROM message_counts WHERE company_uuid = $1 GROUP BY status`,
        `SELECT c.id, c.name, c.status, m.counts, r.runs, r.last_run_at
           FROM (SELECT id, name, status, seq FROM campaigns WHERE company_uuid = $1 ORDER BY seq DESC LIMIT 100) AS c
           LEFT JOIN LATERAL (SELECT json_object_agg(status, n) AS counts FROM message_counts WHERE campaign_id = c.id) AS m ON true
           LEFT JOIN LATERAL (SELECT count(*)::int AS runs, max(run_key) AS last_run_at FROM campaign_runs WHERE campaign_id = c.id) AS r ON true
          ORDER BY c.seq DESC`,
      ];
      const plans: string[] = [];
      for (const q of statements) {
        const lines = (await db.query(`EXPLAIN (ANALYZE, COSTS OFF) ${q}`, [s.uuid])).rows.map((r) => String(r['QUERY PLAN']).trim());
        const scans = lines.filter((l) => /Scan/.test(l)).map((l) => l.replace(/^->\s*/, '').replace(/\s*\(actual.*$/, ''));
        const ms = lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '');
        plans.push(`${scans.join(' + ')} (${ms})`);
      }
      const ours = Math.round(median(times.slice(20)) * 100) / 100;
      return row({
        id: 'server.report.1m-messages',
        metric: `reportingCampaign p50 latency, ${MESSAGES.toLocaleString('en')} messages over ${CAMPAIGNS.toLocaleString('en')} campaigns (PostgreSQL), 180 calls in a row`,
        ours,
        peer: LIMIT_MS,
        unit: 'ms',
        better: 'lower',
        goal: atMost(1, `limit ${LIMIT_MS} ms`),
        note: `plans: ${plans.join('; ')}`,
      });
    } finally {
      await db.end().catch(() => {});
      await s.stop();
    }
  },
};

export const benches: Bench[] = [report1m];
