/**
 * Store conformance: orders, customers, the outbox's events and transactions, as persistence (what
 * an order write does with them is the domain's, tested in domain/orders.test.ts). Registered by
 * `describeStoreConformance`.
 */
import { describe, expect, it } from 'vitest';
import { newOrderRecord } from '../../src/domain/orders.ts';
import { pendingDelivery } from '../../src/domain/webhooks.ts';
import { type CompanyRecord, type CustomerRecord, exclusive, type OrderFields, type OrderRecord } from '../../src/store/types.ts';
import type { CurrentStore } from './conformance.ts';
import { company, deliveriesOf, endpoint, event, orderFields, seedCompany, writer } from './conformance-fixtures.ts';

const PHONE_A = '+15550000001';
const PHONE_B = '+15550000002';

/** An order record of `co` with the mandatory fields and any others. */
const order = (co: CompanyRecord, id: string, companyOrderId: string, now: string, fields: OrderFields = {}): OrderRecord =>
  newOrderRecord(id, co, companyOrderId, orderFields(fields), now);

/** A customer record of `co`. */
const customer = (co: CompanyRecord, id: string, phoneNumber: string, now: string, fields: Partial<CustomerRecord> = {}): CustomerRecord => ({
  id,
  company_uuid: co.uuid,
  phoneNumber,
  name: 'Ann Lee',
  firstName: 'Ann',
  lastName: 'Lee',
  email: null,
  source: 'orders',
  orders_count: 1,
  orders_amount: 100,
  created_at: now,
  updated_at: now,
  ...fields,
});

