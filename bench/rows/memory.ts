import autocannon from 'autocannon';
import pg from 'pg';
import { atMost, type Bench, median, row } from '../lib.ts';
import { memoryOf, pidListeningOn } from '../processes.ts';
import { ADMIN_TOKEN, benchServer } from './setup.ts';

const CAMPAIGNS = 100_000;
const LIMIT_MB = 200;
const SECONDS = 10;

/** What one round measured: the server's RSS before and after the load, its peak, and the load's rate. */
interface Round {
  idle: number;
  rss: number;
  peak: number;
  rate: number;
}

/**
 * One round on a new reference server: 100,000 campaigns loaded, then 10 s of load at 50 connections
 * (getCampaign, getCampaignData pages shallow and deep, reportingCampaign), PostgreSQL.
 */
async function loadOnce(): Promise<Round> {
  const s = await benchServer('postgres');
  const db = new pg.Client({ connectionString: s.databaseUrl });
  try {
    await db.connect();
    // 100,000 campaigns straight into the table (the API would take minutes), with the per-company seq the store keeps.
    await db.query(
      `INSERT INTO campaigns (id, company_uuid, seq, name, status, schedule_type, schedule, days, template_payload, next_run_at, created_at, updated_at)
       SELECT 'cmp_bench_' || g, $1, g + 1, 'bench ' || g, 'scheduled', 'once', '2099-01-01', NULL, c.template_payload, NULL, now(), now()
         FROM generate_series(1, ${CAMPAIGNS - 1}) AS g, (SELECT template_payload FROM campaigns WHERE company_uuid = $1 LIMIT 1) AS c`,
      [s.uuid],
    );
    await db.query(`UPDATE companies SET campaign_seq = ${CAMPAIGNS} WHERE uuid = $1`, [s.uuid]);
    // A customer, so the report answers (it is a 404 for a company without customers).
    await s.call('POST', `/api/v2/companies/${s.uuid}/customers`, ADMIN_TOKEN, {
      customers: [{ phoneNumber: '+14155550100', firstName: 'Bench' }],
    });
    await db.query('ANALYZE campaigns');
    const pid = pidListeningOn(s.url);
    const idle = memoryOf(pid);
    // The mix, per request: 40% getCampaign of a random campaign, 20% getCampaignData page 1..10,000
    // (limit 10, random), 10% getCampaignData page 1..1,000 (limit 100, random), 10% its deepest pages
    // (page 9,900..10,000, limit 10), 20% reportingCampaign.
    const q = `uuid=${s.uuid}`;
    const pick = (n: number) => 1 + Math.floor(Math.random() * n);
    const paths = (): string => {
      const r = Math.random();
      if (r < 0.4) return `/agency/getCampaign/cmp_bench_${pick(CAMPAIGNS - 1)}?${q}`;
      if (r < 0.6) return `/agency/getCampaignData?${q}&page=${pick(10_000)}&limit=10`;
      if (r < 0.7) return `/agency/getCampaignData?${q}&page=${pick(1_000)}&limit=100`;
      if (r < 0.8) return `/agency/getCampaignData?${q}&page=${9_900 + pick(100)}&limit=10`;
      return `/agency/reportingCampaign?${q}`;
    };
    const result = await autocannon({
      url: s.url,
      connections: 50,
      duration: SECONDS,
      headers: { authorization: `Bearer ${s.token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: paths() }) }],
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`load: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    const after = memoryOf(pid);
    return { idle: idle.rss, rss: after.rss, peak: after.peak, rate: result.requests.average };
  } finally {
    await db.end().catch(() => {});
    await s.stop();
  }
}

const ROUNDS = 3;

/**
 * The reference server process's RSS after 100,000 campaigns are loaded and 10 s of load, against a
 * 200 MB limit: the median of three rounds, each on a new server (RSS only grows within one process).
 */
export const serverRss: Bench = {
  id: 'server.rss',
  async run() {
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await loadOnce());
    return row({
      id: 'server.rss',
      metric: `reference server process RSS (VmRSS) after ${CAMPAIGNS.toLocaleString('en')} campaigns and ${SECONDS} s of load at 50 connections (PostgreSQL), median of ${ROUNDS} rounds`,
      ours: Math.round(median(rounds.map((r) => r.rss))),
      peer: LIMIT_MB,
      unit: 'MB',
      better: 'lower',
      goal: atMost(1, `limit ${LIMIT_MB} MB`),
      note:
        `rounds ${rounds.map((r) => Math.round(r.rss)).join(', ')} MB; peak (VmHWM) ${rounds.map((r) => Math.round(r.peak)).join(', ')} MB; ` +
        `before the load ${rounds.map((r) => Math.round(r.idle)).join(', ')} MB; ${rounds.map((r) => Math.round(r.rate)).join(', ')} req/s; ` +
        'mix: 40% getCampaign (random campaign), 20% getCampaignData limit 10 random page of 10,000, 10% limit 100 random page of 1,000, ' +
        '10% limit 10 pages 9,901-10,000, 20% reportingCampaign',
    });
  },
};

export const benches: Bench[] = [serverRss];
