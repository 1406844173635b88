/**
 * The shop's order sync against one shared `engagekit-mock` (test/shared-mock.ts), in this file's own
 * session: its outage and its reset stay here, while test/shared-time.test.ts runs at the same time.
 */

import { createClient } from '@engagekit/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createShopSync, type ShopOrder } from '../src/shop-sync.ts';
import { type MockSession, sessionOf } from './shared-mock.ts';

let mock: MockSession;
let sync: ReturnType<typeof createShopSync>;
beforeAll(async () => {
  mock = await sessionOf(import.meta.url);
  const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid });
  sync = createShopSync({ client, companyId: mock.company.company_id });
});
afterEach(() => mock.control('POST', '/reset'));
afterAll(() => mock.end());

const order = (number: string): ShopOrder => ({
  number,
  customer: { firstName: 'Asha', phone: '+919800000001' },
  total: 20,
  shipTo: { line1: '1 MG Road', city: 'Bengaluru', postalCode: '560001' },
  status: 'paid',
});

describe('pushOrders on a shared mock', () => {
  it('rides out an outage set in this session only', async () => {
    await mock.control('POST', '/fail', { operationId: 'addOrder', status: 503, times: 2 });
    expect(await sync.pushOrders([order('2001')])).toEqual({ created: ['2001'], updated: [], failed: [] });
    const adds = await mock.control<{ status: number }[]>('GET', '/requests?operationId=addOrder');
    expect(adds.map((r) => r.status)).toEqual([503, 503, 201]);
  });

  it('starts from a clean session after the reset', async () => {
    expect((await mock.control<{ orders: unknown[] }>('GET', '/state')).orders).toEqual([]);
    expect(await mock.control('GET', '/faults')).toEqual([]);
  });
});
