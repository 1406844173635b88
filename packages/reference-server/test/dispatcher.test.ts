import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { upsertOrder } from '../../runtime/src/domain/orders.ts';
import type { Store } from '../../runtime/src/store/ports.ts';
import type { CompanyRecord, EndpointRecord } from '../../runtime/src/store/types.ts';
import { answeredQuickly, createDispatcher, type DispatcherOptions, shouldClaim } from '../../runtime/src/webhooks/dispatcher.ts';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { createMemoryStore, openSqlStore } from '../src/store/index.ts';
import { createNodeTransport } from '../src/webhooks/node-transport.ts';
import { migratedPgliteDump } from './helpers.ts';

const now = () => new Date().toISOString();
let counter = 0;
const ctx = () => ({ newId: (p: string) => `${p}_${Date.now().toString(36)}${(counter++).toString(36)}`, now: now() });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const order = { totalAmount: 10, firstName: 'Asha', phoneNumber: '+919800000001', postalCode: '1', streetAddress1: 'x' };

async function setupDispatcher(store: Store, endpoint: Partial<EndpointRecord> & { url: string }, opts: Partial<DispatcherOptions> = {}) {
  const company: CompanyRecord = { uuid: crypto.randomUUID(), company_id: `C${counter++}`, name: 'Co', timezone: 'UTC', created_at: now() };
  await store.createCompany(company);
  const ep = await store.createEndpoint({
    id: `wh_${counter++}`,
    company_uuid: company.uuid,
    description: '',
    events: [],
    enabled: true,
    disabled_reason: null,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previous_secrets: [],
    created_at: now(),
    updated_at: now(),
    ...endpoint,
  });
  const dispatcher = createDispatcher({ store, allowPrivate: true, retrySchedule: [0, 0.05, 0.05], jitter: 0, pollIntervalMs: 50, ...opts });
  await dispatcher.start();
  cleanups.push(() => dispatcher.stop(1000));
  const addOrder = (id: string, extra: Record<string, unknown> = {}) => upsertOrder(store, ctx(), company, id, { ...order, ...extra });
  const deliveries = async () => (await store.listDeliveries(company.uuid, ep.id, { page: 1, limit: 100 })).items;
  return { company, ep, dispatcher, addOrder, deliveries };
}

/** The value of `f` once `ok` holds for it (vi.waitFor: polled, failing after `timeoutMs` with the last value seen). */
async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const v = await f();
      if (!ok(v)) throw new Error(`condition not met yet: ${JSON.stringify(v).slice(0, 500)}`);
      return v;
    },
    { timeout: timeoutMs, interval: 20 },
  );
}

