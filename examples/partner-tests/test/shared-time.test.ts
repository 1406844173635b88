/**
 * The shop's thank-you campaign against the shared `engagekit-mock`, in this file's own session: its
 * clock moves here only, whatever test/shared-orders.test.ts does to its own at the same time.
 */

import { createClient } from '@engagekit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopSync } from '../src/shop-sync.ts';
import { type MockSession, sessionOf } from './shared-mock.ts';

let mock: MockSession;
beforeAll(async () => {
  mock = await sessionOf(import.meta.url);
});
afterAll(() => mock.end());

describe('campaigns on a shared mock', () => {
  it('runs the campaign when this session’s clock reaches it', async () => {
    const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid });
    const sync = createShopSync({ client, companyId: mock.company.company_id });
    await mock.control('POST', '/clock', { set: '2026-03-01T08:00:00Z' });
    await sync.pushOrders([
      {
        number: '3001',
        customer: { firstName: 'Ravi', phone: '+919800000002' },
        total: 5,
        shipTo: { line1: '2 MG Road', city: 'Bengaluru', postalCode: '560001' },
        status: 'paid',
      },
    ]);
    const { campaign } = await sync.launchThankYouCampaign('thanks', new Date('2026-03-01T09:00:00Z'));
    await mock.control('POST', '/clock', { advance: '1h' });
    const messages = await mock.control<{ to: string }[]>('GET', `/messages?campaignId=${campaign.id}`);
    expect(messages.map((m) => m.to)).toEqual(['+919800000002']);
  });
});
