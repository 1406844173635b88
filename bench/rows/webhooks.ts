import { createServer } from 'node:http';
import pg from 'pg';
import { atLeast, atMost, type Bench, loadTest, median, percentile, row } from '../lib.ts';
import { ADMIN_TOKEN, benchServer } from './setup.ts';

/** A receiver in this process: counts POSTs, answers 200 at once. */
async function receiver() {
  const arrivals: { at: number; id: string }[] = [];
  let onArrive: (() => void) | undefined;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ at: performance.timeOrigin + performance.now(), id: String(req.headers['webhook-id'] ?? '') });
      res.writeHead(200, { 'content-length': 2 });
      res.end('ok');
      onArrive?.();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return {
    url,
    arrivals,
    until(n: number, timeoutMs: number) {
      return new Promise<void>((ok, fail) => {
        const t = setTimeout(() => fail(new Error(`${arrivals.length} of ${n} deliveries in ${timeoutMs} ms`)), timeoutMs);
        onArrive = () => {
          if (arrivals.length >= n) {
            clearTimeout(t);
            ok();
          }
        };
        onArrive();
      });
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const N = 3000;
/** The delivery rate the dispatcher is held to, events/s. */
const RATE_LIMIT = 3000;
/** The commit-to-delivery p50 it is held to, ms. */
const LATENCY_LIMIT_MS = 10;

/**
 * Events/s the dispatcher delivers to a loopback receiver (PostgreSQL), against a 3,000 events/s limit;
 * the note gives what a bare concurrent client gets from that receiver in the same run.
 */
export const deliveryRate: Bench = {
  id: 'webhooks.delivery.rate',
  async run() {
    const rx = await receiver();
    const s = await benchServer('postgres');
    try {
      await s.call('POST', `/api/v2/companies/${s.uuid}/webhooks`, ADMIN_TOKEN, { url: rx.url });
      const endpoint = (await s.call('GET', `/api/v2/companies/${s.uuid}/webhooks`, ADMIN_TOKEN))[0].id as string;
      const rates: number[] = [];
      for (let round = 0; round < 3; round++) {
        const db = new pg.Client({ connectionString: s.databaseUrl });
        await db.connect();
        const before = rx.arrivals.length;
        // N events with their pending deliveries, committed at once; then NOTIFY wakes the dispatcher.
        await db.query('BEGIN');
        await db.query(
          `INSERT INTO events (id, company_uuid, type, payload, created_at)
           SELECT 'evt_b${round}_' || g, $1, 'order.created', jsonb_build_object('id', 'evt_b${round}_' || g, 'type', 'order.created', 'data', jsonb_build_object('n', g)), now()
             FROM generate_series(1, ${N}) AS g`,
          [s.uuid],
        );
        await db.query(
          `INSERT INTO deliveries (id, company_uuid, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, attempts, created_at)
           SELECT 'dlv_b${round}_' || g, $1, $2, 'evt_b${round}_' || g, 'order.created', 'pending', 0, now(), '[]'::jsonb, now()
             FROM generate_series(1, ${N}) AS g`,
          [s.uuid, endpoint],
        );
        await db.query(`SELECT pg_notify('engagekit_deliveries', '')`);
        const t0 = performance.now();
        await db.query('COMMIT');
        await rx.until(before + N, 120_000);
        rates.push(N / ((performance.now() - t0) / 1000));
        await db.end();
      }
      // The receiver's own limit: a bare client with the dispatcher's concurrency (32) POSTing to it.
      const peerRates: number[] = [];
      for (let i = 0; i < 3; i++) peerRates.push(await loadTest({ url: rx.url, connections: 32, seconds: 3 }));
      const peer = median(peerRates);
      return row({
        id: 'webhooks.delivery.rate',
        metric: `events/s delivered to a loopback receiver (PostgreSQL, ${N} queued at once, median of 3 rounds), against a ${RATE_LIMIT.toLocaleString('en')} events/s limit`,
        ours: Math.round(median(rates)),
        peer: RATE_LIMIT,
        unit: 'events/s',
        better: 'higher',
        goal: atLeast(1),
        note: `rounds ${rates.map((r) => Math.round(r)).join(', ')} events/s; the receiver's own capacity, a bare client with 32 connections POSTing to it: ${Math.round(peer)} req/s`,
      });
    } finally {
      await s.stop();
      await rx.close();
    }
  },
};

/** Commit-to-delivery latency: an order added through the API, until its event reaches the receiver. */
export const deliveryLatency: Bench = {
  id: 'webhooks.latency.p50',
  async run() {
    const rx = await receiver();
    const s = await benchServer('postgres');
    try {
      await s.call('POST', `/api/v2/companies/${s.uuid}/webhooks`, ADMIN_TOKEN, { url: rx.url });
      const latencies: number[] = [];
      // Of each latency: until the addOrder answer, and from it to the event's arrival (where the dispatcher's share shows).
      const answered: number[] = [];
      const afterAnswer: number[] = [];
      for (let i = 0; i < 200; i++) {
        const before = rx.arrivals.length;
        // From the request that commits the order: an upper bound of commit-to-delivery.
        const sent = performance.timeOrigin + performance.now();
        await s.call('POST', '/api/order/addOrder', s.token, {
          company_id: s.companyId,
          company_order_id: `L-${i}`,
          totalAmount: 1,
          firstName: 'L',
          phoneNumber: '+14155550100',
          postalCode: '1',
          streetAddress1: 'x',
        });
        const answeredAt = performance.timeOrigin + performance.now();
        await rx.until(before + 1, 10_000);
        const arrivedAt = rx.arrivals[before]?.at ?? sent;
        latencies.push(arrivedAt - sent);
        answered.push(answeredAt - sent);
        afterAnswer.push(arrivedAt - answeredAt);
      }
      const p50 = Math.round(median(latencies.slice(20)) * 10) / 10;
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return row({
        id: 'webhooks.latency.p50',
        metric: `commit-to-delivery p50 over 180 orders, measured from the addOrder request, PostgreSQL, against a ${LATENCY_LIMIT_MS} ms limit`,
        ours: p50,
        peer: LATENCY_LIMIT_MS,
        unit: 'ms',
        better: 'lower',
        goal: atMost(1),
        note: `p95 ${round(percentile(latencies.slice(20), 95))} ms; of the p50, the addOrder answer took ${round(median(answered.slice(20)))} ms (p50) and its event arrived ${round(median(afterAnswer.slice(20)))} ms after it (p50)`,
      });
    } finally {
      await s.stop();
      await rx.close();
    }
  },
};

export const benches: Bench[] = [deliveryRate, deliveryLatency];