// The server sends through node:http (createNodeTransport); the mock, and any other caller, through fetch.
for (const [kind, via] of [
  ['memory', 'fetch'],
  ['pglite', 'fetch'],
  ['memory', 'node:http'],
] as const) {
  describe(`webhook dispatcher on the ${kind} store, sending through ${via}`, () => {
    // One PGlite for the block (it takes seconds to start); companies keep the tests apart.
    let shared: Store | undefined;
    afterAll(async () => shared?.close());
    // The receivers listen on loopback: the transport allows private targets as the dispatcher does (a test below refuses them).
    const transport = via === 'node:http' ? createNodeTransport({ allowPrivate: true }) : undefined;
    afterAll(() => transport?.close());
    const setup = (store: Store, endpoint: Partial<EndpointRecord> & { url: string }, opts: Partial<DispatcherOptions> = {}) =>
      setupDispatcher(store, endpoint, { ...(transport ? { transport } : {}), ...opts });
    const makeStore = async () => {
      if (kind === 'pglite') {
        shared ??= await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
        return shared;
      }
      const store = createMemoryStore();
      cleanups.push(() => store.close());
      return store;
    };

    it('delivers the order event, signed per Standard Webhooks, with the order snapshot', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const { addOrder, deliveries, ep } = await setup(await makeStore(), { url: receiver.url });
      const { event } = await addOrder('ORD-1');
      await receiver.waitFor(1);
      const [r] = receiver.received;
      const verified = new Webhook(ep.secret).verify(r?.body ?? '', r?.headers as Record<string, string>) as {
        id: string;
        type: string;
        data: { order: { company_order_id: string; version: number } };
      };
      expect(verified).toMatchObject({ id: event.id, type: 'order.created', data: { order: { company_order_id: 'ORD-1', version: 1 } } });
      expect(r?.headers['webhook-id']).toBe(event.id);
      const [d] = await until(deliveries, (ds) => ds[0]?.status === 'succeeded');
      expect(d?.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, response_excerpt: 'ok', error: null })]);
    });

    it('sends what a write in this process queued without claiming it: the write leases it to the dispatcher', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const store = await makeStore();
      let claims = 0;
      const counted: Store = {
        ...store,
        claimDeliveries: (claim) => {
          claims++;
          return store.claimDeliveries(claim);
        },
      };
      // No poll while the test runs: the one claim is the start's.
      const { addOrder, deliveries } = await setup(counted, { url: receiver.url }, { pollIntervalMs: 60_000 });
      await vi.waitFor(() => expect(claims).toBe(1));
      await addOrder('ORD-1');
      await addOrder('ORD-2');
      await receiver.waitFor(2);
      const done = await until(deliveries, (ds) => ds.length === 2 && ds.every((d) => d.status === 'succeeded'));
      expect(done.map((d) => d.attempt_count)).toEqual([1, 1]);
      expect(claims).toBe(1);
    });

    it('retries failures on the schedule, logs every attempt, and succeeds', async () => {
      const receiver = await startReceiver((_, i) => (i < 2 ? { status: 500, body: 'boom' } : { status: 204 }));
      cleanups.push(receiver.close);
      const { addOrder, deliveries } = await setup(await makeStore(), { url: receiver.url });
      await addOrder('ORD-1');
      const [d] = await until(deliveries, (ds) => ds[0]?.status === 'succeeded');
      expect(d?.attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
      expect(d?.attempts[0]?.response_excerpt).toBe('boom');
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    });

    it('marks the delivery failed after the last attempt, and keeps it visible', async () => {
      const receiver = await startReceiver(() => ({ status: 503 }));
      cleanups.push(receiver.close);
      const { addOrder, deliveries } = await setup(await makeStore(), { url: receiver.url });
      await addOrder('ORD-1');
      const [d] = await until(deliveries, (ds) => ds[0]?.status === 'failed');
      expect(d?.attempt_count).toBe(3);
      expect(d?.next_attempt_at).toBeNull();
      expect(receiver.received).toHaveLength(3);
    });

    it('records a timeout and a refused connection as attempts with an error', async () => {
      // The receiver answers only when the test is over: the attempt's own timeout is what ends it,
      // however slowly a loaded machine runs the rest.
      let release = () => {};
      const held = new Promise<void>((ok) => {
        release = ok;
      });
      const receiver = await startReceiver(() => ({ status: 200, after: held }));
      cleanups.push(receiver.close, async () => release());
      const { addOrder, deliveries } = await setup(await makeStore(), { url: receiver.url }, { attemptTimeoutMs: 100, retrySchedule: [0] });
      await addOrder('ORD-1');
      // A bound on a loaded machine's pace, not on the dispatcher's: only a hang takes this long.
      const [d] = await until(deliveries, (ds) => ds[0]?.status === 'failed', 25_000);
      expect(d?.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 0.1 s' });

      const closed = await setup(await makeStore(), { url: 'http://127.0.0.1:9/hooks' }, { retrySchedule: [0] });
      await closed.addOrder('ORD-2');
      const [c] = await until(closed.deliveries, (ds) => ds[0]?.status === 'failed', 25_000);
      expect(c?.attempts[0]?.error).toMatch(/^connection failed/);
    }, 60_000);

    it('honours Retry-After when the receiver asks for longer than the schedule', async () => {
      const receiver = await startReceiver(() => ({ status: 429, headers: { 'retry-after': '120' } }));
      cleanups.push(receiver.close);
      const { addOrder, deliveries } = await setup(await makeStore(), { url: receiver.url });
      await addOrder('ORD-1');
      const [d] = await until(deliveries, (ds) => ds[0]?.attempt_count === 1);
      const waited = Date.parse(d?.next_attempt_at ?? '') - Date.parse(d?.attempts[0]?.started_at ?? '');
      expect(waited).toBeGreaterThanOrEqual(119_000);
      expect(d?.status).toBe('pending');
    });

    it('disables the endpoint when the receiver answers 410, and sends it nothing more', async () => {
      const receiver = await startReceiver(() => ({ status: 410 }));
      cleanups.push(receiver.close);
      const store = await makeStore();
      const { addOrder, deliveries, company, ep } = await setup(store, { url: receiver.url });
      await addOrder('ORD-1');
      await until(deliveries, (ds) => ds[0]?.status === 'failed');
      const disabled = await store.getEndpoint(company.uuid, ep.id);
      expect(disabled).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('410') });
      // A disabled endpoint gets no delivery for a new event, so nothing more can be sent to it.
      await addOrder('ORD-2');
      expect((await deliveries()).map((d) => d.event_type)).toEqual(['order.created']);
      expect(receiver.received).toHaveLength(1);
    });

    it('sends only the event types an endpoint subscribed to', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const { addOrder, deliveries } = await setup(await makeStore(), { url: receiver.url, events: ['order.updated'] });
      await addOrder('ORD-1');
      await addOrder('ORD-1', { totalAmount: 11 });
      // Only the subscribed type got a delivery; the one delivery is what arrives.
      await until(deliveries, (ds) => ds[0]?.status === 'succeeded');
      expect((await deliveries()).map((d) => d.event_type)).toEqual(['order.updated']);
      expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['order.updated']);
    });

    it('signs with the old and the new secret during a rotation, each verifying alone', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const oldSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const newSecret = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
      const { addOrder } = await setup(await makeStore(), {
        url: receiver.url,
        secret: newSecret,
        previous_secrets: [
          { secret: oldSecret, expires_at: new Date(Date.now() + 60_000).toISOString() },
          { secret: 'whsec_ZXhwaXJlZGV4cGlyZWRleHBpcmVk', expires_at: new Date(Date.now() - 1000).toISOString() },
        ],
      });
      await addOrder('ORD-1');
      await receiver.waitFor(1);
      const r = receiver.received[0];
      expect(String(r?.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [oldSecret, newSecret]) expect(() => new Webhook(secret).verify(r?.body ?? '', r?.headers as Record<string, string>)).not.toThrow();
    });

    it('keeps a receiver that never answers to its endpoint limit, and sends the deliveries of another company meanwhile', async () => {
      // The stalled receiver answers only when the test is over, and then to no one (its connections are gone).
      let release = () => {};
      const held = new Promise<void>((ok) => {
        release = ok;
      });
      const stalled = await startReceiver(() => ({ status: 200, after: held }));
      const fast = await startReceiver();
      cleanups.push(fast.close, stalled.close, async () => release());
      const store = await makeStore();
      const opts = { concurrency: 8, endpointConcurrency: 2, attemptTimeoutMs: 60_000 };
      const x = await setup(store, { url: stalled.url }, opts);
      const y = await setup(store, { url: fast.url }, { ...opts, pollIntervalMs: 60_000 });
      // The second dispatcher stops at once: the first alone sends both companies' deliveries.
      await y.dispatcher.stop(0);
      // More than the window (4 x concurrency): the writes lease X only its share of it, and leave the rest to claims.
      for (let i = 0; i < 40; i++) await x.addOrder(`X-${i}`);
      await stalled.waitFor(2);
      for (let i = 0; i < 5; i++) await y.addOrder(`Y-${i}`);
      // A bound on a loaded machine's pace: with one queue, the fast receiver's deliveries waited behind the stalled one's for their 60 s timeout.
      await fast.waitFor(5, 15_000);
      expect(stalled.received).toHaveLength(2);
    }, 30_000);

    it('gives the endpoints of one company together at most companyConcurrency attempts in flight', async () => {
      let release = () => {};
      const held = new Promise<void>((ok) => {
        release = ok;
      });
      const stalled = await startReceiver(() => ({ status: 200, after: held }));
      const fast = await startReceiver();
      cleanups.push(fast.close, stalled.close, async () => release());
      const store = await makeStore();
      const opts = { concurrency: 16, endpointConcurrency: 2, companyConcurrency: 3, attemptTimeoutMs: 60_000 };
      const x = await setup(store, { url: `${stalled.url}/0` }, opts);
      // Two more endpoints of the same company on the stalled receiver: every order goes to all three.
      for (const n of [1, 2]) await store.createEndpoint({ ...x.ep, id: `${x.ep.id}_${n}`, url: `${stalled.url}/${n}` });
      const y = await setup(store, { url: fast.url }, { ...opts, pollIntervalMs: 60_000 });
      await y.dispatcher.stop(0);
      for (let i = 0; i < 5; i++) await x.addOrder(`X-${i}`);
      await stalled.waitFor(3);
      for (let i = 0; i < 3; i++) await y.addOrder(`Y-${i}`);
      await fast.waitFor(3, 15_000);
      // Three endpoints could have 2 each; the company's share is 3.
      expect(stalled.received).toHaveLength(3);
    }, 30_000);

    it('refuses a target that resolves to a private address at delivery time', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const { addOrder, deliveries } = await setup(
        await makeStore(),
        { url: 'http://hooks.partner.example/x' },
        { allowPrivate: false, resolveHost: async () => ['10.0.0.7'], retrySchedule: [0] },
      );
      await addOrder('ORD-1');
      const [d] = await until(deliveries, (ds) => ds[0]?.status === 'failed');
      expect(d?.attempts[0]?.error).toMatch(/not sent: .*10\.0\.0\.7/);
      expect(receiver.received).toHaveLength(0);
    });
  });
}

