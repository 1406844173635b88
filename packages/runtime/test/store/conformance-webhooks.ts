/** Store conformance: webhook endpoints and deliveries. Registered by `describeStoreConformance`. */
import { describe, expect, it, vi } from 'vitest';
import { pendingDelivery } from '../../src/domain/webhooks.ts';
import type { ClaimedDelivery, DeliveryRecord, EventRecord, WriteContext } from '../../src/store/types.ts';
import type { CurrentStore } from './conformance.ts';
import { company, deliveriesOf, endpoint, seedCompany, writer } from './conformance-fixtures.ts';

function testEvent(companyUuid: string, id: string, now: string): EventRecord {
  return {
    id,
    company_uuid: companyUuid,
    type: 'order.created',
    created_at: now,
    payload: { id, type: 'order.created', created_at: now, test: true, data: { order: {} } },
  };
}

/** Registers the webhook endpoint and delivery tests. */
export function describeWebhookConformance(store: CurrentStore): void {
  /** Appends the event (a second time changes nothing) and adds a pending delivery of it to one endpoint. */
  async function enqueue(write: WriteContext, event: EventRecord, endpointId: string): Promise<DeliveryRecord> {
    const delivery = pendingDelivery(write, event, endpointId);
    await store().appendEvent(event, [delivery]);
    return delivery;
  }

  describe('webhook endpoints', () => {
    it('creates, reads and lists endpoints oldest first, then in the order they were made', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const later = endpoint(co.uuid, 'wh_a', w.tick());
      await store().createEndpoint(later);
      const b = await store().createEndpoint(endpoint(co.uuid, 'wh_b', '2025-01-15T10:00:00Z'));
      // Made after b in the same instant, with an id that sorts before b's.
      const c = await store().createEndpoint(endpoint(co.uuid, 'wh_0', '2025-01-15T10:00:00.000Z', { events: ['order.created'], description: 'warehouse' }));
      expect(b.created_at).toBe('2025-01-15T10:00:00.000Z');
      expect(await store().getEndpoint(co.uuid, 'wh_0')).toEqual(c);
      expect(await store().getEndpoint(company(2).uuid, 'wh_0')).toBeNull();
      const first = await store().listEndpoints(co.uuid, { page: 1, limit: 2 });
      expect(first).toEqual({ items: [b, c], total: 3 });
      expect((await store().listEndpoints(co.uuid, { page: 2, limit: 2 })).items).toEqual([later]);
      expect(await store().allEndpoints(co.uuid)).toEqual([b, c, later]);
      expect(await store().allEndpoints(company(2).uuid)).toEqual([]);
    });

    it('updates only the given fields', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const created = await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      const now = w.tick();
      const previous = [{ secret: created.secret, expires_at: '2025-01-16T10:00:00.000Z' }];
      const updated = await store().updateEndpoint(
        co.uuid,
        'wh_1',
        { enabled: false, disabled_reason: 'gone', secret: 'whsec_new', previous_secrets: previous },
        now,
      );
      expect(updated).toEqual({ ...created, enabled: false, disabled_reason: 'gone', secret: 'whsec_new', previous_secrets: previous, updated_at: now });
      expect(await store().updateEndpoint(co.uuid, 'wh_1', { events: ['order.updated'], url: 'https://hooks.example.com/v2' }, now)).toEqual({
        ...updated,
        events: ['order.updated'],
        url: 'https://hooks.example.com/v2',
      });
      expect(await store().updateEndpoint(company(2).uuid, 'wh_1', { enabled: true }, now)).toBeNull();
      expect(await store().updateEndpoint(co.uuid, 'wh_404', { enabled: true }, now)).toBeNull();
    });

    it('deletes an endpoint with its pending deliveries, and only within its company', async () => {
      const co = await seedCompany(store(), 1);
      await seedCompany(store(), 2);
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_2', w.ctx.now));
      const event = testEvent(co.uuid, 'evt_1', w.ctx.now);
      const delivery = await enqueue(w.ctx, event, 'wh_1');
      await enqueue(w.ctx, event, 'wh_2');
      expect(await store().deleteEndpoint(company(2).uuid, 'wh_1')).toBe(false);
      expect(await store().deleteEndpoint(co.uuid, 'wh_1')).toBe(true);
      expect(await store().getEndpoint(co.uuid, 'wh_1')).toBeNull();
      expect(await store().getDelivery(co.uuid, 'wh_1', delivery.id)).toBeNull();
      expect(await deliveriesOf(store(), co.uuid, 'wh_1')).toEqual({ items: [], total: 0 });
      expect((await deliveriesOf(store(), co.uuid, 'wh_2')).total).toBe(1);
      expect(await store().getEvent(event.id)).toEqual(event);
      expect(await store().deleteEndpoint(co.uuid, 'wh_1')).toBe(false);
      expect((await store().listEndpoints(co.uuid, { page: 1, limit: 10 })).items.map((e) => e.id)).toEqual(['wh_2']);
    });
  });

  describe('deliveries', () => {
    it('keeps an event and its pending delivery; a second delivery of the event adds a delivery, not an event', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      const event = testEvent(co.uuid, 'evt_test', w.ctx.now);
      const first = await enqueue(w.ctx, event, 'wh_1');
      expect(first).toEqual({
        id: first.id,
        company_uuid: co.uuid,
        endpoint_id: 'wh_1',
        event_id: 'evt_test',
        event_type: 'order.created',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: w.ctx.now,
        created_at: w.ctx.now,
        attempts: [],
      });
      expect(await store().getEvent('evt_test')).toEqual(event);
      w.tick();
      const again = await enqueue(w.ctx, { ...event, payload: { changed: true } }, 'wh_1');
      expect(again.id).not.toBe(first.id);
      expect(await store().getEvent('evt_test')).toEqual(event);
      expect(await store().getDelivery(co.uuid, 'wh_1', first.id)).toEqual(first);
      expect(await store().getDelivery(co.uuid, 'wh_2', first.id)).toBeNull();
      expect(await store().getDelivery(company(2).uuid, 'wh_1', first.id)).toBeNull();
      expect(await store().getEvent('evt_404')).toBeNull();
    });

    it('lists deliveries newest first, one page at a time, filtered by status', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_2', w.ctx.now));
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        w.tick();
        ids.push((await enqueue(w.ctx, testEvent(co.uuid, `evt_${n}`, w.ctx.now), 'wh_1')).id);
      }
      // Same time as the last one, and an id that sorts first: made later, so it is the newer.
      ids.push((await enqueue(w.withIds('dlv_0000'), testEvent(co.uuid, 'evt_4', w.ctx.now), 'wh_1')).id);
      await enqueue(w.ctx, testEvent(co.uuid, 'evt_5', w.ctx.now), 'wh_2');
      const page1 = await store().listDeliveries(co.uuid, 'wh_1', { page: 1, limit: 3 });
      expect(page1.total).toBe(4);
      expect(page1.items.map((d) => d.id)).toEqual([ids[3], ids[2], ids[1]]);
      expect((await store().listDeliveries(co.uuid, 'wh_1', { page: 2, limit: 3 })).items.map((d) => d.id)).toEqual([ids[0]]);
      expect((await store().listDeliveries(co.uuid, 'wh_1', { page: 1, limit: 10, status: 'pending' })).total).toBe(4);
      expect(await store().listDeliveries(co.uuid, 'wh_1', { page: 1, limit: 10, status: 'succeeded' })).toEqual({ items: [], total: 0 });
      expect(await store().listDeliveries(company(2).uuid, 'wh_1', { page: 1, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('leases the deliveries a write makes to the taker, and hands them over once it commits', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_on', w.ctx.now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_off', w.ctx.now, { enabled: false }));
      const taken: ClaimedDelivery[][] = [];
      const asked: string[][] = [];
      const leaseUntil = '2025-01-15T10:01:00.000Z';
      const stop = store().takeOnWrite({
        claimToken: 'dsp_here',
        leaseUntil: (deliveries) => {
          asked.push(deliveries.map((d) => d.endpoint_id));
          return leaseUntil;
        },
        take: (c) => void taken.push(c),
      });
      let heard = 0;
      const unsubscribe = await store().onDeliveriesQueued(() => void heard++);
      try {
        const event = testEvent(co.uuid, 'evt_1', w.ctx.now);
        const on = pendingDelivery(w.ctx, event, 'wh_on');
        const off = pendingDelivery(w.ctx, event, 'wh_off');
        await store().transaction(async (tx) => {
          await tx.appendEvent(event, [on, off]);
          expect(taken).toEqual([]);
        });
        expect(asked).toEqual([['wh_on', 'wh_off']]);
        // Those to an enabled endpoint, with what sending needs; the other one's lease lapses unused.
        expect(taken).toEqual([
          [
            {
              delivery: on,
              endpoint: { id: 'wh_on', url: 'https://hooks.example.com/wh_on', secret: expect.any(String), previous_secrets: [] },
              payload: event.payload,
              claimToken: 'dsp_here',
            },
          ],
        ]);
        // Leased: no other claimer gets them before the lease ends, and the taker records the attempt under its token.
        const claim = { now: w.ctx.now, leaseUntil: '2025-01-15T10:02:00.000Z', claimToken: 'dsp_other', limit: 10, perEndpoint: 100, perCompany: 100 };
        expect(await store().claimDeliveries(claim)).toEqual([]);
        const outcome = {
          attempt: { attempt: 1, started_at: w.ctx.now, status_code: 200, latency_ms: 1, response_excerpt: 'ok', error: null },
          status: 'succeeded' as const,
          nextAttemptAt: null,
        };
        expect(await store().finishAttempts([{ id: on.id, claimToken: 'dsp_here', outcome }], w.ctx.now)).toEqual(new Set([on.id]));
        // A second delivery of the same event carries the payload kept with it.
        await store().appendEvent({ ...event, payload: { changed: true } }, [pendingDelivery(w.ctx, event, 'wh_on')]);
        expect(taken[1]?.[0]?.payload).toEqual(event.payload);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(heard).toBe(0);
      } finally {
        stop();
        await unsubscribe();
      }
    });

    it('hands nothing over for a write that rolls back, and leaves deliveries to a claim when the taker has no room', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      let room = true;
      const taken: ClaimedDelivery[][] = [];
      const stop = store().takeOnWrite({
        claimToken: 'dsp_here',
        leaseUntil: () => (room ? '2025-01-15T10:01:00.000Z' : null),
        take: (c) => void taken.push(c),
      });
      let heard = 0;
      const unsubscribe = await store().onDeliveriesQueued(() => void heard++);
      try {
        const first = testEvent(co.uuid, 'evt_1', w.ctx.now);
        await expect(
          store().transaction(async (tx) => {
            await tx.appendEvent(first, [pendingDelivery(w.ctx, first, 'wh_1')]);
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(taken).toEqual([]);
        expect(await store().getEvent('evt_1')).toBeNull();
        room = false;
        const second = testEvent(co.uuid, 'evt_2', w.ctx.now);
        const delivery = pendingDelivery(w.ctx, second, 'wh_1');
        await store().transaction((tx) => tx.appendEvent(second, [delivery]));
        expect(taken).toEqual([]);
        await vi.waitFor(() => expect(heard).toBe(1));
        const claim = { now: w.ctx.now, leaseUntil: '2025-01-15T10:02:00.000Z', claimToken: 'dsp_other', limit: 10, perEndpoint: 100, perCompany: 100 };
        expect((await store().claimDeliveries(claim)).map((c) => c.delivery.id)).toEqual([delivery.id]);
        // Stopped, it is asked for nothing.
        room = true;
        stop();
        const third = testEvent(co.uuid, 'evt_3', w.ctx.now);
        await store().transaction((tx) => tx.appendEvent(third, [pendingDelivery(w.ctx, third, 'wh_1')]));
        expect(taken).toEqual([]);
      } finally {
        stop();
        await unsubscribe();
      }
    });

    it('renews the leases of its own claims only (renewLeases), so a claim after the old lease skips them', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      const at = (ms: number) => new Date(Date.parse(w.ctx.now) + ms).toISOString();
      const [d1, d2, d3] = [
        await enqueue(w.ctx, testEvent(co.uuid, 'evt_1', w.ctx.now), 'wh_1'),
        await enqueue(w.ctx, testEvent(co.uuid, 'evt_2', w.ctx.now), 'wh_1'),
        await enqueue(w.ctx, testEvent(co.uuid, 'evt_3', w.ctx.now), 'wh_1'),
      ];
      const claimed = await store().claimDeliveries({
        now: w.ctx.now,
        leaseUntil: at(60_000),
        claimToken: 'dsp_a',
        limit: 10,
        perEndpoint: 100,
        perCompany: 100,
      });
      expect(claimed.map((c) => c.delivery.id).sort()).toEqual([d1?.id, d2?.id, d3?.id].sort());
      // d3's attempt is recorded (a retry later): a lease renewal leaves it, as it no longer holds it.
      const kept = await store().finishAttempts(
        [
          {
            id: d3?.id as string,
            claimToken: 'dsp_a',
            outcome: {
              attempt: { attempt: 1, started_at: w.ctx.now, status_code: 500, latency_ms: 1, response_excerpt: 'no', error: null },
              status: 'retry',
              nextAttemptAt: at(60_000),
            },
          },
        ],
        w.ctx.now,
      );
      expect(kept.has(d3?.id as string)).toBe(true);
      expect(claimed.some((c) => c.taken_over)).toBe(false);
      await store().renewLeases('dsp_a', at(300_000));
      await store().renewLeases('dsp_other', at(900_000));
      const claimAt = (ms: number, claimToken: string) =>
        store().claimDeliveries({ now: at(ms), leaseUntil: at(ms + 300_000), claimToken, limit: 10, perEndpoint: 100, perCompany: 100 });
      const retried = await claimAt(120_000, 'dsp_b');
      expect(retried.map((c) => c.delivery.id)).toEqual([d3?.id]);
      // Its attempt was recorded, which ended dsp_a's claim: due again, not taken over.
      expect(retried[0]?.taken_over).toBeUndefined();
      const lapsed = await claimAt(360_000, 'dsp_c');
      expect(lapsed.map((c) => c.delivery.id).sort()).toEqual([d1?.id, d2?.id].sort());
      // dsp_a's lease ran out while it held them: each is a take-over.
      expect(lapsed.every((c) => c.taken_over === true)).toBe(true);
      // A claimer that claims again what it held when its own lease ran out takes it over from nobody;
      // d3, held by dsp_b since, it takes over.
      const again = await claimAt(700_000, 'dsp_c');
      expect(again.map((c) => c.delivery.id).sort()).toEqual([d1?.id, d2?.id, d3?.id].sort());
      expect(again.filter((c) => c.taken_over).map((c) => c.delivery.id)).toEqual([d3?.id]);
    });

    it('claims round the due endpoints, oldest due first in each round, counting what each endpoint and company holds against its share', async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      const at = (ms: number) => new Date(Date.parse(w.ctx.now) + ms).toISOString();
      await store().createEndpoint(endpoint(co.uuid, 'wh_slow', w.ctx.now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_off', w.ctx.now, { enabled: false }));
      await store().createEndpoint(endpoint(other.uuid, 'wh_y', w.ctx.now));
      await store().createEndpoint(endpoint(other.uuid, 'wh_z', w.ctx.now));
      // wh_slow has the 6 oldest due deliveries; wh_y and wh_z fall due after them; wh_off's are never claimed.
      const ids: Record<string, string[]> = { wh_slow: [], wh_y: [], wh_z: [], wh_off: [] };
      let n = 0;
      const add = async (endpointId: string, companyUuid: string, dueMs: number) => {
        const c = { ...w.ctx, now: at(dueMs), newId: (p: string) => `${p}_${String(n++).padStart(3, '0')}` };
        ids[endpointId]?.push((await enqueue(c, testEvent(companyUuid, `evt_${n}`, c.now), endpointId)).id);
      };
      for (let i = 0; i < 6; i++) await add('wh_slow', co.uuid, i);
      for (let i = 0; i < 3; i++) await add('wh_y', other.uuid, 10 + i);
      await add('wh_z', other.uuid, 20);
      await add('wh_off', co.uuid, 0);
      const claim = (claimToken: string, limit: number, perEndpoint: number, nowMs = 60_000, perCompany = 100) =>
        store().claimDeliveries({ now: at(nowMs), leaseUntil: at(nowMs + 60_000), claimToken, limit, perEndpoint, perCompany });
      const idsOf = (claimed: ClaimedDelivery[]) => claimed.map((c) => c.delivery.id).sort();
      const [slow, y, z] = [ids.wh_slow ?? [], ids.wh_y ?? [], ids.wh_z ?? []];
      // Round one: every endpoint's oldest (wh_slow's first, wh_y's first, wh_z's only); then round two, oldest first.
      expect(idsOf(await claim('dsp_a', 4, 10))).toEqual([slow[0], y[0], z[0], slow[1]].sort());
      // Another claimer: wh_slow holds 2 under a live lease, so perEndpoint 3 leaves it one more; wh_y holds 1 of 3.
      expect(idsOf(await claim('dsp_b', 10, 3))).toEqual([slow[2], y[1], y[2]].sort());
      // Every endpoint at its limit: nothing more, though wh_slow has three due.
      expect(await claim('dsp_c', 10, 3)).toEqual([]);
      // Past the leases, held deliveries count no more: wh_slow's oldest three still pending come first.
      expect(idsOf(await claim('dsp_d', 10, 3, 180_000))).toEqual([slow[0], slow[1], slow[2], y[0], y[1], y[2], z[0]].sort());
      // A company's share counts all its endpoints, in claim order: two of the first company's, two of the second's.
      expect(idsOf(await claim('dsp_e', 10, 10, 300_000, 2))).toEqual([slow[0], slow[1], y[0], z[0]].sort());
      // The first company holds two now: with a share of 3 it gets one more; the second holds two, its share.
      expect(idsOf(await claim('dsp_f', 10, 10, 300_000, 3))).toEqual([slow[2], y[1]].sort());
    });

    it('tells when the earliest pending delivery falls due, or the earliest after a moment', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      expect(await store().nextDeliveryDue()).toBeNull();
      const first = w.ctx.now;
      await enqueue(w.ctx, testEvent(co.uuid, 'evt_1', first), 'wh_1');
      const second = w.tick(5000);
      await enqueue(w.ctx, testEvent(co.uuid, 'evt_2', second), 'wh_1');
      expect(await store().nextDeliveryDue()).toBe(first);
      expect(await store().nextDeliveryDue(first)).toBe(second);
      expect(await store().nextDeliveryDue(second)).toBeNull();
    });
  });
}
