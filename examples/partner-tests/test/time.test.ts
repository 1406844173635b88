/**
 * The shop's tests that need time to pass: a campaign an hour ahead, a weekly one across a DST change,
 * a webhook retried after a failure. The mock's manual clock moves instead of the test waiting:
 * `await mock.clock.advance('1h')` runs what falls due in that hour and resolves once it has run.
 */

import { MOCK_WEBHOOK_SECRET, setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createOrderWebhookReceiver } from '../src/order-webhooks.ts';
import { createShopSync, type ShopOrder } from '../src/shop-sync.ts';

// The shop's company sends from New York: its campaigns run on New York time.
const mock = setupMockApi({ baseUrl: 'https://api.engagekit.example', seed: 7, clock: 'manual', company: { timezone: 'America/New_York' } });
afterEach(() => mock.reset());
afterAll(() => mock.close());

const client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch });
const sync = createShopSync({ client, companyId: mock.company.company_id });

const order = (number: string, firstName: string, phone: string): ShopOrder => ({
  number,
  customer: { firstName, phone },
  total: 25,
  shipTo: { line1: '1 Broadway', city: 'New York', postalCode: '10004' },
  status: 'paid',
});

describe('campaigns, with the mock’s clock', () => {
  it('sends the thank-you campaign when its hour comes, one rendered message per customer, counted in the report', async () => {
    mock.clock.set('2026-05-04T13:00:00Z');
    await sync.pushOrders([order('1001', 'Ada', '+12125550101'), order('1002', 'Grace', '+12125550102')]);
    mock.channel.outcome('+12125550102', 'failed', { reason: 'not on WhatsApp' });
    const { campaign } = await sync.launchThankYouCampaign('thank-you-may', new Date('2026-05-04T14:00:00Z'));

    await mock.clock.advance('59m');
    expect(mock.messages({ campaignId: campaign.id })).toEqual([]);
    await mock.clock.advance('1m');

    const sent = mock.messages({ campaignId: campaign.id }).map((m) => [m.to, m.template.name, m.variables.first_name, m.status]);
    expect(sent.sort()).toEqual([
      ['+12125550101', 'thank_you', 'Ada', expect.stringMatching(/^(sent|delivered|read)$/)],
      ['+12125550102', 'thank_you', 'Grace', 'failed'],
    ]);
    expect(await client.campaigns.get(campaign.id)).toMatchObject({ status: 'completed' });
    expect((await client.reports.get()).messages).toMatchObject({ total: 2, failed: 1 });
  });

  it('sends a weekly campaign at 9:00 New York time on both sides of the DST change', async () => {
    // New York moves its clocks forward on Sunday 8 March 2026: 09:00 is 14:00 UTC before, 13:00 UTC after.
    mock.clock.set('2026-02-27T00:00:00Z');
    await sync.pushOrders([order('1001', 'Ada', '+12125550101')]);
    const weekly = await client.campaigns.create({
      name: 'sunday-deals',
      schedule_type: 'recurring',
      schedule: '2026-02-27T00:00:00Z',
      days: { sunday: ['09:00'] },
      template_payload: { template_name: 'sunday_deals' },
    });
    await mock.clock.advance('10d');
    expect(mock.messages({ campaignId: weekly.id }).map((m) => m.runKey)).toEqual(['2026-03-01T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
    expect(await client.campaigns.get(weekly.id)).toMatchObject({ status: 'scheduled' });
  });
});

describe('webhooks, with the mock’s clock', () => {
  it('gets the retry of a webhook its receiver failed, verified at the mock’s time, and handles the event once', async () => {
    mock.clock.set('2026-05-04T13:00:00Z');
    const handled: string[] = [];
    const receive = createOrderWebhookReceiver({ secret: MOCK_WEBHOOK_SECRET, clock: mock.clock, onEvent: (e) => void handled.push(e.type) });
    let calls = 0;
    mock.onWebhook((webhook) => (++calls === 1 ? new Response('busy', { status: 503 }) : receive(webhook.request)));

    await sync.pushOrders([order('1001', 'Ada', '+12125550101')]);
    await mock.waitForWebhook();
    expect(mock.webhooks.map((w) => w.status)).toEqual([503]);

    await mock.clock.advance('1s');
    expect(mock.webhooks.map((w) => w.status)).toEqual([503, 204]);
    expect(handled).toEqual(['order.created']);
    expect(mock.requests({ operationId: 'addOrder' }).map((r) => r.status)).toEqual([201]);
  });
});