/** Registers the order, customer, outbox and transaction tests. */
export function describeOrderConformance(store: CurrentStore): void {
  describe('orders', () => {
    it('saves an order and reads it back; saving its key again replaces it, keeping its id', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const first = order(co, 'ord_1', 'ORD-1', w.ctx.now, { city: 'Springfield', products: [{ product_id: '101', quantity: 2, price: 500 }] });
      await store().saveOrder(first);
      expect(await store().getOrder(co.uuid, 'ORD-1')).toEqual(first);
      expect(await store().getOrder(company(2).uuid, 'ORD-1')).toBeNull();
      const later = w.tick();
      const second = { ...first, id: 'ord_other', city: null, totalAmount: 250.5, version: 2, updated_at: later };
      await store().saveOrder(second);
      expect(await store().getOrder(co.uuid, 'ORD-1')).toEqual({ ...second, id: 'ord_1' });
    });

    it("lists a company's orders oldest first with a total", async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      for (const [id, key, phoneNumber] of [
        ['ord_3', 'ORD-B', PHONE_A],
        ['ord_1', 'ORD-A', PHONE_B],
        ['ord_2', 'ORD-C', PHONE_A],
      ] as const) {
        await store().saveOrder(order(co, id, key, w.ctx.now, { phoneNumber }));
        w.tick();
      }
      await store().saveOrder(order(other, 'ord_x', 'ORD-X', w.ctx.now));
      const first = await store().listOrders(co.uuid, { page: 1, limit: 2 });
      expect(first.total).toBe(3);
      expect(first.items.map((o) => o.company_order_id)).toEqual(['ORD-B', 'ORD-A']);
      expect((await store().listOrders(co.uuid, { page: 2, limit: 2 })).items.map((o) => o.company_order_id)).toEqual(['ORD-C']);
      expect(await store().listOrders(company(3).uuid, { page: 1, limit: 2 })).toEqual({ items: [], total: 0 });
    });

    it('lists orders made in one instant in the order they were made, not by id; saving one again keeps its place', async () => {
      const co = await seedCompany(store());
      const now = writer().ctx.now;
      for (const [id, key] of [
        ['ord_c', 'ORD-1'],
        ['ord_a', 'ORD-2'],
        ['ord_b', 'ORD-3'],
      ] as const) {
        await store().saveOrder(order(co, id, key, now));
      }
      await store().saveOrder({ ...order(co, 'ord_c', 'ORD-1', now), totalAmount: 5, version: 2 });
      expect((await store().listOrders(co.uuid, { page: 1, limit: 10 })).items.map((o) => o.company_order_id)).toEqual(['ORD-1', 'ORD-2', 'ORD-3']);
    });

    it("sums a phone's orders exactly, with the latest updated of them (ties: the larger id), in its company only", async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      const first = w.ctx.now;
      await store().saveOrder(order(co, 'ord_1', 'ORD-1', first, { phoneNumber: PHONE_A, totalAmount: 0.1 }));
      const later = w.tick();
      const latest = order(co, 'ord_3', 'ORD-3', later, { phoneNumber: PHONE_A, totalAmount: 0.2, firstName: 'Latest' });
      await store().saveOrder(latest);
      // Updated at the same moment, with a smaller id: not the latest.
      await store().saveOrder(order(co, 'ord_2', 'ORD-2', later, { phoneNumber: PHONE_A, totalAmount: 1.15 }));
      await store().saveOrder(order(co, 'ord_4', 'ORD-4', w.tick(), { phoneNumber: PHONE_B }));
      await store().saveOrder(order(other, 'ord_5', 'ORD-5', w.tick(), { phoneNumber: PHONE_A }));
      expect(await store().phoneOrders(co.uuid, PHONE_A)).toEqual({ count: 3, amount: 1.45, latest });
      expect((await store().phoneOrders(other.uuid, PHONE_A))?.count).toBe(1);
      expect(await store().phoneOrders(other.uuid, PHONE_B)).toBeNull();
    });

    it('totals the amounts of a company exactly', async () => {
      const a = await seedCompany(store(), 1);
      const b = await seedCompany(store(), 2);
      const now = writer().ctx.now;
      await store().saveOrder(order(a, 'ord_1', 'ORD-1', now, { totalAmount: 0.1 }));
      await store().saveOrder(order(a, 'ord_2', 'ORD-2', now, { totalAmount: 0.2 }));
      await store().saveOrder(order(b, 'ord_3', 'ORD-1', now, { totalAmount: 7 }));
      expect(await store().orderTotals(a.uuid)).toEqual({ total: 2, amount: 0.3 });
      await store().saveOrder(order(a, 'ord_1', 'ORD-1', now, { totalAmount: 1.15 }));
      expect(await store().orderTotals(a.uuid)).toEqual({ total: 2, amount: 1.35 });
      expect(await store().orderTotals(company(3).uuid)).toEqual({ total: 0, amount: 0 });
    });
  });

  describe('customers', () => {
    it('saves customers and reads them by phone; saving one again replaces it, keeping its id and created_at', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const first = w.ctx.now;
      await store().saveCustomers([
        customer(co, 'cus_1', PHONE_A, first),
        customer(co, 'cus_2', PHONE_B, first, { source: 'import', orders_count: 0, orders_amount: 0 }),
      ]);
      expect((await store().getCustomers(co.uuid, [PHONE_B, PHONE_A, '+15550000009'])).sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([
        customer(co, 'cus_1', PHONE_A, first),
        customer(co, 'cus_2', PHONE_B, first, { source: 'import', orders_count: 0, orders_amount: 0 }),
      ]);
      const later = w.tick();
      await store().saveCustomers([
        customer(co, 'cus_other', PHONE_A, later, { name: 'Annie', firstName: 'Annie', lastName: null, orders_count: 2, orders_amount: 0.3 }),
      ]);
      expect(await store().getCustomers(co.uuid, [PHONE_A])).toEqual([
        customer(co, 'cus_1', PHONE_A, first, { name: 'Annie', firstName: 'Annie', lastName: null, orders_count: 2, orders_amount: 0.3, updated_at: later }),
      ]);
      expect(await store().getCustomers(company(2).uuid, [PHONE_A])).toEqual([]);
    });

    it('deletes customers by id, within their company only', async () => {
      const a = await seedCompany(store(), 1);
      const b = await seedCompany(store(), 2);
      const now = writer().ctx.now;
      await store().saveCustomers([customer(a, 'cus_1', PHONE_A, now), customer(a, 'cus_2', PHONE_B, now)]);
      await store().saveCustomers([customer(b, 'cus_3', PHONE_A, now)]);
      await store().deleteCustomers(b.uuid, ['cus_1']);
      await store().deleteCustomers(a.uuid, ['cus_1', 'cus_3']);
      expect((await store().listCustomers(a.uuid, { page: 1, limit: 10 })).items.map((c) => c.id)).toEqual(['cus_2']);
      expect((await store().listCustomers(b.uuid, { page: 1, limit: 10 })).items.map((c) => c.id)).toEqual(['cus_3']);
      expect([await store().countCustomers(a.uuid), await store().countCustomers(b.uuid)]).toEqual([1, 1]);
    });

    it('lists customers oldest first, those saved in one batch in the order of the batch (not by id), one page at a time', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const first = w.ctx.now;
      // One batch, one instant, ids and phones in another order than the batch's: the batch's order stands.
      await store().saveCustomers([
        customer(co, 'cus_c', '+15550000011', first),
        customer(co, 'cus_a', '+15550000012', first),
        customer(co, 'cus_b', '+15550000010', first),
      ]);
      await store().saveCustomers([customer(co, 'cus_0', '+15550000013', w.tick())]);
      // Saving one again (an update) keeps its place.
      await store().saveCustomers([customer(co, 'cus_c', '+15550000011', first, { name: 'Renamed', updated_at: w.ctx.now })]);
      const page1 = await store().listCustomers(co.uuid, { page: 1, limit: 3 });
      expect(page1.total).toBe(4);
      expect(await store().countCustomers(co.uuid)).toBe(4);
      expect(page1.items.map((c) => c.id)).toEqual(['cus_c', 'cus_a', 'cus_b']);
      expect((await store().listCustomers(co.uuid, { page: 2, limit: 3 })).items.map((c) => c.id)).toEqual(['cus_0']);
      expect(await store().listCustomers(company(2).uuid, { page: 1, limit: 3 })).toEqual({ items: [], total: 0 });
      expect(await store().countCustomers(company(2).uuid)).toBe(0);
    });
  });

  describe('outbox', () => {
    it("appends an event once (a second append of its id changes nothing) and lists a company's events oldest first", async () => {
      const co = await seedCompany(store(), 1);
      const other = await seedCompany(store(), 2);
      const w = writer();
      const first = event(co, 'evt_2', w.ctx.now);
      await store().appendEvent(first, []);
      await store().appendEvent({ ...first, payload: { changed: true } }, []);
      const second = event(co, 'evt_1', w.tick());
      await store().appendEvent(second, []);
      await store().appendEvent(event(other, 'evt_3', w.ctx.now), []);
      expect(await store().getEvent('evt_2')).toEqual(first);
      expect(await store().listEvents(co.uuid, { page: 1, limit: 10 })).toEqual({ items: [first, second], total: 2 });
      expect((await store().listEvents(co.uuid, { page: 2, limit: 1 })).items).toEqual([second]);
      // Made in one instant: in the order they were appended, not by id.
      const third = event(co, 'evt_9', w.tick());
      const fourth = event(co, 'evt_0', w.ctx.now);
      for (const e of [third, fourth]) await store().appendEvent(e, []);
      expect((await store().listEvents(co.uuid, { page: 1, limit: 10 })).items).toEqual([first, second, third, fourth]);
    });

    it('adds pending deliveries with their event, each read back as added, and more of an event it has', async () => {
      const co = await seedCompany(store());
      const w = writer();
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', w.ctx.now));
      await store().createEndpoint(endpoint(co.uuid, 'wh_2', w.ctx.now));
      const evt = event(co, 'evt_1', w.ctx.now);
      const added = [pendingDelivery(w.ctx, evt, 'wh_1'), pendingDelivery(w.ctx, evt, 'wh_2')];
      await store().appendEvent(evt, added);
      expect(await store().getEvent('evt_1')).toEqual(evt);
      expect((await deliveriesOf(store(), co.uuid, 'wh_1')).items).toEqual([added[0]]);
      expect(await store().getDelivery(co.uuid, 'wh_2', added[1]?.id ?? '')).toEqual(added[1]);
      // A redelivery: the event is kept as it was, the new delivery joins the endpoint's.
      const again = pendingDelivery(w.ctx, evt, 'wh_1');
      await store().appendEvent({ ...evt, payload: { changed: true } }, [again]);
      expect(await store().getEvent('evt_1')).toEqual(evt);
      expect((await deliveriesOf(store(), co.uuid, 'wh_1')).total).toBe(2);
      expect(await store().getDelivery(co.uuid, 'wh_1', again.id)).toEqual(again);
    });
  });

  describe('transactions', () => {
    it('commits the writes of a transaction, and gives its result', async () => {
      const co = await seedCompany(store());
      const now = writer().ctx.now;
      const result = await store().transaction(async (tx) => {
        await tx.lock([exclusive(`orders:${co.uuid}`)]);
        await tx.saveOrder(order(co, 'ord_1', 'ORD-1', now));
        await tx.saveCustomers([customer(co, 'cus_1', PHONE_A, now)]);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await store().getOrder(co.uuid, 'ORD-1')).not.toBeNull();
      expect(await store().getCustomers(co.uuid, [PHONE_A])).toHaveLength(1);
    });

    it('undoes every write of a transaction that throws, and rethrows', async () => {
      const co = await seedCompany(store());
      const w = writer();
      const now = w.ctx.now;
      await store().createEndpoint(endpoint(co.uuid, 'wh_1', now));
      await store().saveOrder(order(co, 'ord_1', 'ORD-1', now, { city: 'Before' }));
      await store().saveCustomers([customer(co, 'cus_1', PHONE_A, now), customer(co, 'cus_2', PHONE_B, now)]);
      const boom = new Error('boom');
      const error = await store()
        .transaction(async (tx) => {
          await tx.saveOrder(order(co, 'ord_1', 'ORD-1', now, { city: 'After' }));
          await tx.saveOrder(order(co, 'ord_2', 'ORD-2', now));
          await tx.saveCustomers([customer(co, 'cus_1', PHONE_A, now, { name: 'Changed' }), customer(co, 'cus_3', '+15550000003', now)]);
          await tx.deleteCustomers(co.uuid, ['cus_2']);
          const evt = event(co, 'evt_1', now);
          await tx.appendEvent(evt, [pendingDelivery(w.ctx, evt, 'wh_1')]);
          throw boom;
        })
        .catch((e: unknown) => e);
      expect(error).toBe(boom);
      expect((await store().getOrder(co.uuid, 'ORD-1'))?.city).toBe('Before');
      expect(await store().getOrder(co.uuid, 'ORD-2')).toBeNull();
      expect(await store().orderTotals(co.uuid)).toEqual({ total: 1, amount: 100 });
      expect((await store().listCustomers(co.uuid, { page: 1, limit: 10 })).items).toEqual([
        customer(co, 'cus_1', PHONE_A, now),
        customer(co, 'cus_2', PHONE_B, now),
      ]);
      expect(await store().getEvent('evt_1')).toBeNull();
      expect((await deliveriesOf(store(), co.uuid, 'wh_1')).total).toBe(0);
      expect(await store().nextDeliveryDue()).toBeNull();
    });

    it("shows a transaction's writes to its later calls", async () => {
      const co = await seedCompany(store());
      const now = writer().ctx.now;
      const saved = order(co, 'ord_1', 'ORD-1', now);
      const buyer = customer(co, 'cus_1', PHONE_A, now);
      await store().transaction(async (tx) => {
        await tx.lock([exclusive(`orders:${co.uuid}`)]);
        await tx.saveOrder(saved);
        expect(await tx.getOrder(co.uuid, 'ORD-1')).toEqual(saved);
        await tx.saveCustomers([buyer]);
        await tx.saveOrder({ ...saved, city: 'Later', version: 2 });
        const [customers, latest] = await Promise.all([tx.getCustomers(co.uuid, [PHONE_A]), tx.getOrder(co.uuid, 'ORD-1')]);
        expect(customers).toEqual([buyer]);
        expect(latest?.city).toBe('Later');
      });
    });

    it('holds a lock until the transaction that took it ends: read-modify-writes under one lock lose nothing', async () => {
      const co = await seedCompany(store());
      const now = writer().ctx.now;
      await store().saveOrder(order(co, 'ord_1', 'ORD-1', now));
      // Each reads the version and writes it plus one: without the lock, concurrent ones would read the same version.
      await Promise.all(
        Array.from({ length: 10 }, () =>
          store().transaction(async (tx) => {
            await tx.lock([exclusive('the-key')]);
            const current = (await tx.getOrder(co.uuid, 'ORD-1')) as OrderRecord;
            await tx.saveOrder({ ...current, version: current.version + 1 });
          }),
        ),
      );
      expect((await store().getOrder(co.uuid, 'ORD-1'))?.version).toBe(11);
    });

    it('refuses a lock outside a transaction', async () => {
      await expect(store().lock([exclusive('the-key')])).rejects.toThrow(/transaction/);
    });
  });
}