describe('shouldClaim', () => {
  const base = { window: 256, news: false, backlog: false };
  it('claims with any free place on news of due work', () => {
    expect(shouldClaim({ ...base, room: 1, news: true })).toBe(true);
  });
  it('refills in batches, once half the window is free, while more may be due', () => {
    expect(shouldClaim({ ...base, room: 127, backlog: true })).toBe(false);
    expect(shouldClaim({ ...base, room: 128, backlog: true })).toBe(true);
  });
  it('claims nothing after a claim that came back short, nor with the window full', () => {
    expect(shouldClaim({ ...base, room: 200 })).toBe(false);
    expect(shouldClaim({ ...base, room: 0, news: true, backlog: true })).toBe(false);
  });
});

describe('answeredQuickly', () => {
  const bounds = { floor: 4, ceiling: 16 };
  it('lets an endpoint have one more attempt in flight after a quick 2xx, up to its company share', () => {
    expect(answeredQuickly(4, true, bounds)).toBe(5);
    expect(answeredQuickly(16, true, bounds)).toBe(16);
  });
  it('takes it back to the endpoint limit after any other answer, or none', () => {
    expect(answeredQuickly(12, false, bounds)).toBe(4);
    expect(answeredQuickly(4, false, bounds)).toBe(4);
  });
});
