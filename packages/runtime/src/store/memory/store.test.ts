/** What only the memory store does: snapshots (the mock's snapshot and restore). Its persistence is in the store conformance suite. */
import { describe, expect, it } from 'vitest';
import { campaign, company, orderFields, seedCompany, writer } from '../../../test/store/conformance-fixtures.ts';
import { upsertOrder } from '../../domain/orders.ts';
import { createMemoryStore } from './store.ts';

describe('memory store snapshots', () => {
  it('puts back every record and index as they were, as often as asked, the snapshot untouched by later writes', async () => {
    const store = createMemoryStore();
    const co = await seedCompany(store);
    const w = writer();
    await upsertOrder(store, w.ctx, co, 'ORD-1', orderFields({ totalAmount: 0.1 }));
    await store.createCampaign(campaign(co.uuid, 'kept', w.ctx.now));
    const snap = store.snapshot();
    const before = {
      orders: await store.listOrders(co.uuid, { page: 1, limit: 10 }),
      customers: await store.listCustomers(co.uuid, { page: 1, limit: 10 }),
      campaigns: await store.listCampaigns(co.uuid, { page: 1, limit: 10 }),
      totals: await store.orderTotals(co.uuid),
      events: await store.listEvents(co.uuid, { page: 1, limit: 10 }),
    };

    for (let round = 0; round < 2; round++) {
      w.tick();
      await upsertOrder(store, w.ctx, co, 'ORD-2', orderFields({ totalAmount: 0.2, phoneNumber: '+919800000099' }));
      await upsertOrder(store, w.ctx, co, 'ORD-1', { totalAmount: 5 });
      await store.createCampaign(campaign(co.uuid, 'later', w.ctx.now));
      await store.createCompany(company(7));
      store.restore(snap);
      expect(await store.listOrders(co.uuid, { page: 1, limit: 10 })).toEqual(before.orders);
      expect(await store.listCustomers(co.uuid, { page: 1, limit: 10 })).toEqual(before.customers);
      expect(await store.listCampaigns(co.uuid, { page: 1, limit: 10 })).toEqual(before.campaigns);
      expect(await store.orderTotals(co.uuid)).toEqual(before.totals);
      expect(await store.listEvents(co.uuid, { page: 1, limit: 10 })).toEqual(before.events);
      expect(await store.getCompany(company(7).uuid)).toBeNull();
    }
    // The indexes work on: a new campaign takes the next seq, a name in the snapshot is still taken.
    expect((await store.createCampaign(campaign(co.uuid, 'after', w.ctx.now))).seq).toBe(2);
    await expect(store.createCampaign(campaign(co.uuid, 'kept', w.ctx.now, { id: 'cmp_again' }))).rejects.toMatchObject({ field: 'name' });
  });

  it('refuses a snapshot or a restore while a transaction runs', async () => {
    const store = createMemoryStore();
    const snap = store.snapshot();
    let inside: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      inside = resolve;
    });
    let release: () => void = () => {};
    const tx = store.transaction(async () => {
      inside?.();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await held;
    expect(() => store.snapshot()).toThrow(/while a transaction runs/);
    expect(() => store.restore(snap)).toThrow(/while a transaction runs/);
    release();
    await tx;
    expect(() => store.restore(snap)).not.toThrow();
  });
});
