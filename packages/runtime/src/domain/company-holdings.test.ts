import { describe, expect, it } from 'vitest';
import { eachTestStore, forEveryStore } from '../../test/every-store.ts';
import { campaign, endpoint, orderFields, range, seedCompany, template, writer } from '../../test/store/conformance-fixtures.ts';
import { companyHoldings } from './company-holdings.ts';
import { everyPage } from './every-page.ts';
import { upsertOrder } from './orders.ts';

describe('everyPage', () => {
  it('reads page after page until the total is reached, or a page comes back empty', async () => {
    const items = range(2500);
    const asked: number[] = [];
    const list = async ({ page, limit }: { page: number; limit: number }) => {
      asked.push(page);
      return { items: items.slice((page - 1) * limit, page * limit), total: items.length };
    };
    expect(await everyPage(list)).toEqual(items);
    expect(asked).toEqual([1, 2, 3]);
    // A total that overstates: the empty page ends it.
    expect(await everyPage(async ({ page }) => ({ items: page === 1 ? ['a'] : [], total: 5 }))).toEqual(['a']);
  });
});

forEveryStore((_, makeStore) => {
  const store = eachTestStore(makeStore);

  describe('companyHoldings', () => {
    it('is null for a company the store does not know', async () => {
      expect(await companyHoldings(store(), '00000000-0000-4000-8000-000000000099')).toBeNull();
    });

    it('gives every record of the company and none of another, each list oldest first, deliveries oldest first across endpoints', async () => {
      const [co, other] = [await seedCompany(store(), 1), await seedCompany(store(), 2)];
      const w = writer();
      const first = w.ctx.now;
      await store().createEndpoint(endpoint(co.uuid, 'wh_a', first));
      await store().createEndpoint(endpoint(co.uuid, 'wh_b', first));
      await store().upsertTemplate(template(co.uuid, 'tpl_1', first));
      await store().createCampaign(campaign(co.uuid, 'spring', first));
      await upsertOrder(store(), w.ctx, co, 'ORD-1', orderFields());
      w.tick();
      await upsertOrder(store(), w.ctx, co, 'ORD-2', orderFields({ phoneNumber: '+15550000002' }));
      await upsertOrder(store(), w.ctx, other, 'ORD-X', orderFields());

      const held = await companyHoldings(store(), co.uuid);
      expect(held?.company).toEqual(co);
      expect(held?.orders.map((o) => o.company_order_id)).toEqual(['ORD-1', 'ORD-2']);
      expect(held?.customers.map((c) => c.phoneNumber)).toEqual(['+15550000001', '+15550000002']);
      expect(held?.campaigns.map((c) => c.name)).toEqual(['spring']);
      expect(held?.templates.map((t) => t.id)).toEqual(['tpl_1']);
      expect(held?.endpoints.map((e) => e.id)).toEqual(['wh_a', 'wh_b']);
      expect(held?.events.map((e) => e.type)).toEqual(['order.created', 'order.created']);
      // Two events to two endpoints: the first event's two deliveries, then the second's.
      expect(held?.deliveries.map((d) => [d.event_id, d.endpoint_id].join(' '))).toEqual([
        `${held?.events[0]?.id} wh_a`,
        `${held?.events[0]?.id} wh_b`,
        `${held?.events[1]?.id} wh_a`,
        `${held?.events[1]?.id} wh_b`,
      ]);
    });
  });
});
