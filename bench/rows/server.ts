import pg from 'pg';
import { atLeast, atMost, type Bench, inTurns, loadTest, median, row, type Turns, turnsNote } from '../lib.ts';
import { startPeerServer, startScriptServer } from '../processes.ts';
import { benchServer } from './setup.ts';

const SECONDS = 4;
const ROUNDS = 3;

/**
 * Reference server getCampaign req/s at 50 connections vs a bare node:http server answering the same
 * body. On PostgreSQL, also vs a minimal Hono + drizzle (node-postgres) app reading the same campaign
 * by id (bench/hono-drizzle-server.ts): what a team would write for itself, without auth, validation
 * or envelope. The three servers take turns, a round of each, several rounds.
 */
export function serverRead(database: 'postgres' | 'pglite', goal: number): Bench {
  const id = `server.read.${database === 'postgres' ? 'pg' : 'pglite'}.vs-node-http`;
  return {
    id,
    async run() {
      const s = await benchServer(database);
      try {
        const path = `/agency/getCampaign/${s.campaignId}?uuid=${s.uuid}`;
        const headers = { authorization: `Bearer ${s.token}` };
        const body = await (await fetch(s.url + path, { headers })).text();
        const peer = await startPeerServer(body);
        const team = database === 'postgres' ? await startScriptServer('./hono-drizzle-server.ts', { DATABASE_URL: s.databaseUrl as string }) : undefined;
        try {
          const load = (url: string, h?: Record<string, string>) => () => loadTest({ url, connections: 50, seconds: SECONDS, ...(h ? { headers: h } : {}) });
          const sides: Record<string, () => Promise<number>> = { ours: load(s.url + path, headers), bare: load(peer.url + path) };
          if (team) sides.team = load(team.url + path);
          const turns = await inTurns(ROUNDS, sides, { warmUp: true });
          const r = { ours: turns.ours as Turns, bare: turns.bare as Turns, team: turns.team };
          const note = `req/s by round: reference server ${turnsNote(r.ours)}; node:http ${turnsNote(r.bare)}${r.team ? `; Hono + drizzle ${turnsNote(r.team)}` : ''}`;
          const rows = [
            row({
              id,
              metric: `getCampaign req/s, 50 connections (${ROUNDS} rounds of ${SECONDS} s in turns after a warm-up turn of each)`,
              note,
              ours: Math.round(r.ours.median),
              peer: Math.round(r.bare.median),
              unit: 'req/s',
              better: 'higher',
              goal: atLeast(goal),
            }),
          ];
          if (team) {
            rows.push(
              row({
                id: 'server.read.pg.vs-hono-drizzle',
                metric: 'getCampaign req/s, 50 connections, vs a minimal Hono + drizzle (node-postgres) app reading the same campaign',
                note,
                ours: Math.round(r.ours.median),
                peer: Math.round((r.team as Turns).median),
                unit: 'req/s',
                better: 'higher',
                goal: atLeast(0.8),
              }),
            );
          }
          return rows;
        } finally {
          await peer.stop();
          await team?.stop();
        }
      } finally {
        await s.stop();
      }
    },
  };
}

/** getCampaignData latency at page 10,000 (limit 10) with 100,000 campaigns vs page 1, on PostgreSQL. */
export const deepPage: Bench = {
  id: 'server.deep-page',
  async run() {
    const s = await benchServer('postgres');
    try {
      const db = new pg.Client({ connectionString: s.databaseUrl });
      await db.connect();
      // 100,000 campaigns straight into the table (the API would take minutes), with the per-company seq the store keeps.
      await db.query(
        `INSERT INTO campaigns (id, company_uuid, seq, name, status, schedule_type, schedule, days, template_payload, next_run_at, created_at, updated_at)
         SELECT 'cmp_bench_' || g, $1, g + 1, 'bench ' || g, 'scheduled', 'once', '2099-01-01', NULL, c.template_payload, NULL, now(), now()
           FROM generate_series(1, 99999) AS g, (SELECT template_payload FROM campaigns WHERE company_uuid = $1 LIMIT 1) AS c`,
        [s.uuid],
      );
      await db.query('UPDATE companies SET campaign_seq = 100000 WHERE uuid = $1', [s.uuid]);
      await db.query('ANALYZE campaigns');
      await db.end();
      const headers = { authorization: `Bearer ${s.token}` };
      const call = async (page: number) => {
        const t0 = performance.now();
        const res = await fetch(`${s.url}/agency/getCampaignData?uuid=${s.uuid}&page=${page}&limit=10`, { headers });
        const json = await res.json();
        if (!res.ok || json.data.length !== 10) throw new Error(`page ${page}: ${res.status}`);
        return performance.now() - t0;
      };
      // The two pages in turns call by call (the order flipping each pair), so both see the same moments
      // of the machine: a p50 gap of a few tenths of a millisecond is less than the drift of a shared
      // machine over a block of calls. Each round: 50 pairs of warm-up, then the medians of 300.
      const rounds: { deep: number; first: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const deep: number[] = [];
        const first: number[] = [];
        for (let i = 0; i < 350; i++) {
          let d: number;
          let f: number;
          if (i % 2 === 0) {
            d = await call(10_000);
            f = await call(1);
          } else {
            f = await call(1);
            d = await call(10_000);
          }
          if (i >= 50) {
            deep.push(d);
            first.push(f);
          }
        }
        rounds.push({ deep: median(deep), first: median(first) });
      }
      const r = { ours: median(rounds.map((x) => x.deep)), peer: median(rounds.map((x) => x.first)) };
      return row({
        id: 'server.deep-page',
        metric: 'getCampaignData p50 latency, page 10,000 vs page 1 (100,000 campaigns, PostgreSQL; the two pages called in turns)',
        note: `rounds (page 10,000 / page 1, ms): ${rounds.map((x) => `${x.deep.toFixed(2)} / ${x.first.toFixed(2)}`).join(', ')}`,
        ours: Math.round(r.ours * 100) / 100,
        peer: Math.round(r.peer * 100) / 100,
        unit: 'ms',
        better: 'lower',
        goal: atMost(1.2),
      });
    } finally {
      await s.stop();
    }
  },
};

export const benches: Bench[] = [serverRead('postgres', 0.25), serverRead('pglite', 0.2), deepPage];
