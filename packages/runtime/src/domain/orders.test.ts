/**
 * The order, outbox and customer rules, each tested once, on every store: what an order write does
 * (the order, its customers, its event and the event's deliveries), the customers a sync derives and
 * an import writes, and what simultaneous writes leave.
 */
import { describe, expect, it } from 'vitest';
import { eachTestStore, forEveryStore } from '../../test/every-store.ts';
import { company, deliveriesOf, endpoint, orderFields, range, seedCompany, writer } from '../../test/store/conformance-fixtures.ts';
import type { CustomerRecord } from '../store/types.ts';
import { importCustomers, syncCustomers } from './customers.ts';
import { newOrderRecord, orderSnapshot, updateOrder, upsertOrder } from './orders.ts';

const PHONE_A = '+15550000001';
const PHONE_B = '+15550000002';
/** How many calls the race tests start at once. */
const racers = 20;

forEveryStore((kind, makeStore) => {
  const store = eachTestStore(makeStore);
  const customers = async (companyUuid: string) => (await store().listCustomers(companyUuid, { page: 1, limit: 100 })).items;
  const byPhone = async (companyUuid: string, phone: string) => (await customers(companyUuid)).find((c) => c.phoneNumber === phone);
  void kind;

  describe('orders', () => {
    it('creates an order at version 1 with nulls for fields never sent', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const { order, created } = await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields({ lastName: undefined, city: 'Springfield' }));
      expect(created).toBe(true);
      expect(order).toMatchObject({
        company_uuid: co.uuid,
        company_id: 'CO1',
        company_order_id: 'ORD-1',
        version: 1,
        firstName: 'Ann',
        lastName: null,
        city: 'Springfield',
      });
      expect(order).toMatchObject({
        email: null,
        products: [],
        company_order_other_attributes_1: null,
        companyOrderDate: null,
        created_at: w.ctx.now,
        updated_at: w.ctx.now,
      });
      expect(await store().getOrder(co.uuid, 'ORD-1')).toEqual(order);
      expect(await store().getOrder(company(2).uuid, 'ORD-1')).toBeNull();
    });

    it('merges only the given fields on a second upsert and bumps the version', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const products = [{ product_id: '101', quantity: 2, price: 500 }];
      const first = await upsertOrder(
        store(),
        w.ctx,
        co,
        'ORD-1',
        orderFields({ products, companyOrderDate: '2024-11-15', company_order_other_attributes_1: { giftWrap: true } }),
      );
      const later = w.tick();
      const second = await upsertOrder(store(), w.ctx, co, 'ORD-1', { city: 'Paris', totalAmount: 250.5, lastName: null });
      expect(second.created).toBe(false);
      expect(second.order).toEqual({ ...first.order, city: 'Paris', totalAmount: 250.5, lastName: null, version: 2, updated_at: later });
      const third = await updateOrder(store(), w.ctx, co, 'ORD-1', { companyOrderStatus: 'Shipped' });
      expect(third?.order).toEqual({ ...second.order, companyOrderStatus: 'Shipped', version: 3 });
      expect(await store().getOrder(co.uuid, 'ORD-1')).toEqual(third?.order);
    });

    it('answers updateOrder of an unknown order with null and writes nothing', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      expect(await updateOrder(store(), w.ctx, co, 'ORD-404', { city: 'Paris' })).toBeNull();
      expect(await store().getOrder(co.uuid, 'ORD-404')).toBeNull();
      expect((await deliveriesOf(store(), co.uuid, 'wh_1')).total).toBe(0);
      expect(await customers(co.uuid)).toEqual([]);
    });

    it('refuses to create an order without its mandatory fields', async () => {
      const co = await seedCompany(store());
      await expect(upsertOrder(store(), writer().ctx, co, 'ORD-1', { city: 'Paris' })).rejects.toThrow(/firstName/);
      expect(await store().getOrder(co.uuid, 'ORD-1')).toBeNull();
    });

    it('keeps orders of different companies apart and totals each exactly', async () => {
      const a = await seedCompany(store(), 1);
      const b = await seedCompany(store(), 2);
      const w = writer();
      await upsertOrder(store(), w.ctx, a, 'ORD-1', orderFields({ totalAmount: 0.1 }));
      await upsertOrder(store(), w.ctx, a, 'ORD-2', orderFields({ totalAmount: 0.2, phoneNumber: PHONE_B }));
      await upsertOrder(store(), w.ctx, b, 'ORD-1', orderFields({ totalAmount: 7 }));
      expect(await store().orderTotals(a.uuid)).toEqual({ total: 2, amount: 0.3 });
      await upsertOrder(store(), w.ctx, a, 'ORD-1', { totalAmount: 1.15 });
      expect(await store().orderTotals(a.uuid)).toEqual({ total: 2, amount: 1.35 });
      expect(await store().orderTotals(b.uuid)).toEqual({ total: 1, amount: 7 });
      expect(await store().orderTotals(company(3).uuid)).toEqual({ total: 0, amount: 0 });
    });

    it("lists a company's orders oldest first, one page at a time, and no other company's", async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      for (const id of ['ORD-B', 'ORD-A', 'ORD-C']) {
        await upsertOrder(store(), w.ctx, co, id, orderFields());
        w.tick();
      }
      await upsertOrder(store(), w.ctx, other, 'ORD-X', orderFields());
      // An update keeps the order's place.
      await updateOrder(store(), w.ctx, co, 'ORD-B', { city: 'Paris' });
      const first = await store().listOrders(co.uuid, { page: 1, limit: 2 });
      expect(first.total).toBe(3);
      expect(first.items.map((o) => o.company_order_id)).toEqual(['ORD-B', 'ORD-A']);
      expect(first.items[0]?.city).toBe('Paris');
      expect((await store().listOrders(co.uuid, { page: 2, limit: 2 })).items.map((o) => o.company_order_id)).toEqual(['ORD-C']);
      expect(await store().listOrders(company(3).uuid, { page: 1, limit: 2 })).toEqual({ items: [], total: 0 });
    });

    it(`leaves one order and one created: true after ${racers} simultaneous upserts of one key`, async () => {
      const co = await seedCompany(store());
      const w = writer();
      const results = await Promise.all(range(racers).map((i) => upsertOrder(store(), w.ctx, co, 'ORD-RACE', orderFields({ totalAmount: i }))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
      expect(results.map((r) => r.order.version).sort((x, y) => x - y)).toEqual(range(racers).map((i) => i + 1));
      expect(results.map((r) => r.event.type).sort()).toEqual(['order.created', ...Array(racers - 1).fill('order.updated')]);
      const stored = await store().getOrder(co.uuid, 'ORD-RACE');
      expect(stored?.version).toBe(racers);
      expect(await store().orderTotals(co.uuid)).toEqual({ total: 1, amount: stored?.totalAmount });
      expect(await customers(co.uuid)).toMatchObject([{ phoneNumber: PHONE_A, orders_count: 1, orders_amount: stored?.totalAmount }]);
    });

    it(`counts every order when ${racers} simultaneous orders name one phone`, async () => {
      const co = await seedCompany(store());
      const w = writer();
      await Promise.all(range(racers).map((i) => upsertOrder(store(), w.ctx, co, `ORD-${i}`, orderFields({ totalAmount: 0.1 }))));
      expect(await customers(co.uuid)).toMatchObject([{ phoneNumber: PHONE_A, orders_count: racers, orders_amount: racers / 10 }]);
    });
  });

  describe('outbox', () => {
    async function setup() {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      const now = w.ctx.now;
      await store().createEndpoint(endpoint(co.uuid, 'wh_all', now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_created', now, { events: ['order.created'] }));
      await store().createEndpoint(endpoint(co.uuid, 'wh_updated', now, { events: ['order.updated'] }));
      await store().createEndpoint(endpoint(co.uuid, 'wh_disabled', now, { enabled: false, disabled_reason: 'receiver answered 410' }));
      await store().createEndpoint(endpoint(other.uuid, 'wh_other', now));
      const counts = async () =>
        Object.fromEntries(
          await Promise.all(['wh_all', 'wh_created', 'wh_updated', 'wh_disabled'].map(async (id) => [id, (await deliveriesOf(store(), co.uuid, id)).total])),
        );
      return { co, other, w, counts };
    }

    it('writes an order.created event with the order snapshot, and a pending delivery per subscribed, enabled endpoint', async () => {
      const { co, other, w, counts } = await setup();
      const { order, event } = await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields());
      expect(event).toEqual({
        id: event.id,
        company_uuid: co.uuid,
        type: 'order.created',
        created_at: w.ctx.now,
        payload: { id: event.id, type: 'order.created', created_at: w.ctx.now, data: { order: orderSnapshot(order) } },
      });
      expect(await store().getEvent(event.id)).toEqual(event);
      expect(await counts()).toEqual({ wh_all: 1, wh_created: 1, wh_updated: 0, wh_disabled: 0 });
      expect((await deliveriesOf(store(), other.uuid, 'wh_other')).total).toBe(0);
      const [delivery] = (await deliveriesOf(store(), co.uuid, 'wh_all')).items;
      expect(delivery).toEqual({
        id: delivery?.id,
        company_uuid: co.uuid,
        endpoint_id: 'wh_all',
        event_id: event.id,
        event_type: 'order.created',
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: w.ctx.now,
        created_at: w.ctx.now,
        attempts: [],
      });
    });

    it('writes order.updated events on updates, each with its own snapshot', async () => {
      const { co, w, counts } = await setup();
      const created = await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields());
      w.tick();
      const updated = await updateOrder(store(), w.ctx, co, 'ORD-1', { city: 'Paris' });
      expect(updated?.event.type).toBe('order.updated');
      expect(updated?.event.payload).toMatchObject({ type: 'order.updated', data: { order: { city: 'Paris', version: 2 } } });
      expect((await store().getEvent(created.event.id))?.payload).toMatchObject({ data: { order: { city: null, version: 1 } } });
      expect(await counts()).toEqual({ wh_all: 2, wh_created: 1, wh_updated: 1, wh_disabled: 0 });
    });

    it("lists a company's events oldest first, whether or not an endpoint got them, and no other company's", async () => {
      const { co, other, w } = await setup();
      const created = await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields());
      w.tick();
      const updated = await updateOrder(store(), w.ctx, co, 'ORD-1', { city: 'Paris' });
      await upsertOrder(store(), w.ctx, other, 'ORD-2', orderFields());
      const listed = await store().listEvents(co.uuid, { page: 1, limit: 10 });
      expect(listed).toEqual({ items: [created.event, updated?.event], total: 2 });
      expect((await store().listEvents(co.uuid, { page: 2, limit: 1 })).items).toEqual([updated?.event]);
    });
  });

  describe('customers', () => {
    it('derives one customer per phone: names from the latest updated order, count and exact amount of all', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields({ totalAmount: 0.1, firstName: 'Ann', lastName: 'Lee' }));
      w.tick();
      await upsertOrder(store(), w.ctx, co, 'ORD-2', orderFields({ totalAmount: 0.2, firstName: 'Annie', lastName: undefined, email: 'annie@example.com' }));
      expect(await customers(co.uuid)).toMatchObject([
        {
          phoneNumber: PHONE_A,
          name: 'Annie',
          firstName: 'Annie',
          lastName: null,
          email: 'annie@example.com',
          source: 'orders',
          orders_count: 2,
          orders_amount: 0.3,
        },
      ]);
      w.tick();
      await updateOrder(store(), w.ctx, co, 'ORD-1', { totalAmount: 1 });
      expect(await byPhone(co.uuid, PHONE_A)).toMatchObject({
        name: 'Ann Lee',
        firstName: 'Ann',
        lastName: 'Lee',
        email: null,
        orders_count: 2,
        orders_amount: 1.2,
        updated_at: w.ctx.now,
      });
    });

    it('recounts both customers when an order changes phone, and sync removes the one left without orders', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields({ totalAmount: 10 }));
      await upsertOrder(store(), w.ctx, co, 'ORD-1', { phoneNumber: PHONE_B, firstName: 'Bob', lastName: 'Ray' });
      expect(await byPhone(co.uuid, PHONE_A)).toMatchObject({ orders_count: 0, orders_amount: 0 });
      expect(await byPhone(co.uuid, PHONE_B)).toMatchObject({ name: 'Bob Ray', orders_count: 1, orders_amount: 10, source: 'orders' });
      expect(await syncCustomers(store(), w.ctx, co.uuid)).toEqual({ total: 1, created: 0, updated: 0, removed: 1 });
      expect((await customers(co.uuid)).map((c) => c.phoneNumber)).toEqual([PHONE_B]);
    });

    it('imports customers, counting created and updated ones (repeats in one batch included)', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const result = await importCustomers(store(), w.ctx, co.uuid, [
        { phoneNumber: PHONE_A, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
        { phoneNumber: PHONE_B, firstName: 'Bo' },
        { phoneNumber: PHONE_B, firstName: 'Bodil', lastName: 'Berg' },
      ]);
      expect(result).toEqual({ created: 2, updated: 1 });
      expect(await customers(co.uuid)).toMatchObject([
        { phoneNumber: PHONE_A, name: 'Asha Rao', email: 'asha@example.com', source: 'import', orders_count: 0, orders_amount: 0 },
        { phoneNumber: PHONE_B, name: 'Bodil Berg', firstName: 'Bodil', lastName: 'Berg', email: null, source: 'import' },
      ]);
      w.tick();
      expect(await importCustomers(store(), w.ctx, co.uuid, [{ phoneNumber: PHONE_A, firstName: 'Asha' }])).toEqual({ created: 0, updated: 1 });
      expect(await byPhone(co.uuid, PHONE_A)).toMatchObject({ name: 'Asha', lastName: null, email: null, updated_at: w.ctx.now });
    });

    it('turns an imported customer into an orders customer when an order names its phone, keeping id and created_at', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await importCustomers(store(), w.ctx, co.uuid, [{ phoneNumber: PHONE_A, firstName: 'Asha' }]);
      const imported = (await byPhone(co.uuid, PHONE_A)) as CustomerRecord;
      w.tick();
      await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields({ totalAmount: 5 }));
      expect(await byPhone(co.uuid, PHONE_A)).toEqual({
        ...imported,
        name: 'Ann Lee',
        firstName: 'Ann',
        lastName: 'Lee',
        source: 'orders',
        orders_count: 1,
        orders_amount: 5,
        updated_at: w.ctx.now,
      });
    });

    it("keeps an orders customer's source and counts on import; sync derives its names from orders again", async () => {
      const co = await seedCompany(store());
      const w = writer();
      await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields({ totalAmount: 5 }));
      await importCustomers(store(), w.ctx, co.uuid, [
        { phoneNumber: PHONE_A, firstName: 'Imported' },
        { phoneNumber: PHONE_B, firstName: 'Only', lastName: 'Imported' },
      ]);
      expect(await byPhone(co.uuid, PHONE_A)).toMatchObject({ name: 'Imported', source: 'orders', orders_count: 1, orders_amount: 5 });
      expect(await syncCustomers(store(), w.ctx, co.uuid)).toEqual({ total: 2, created: 0, updated: 1, removed: 0 });
      expect(await byPhone(co.uuid, PHONE_A)).toMatchObject({ name: 'Ann Lee', source: 'orders', orders_count: 1 });
      expect(await byPhone(co.uuid, PHONE_B)).toMatchObject({ name: 'Only Imported', source: 'import' });
      expect(await syncCustomers(store(), w.ctx, co.uuid)).toEqual({ total: 2, created: 0, updated: 0, removed: 0 });
    });

    it('lists customers imported in one batch in the order of the batch, then later ones, one page at a time', async () => {
      const co = await seedCompany(store());
      const w = writer();
      // One instant; neither the ids nor the phone numbers sort in the batch's order.
      await importCustomers(
        store(),
        w.withIds('cus_c', 'cus_b', 'cus_a'),
        co.uuid,
        ['+15550000012', '+15550000010', '+15550000011'].map((phoneNumber) => ({ phoneNumber, firstName: 'X' })),
      );
      w.tick();
      await importCustomers(store(), w.withIds('cus_0'), co.uuid, [{ phoneNumber: '+15550000013', firstName: 'Y' }]);
      const first = await store().listCustomers(co.uuid, { page: 1, limit: 3 });
      expect(first.total).toBe(4);
      expect(first.items.map((c) => [c.id, c.phoneNumber])).toEqual([
        ['cus_c', '+15550000012'],
        ['cus_b', '+15550000010'],
        ['cus_a', '+15550000011'],
      ]);
      expect((await store().listCustomers(co.uuid, { page: 2, limit: 3 })).items.map((c) => c.id)).toEqual(['cus_0']);
      expect(await store().listCustomers(company(2).uuid, { page: 1, limit: 3 })).toEqual({ items: [], total: 0 });
    });

    it('makes the customers a sync derives in the order of their first orders', async () => {
      const co = await seedCompany(store());
      const w = writer();
      // Orders stored as they are (no customer derived yet), in one instant, phones and ids in other orders.
      for (const [id, key, phoneNumber] of [
        ['ord_3', 'ORD-1', '+15550000030'],
        ['ord_1', 'ORD-2', '+15550000010'],
        ['ord_2', 'ORD-3', '+15550000020'],
        ['ord_0', 'ORD-4', '+15550000030'],
      ] as const) {
        await store().saveOrder(newOrderRecord(id, co, key, orderFields({ phoneNumber }), w.ctx.now));
      }
      expect(await syncCustomers(store(), w.withIds('cus_c', 'cus_a', 'cus_b'), co.uuid)).toMatchObject({ created: 3 });
      expect((await customers(co.uuid)).map((c) => c.phoneNumber)).toEqual(['+15550000030', '+15550000010', '+15550000020']);
    });
  });
});
