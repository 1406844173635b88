import { atLeast, type Bench, inTurns, loadTest, row, type Turns, turnsNote } from '../lib.ts';
import { startPeerServer } from '../processes.ts';
import { benchServer } from './setup.ts';

const SECONDS = 4;
const ROUNDS = 3;

/**
 * The cost of tracing: getCampaign req/s at 50 connections of a reference server on PostgreSQL with
 * OTEL_EXPORTER_OTLP_ENDPOINT set (a span for the request and one for each SQL statement, exported to a
 * receiver in a process of its own that answers 200 at once), against the same server without it. The
 * two take turns, a round of each, several rounds.
 */
export const tracingCost: Bench = {
  id: 'server.read.pg.tracing',
  async run() {
    const collector = await startPeerServer('{}');
    const on = await benchServer('postgres', { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    const off = await benchServer('postgres');
    try {
      const sideOf = (s: typeof on) => () =>
        loadTest({
          url: `${s.url}/agency/getCampaign/${s.campaignId}?uuid=${s.uuid}`,
          connections: 50,
          seconds: SECONDS,
          headers: { authorization: `Bearer ${s.token}` },
        });
      const turns = await inTurns(ROUNDS, { on: sideOf(on), off: sideOf(off) }, { warmUp: true });
      const r = { on: turns.on as Turns, off: turns.off as Turns };
      return row({
        id: 'server.read.pg.tracing',
        metric: `getCampaign req/s, 50 connections, tracing on (OTLP/HTTP to a local receiver) vs off (PostgreSQL; ${ROUNDS} rounds of ${SECONDS} s in turns after a warm-up turn of each)`,
        note: `req/s by round: tracing on ${turnsNote(r.on)}; tracing off ${turnsNote(r.off)}; every request sampled (the SDK's default), its spans batched to the receiver`,
        ours: Math.round(r.on.median),
        peer: Math.round(r.off.median),
        unit: 'req/s',
        better: 'higher',
        goal: atLeast(0.5, 'every request traced'),
      });
    } finally {
      await on.stop();
      await off.stop();
      await collector.stop();
    }
  },
};

export const benches: Bench[] = [tracingCost];
