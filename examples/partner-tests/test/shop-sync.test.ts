/**
 * The shop's integration tests, against engagekit's in-process mock: no network, no server to run.
 * The client gets `mock.fetch`; `mock.state()` shows what engagekit holds; `mock.fail()` injects faults;
 * `mock.onWebhook()` feeds the shop's own webhook receiver with signed deliveries.
 */

import { MOCK_WEBHOOK_SECRET, setupMockApi } from '@engagekit/mock-server/node';
import { createClient, type EngageClient } from '@engagekit/sdk';
import { signWebhook } from '@engagekit/sdk/webhooks';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrderWebhookReceiver } from '../src/order-webhooks.ts';
import { createShopSync, type ShopOrder } from '../src/shop-sync.ts';

const mock = setupMockApi({ baseUrl: 'https://api.engagekit.example', seed: 2024 });
afterEach(() => mock.reset());
afterAll(() => mock.close());

let client: EngageClient;
let sync: ReturnType<typeof createShopSync>;
beforeEach(() => {
  client = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch });
  sync = createShopSync({ client, companyId: mock.company.company_id });
});

const order = (number: string, extra: Partial<ShopOrder> = {}): ShopOrder => ({
  number,
  customer: { firstName: 'Asha', lastName: 'Rao', phone: '+919800000001', email: 'asha@example.com' },
  total: 1499.5,
  shipTo: { line1: '1 MG Road', city: 'Bengaluru', postalCode: '560001' },
  status: 'paid',
  ...extra,
});

describe('pushOrders', () => {
  it('adds new orders to engagekit, with the shop’s fields where engagekit keeps them', async () => {
    const report = await sync.pushOrders([order('1001'), order('1002', { customer: { firstName: 'Ravi', phone: '+919800000002' }, total: 20 })]);
    expect(report).toEqual({ created: ['1001', '1002'], updated: [], failed: [] });
    const { orders, customers } = await mock.state();
    expect(orders.map((o) => [o.company_order_id, o.totalAmount, o.city, o.companyOrderStatus])).toEqual([
      ['1001', 1499.5, 'Bengaluru', 'paid'],
      ['1002', 20, 'Bengaluru', 'paid'],
    ]);
    expect(customers.map((c) => c.name)).toEqual(['Asha Rao', 'Ravi']);
  });

  it('updates orders engagekit already has instead of duplicating them', async () => {
    await sync.pushOrders([order('1001')]);
    const report = await sync.pushOrders([order('1001', { status: 'shipped' })]);
    expect(report.updated).toEqual(['1001']);
    const { orders } = await mock.state();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ companyOrderStatus: 'shipped', version: 2 });
  });

  it('rides out a brief outage: the SDK retries a 503 and the order lands once', async () => {
    const outage = mock.fail('addOrder', { status: 503, times: 2 });
    const report = await sync.pushOrders([order('1001')]);
    expect(report).toEqual({ created: ['1001'], updated: [], failed: [] });
    expect(outage.hits).toBe(2);
    expect((await mock.state()).orders).toHaveLength(1);
  });

  it('reports an order engagekit keeps refusing, and still pushes the others', async () => {
    // 503 with Retry-After: 0, so the SDK's two retries come at once; three hits outlast them.
    mock.fail('addOrder', { status: 503, times: 3, message: 'Service unavailable: down for maintenance' });
    const report = await sync.pushOrders([order('1001'), order('1002')]);
    expect(report.failed).toEqual([{ number: '1001', status: 503, message: 'Service unavailable: down for maintenance' }]);
    expect(report.created).toEqual(['1002']);
  });

  it('reports an order engagekit rejects as invalid, naming the field', async () => {
    const report = await sync.pushOrders([order('1001', { customer: { firstName: 'Asha', phone: '98000 00001' } })]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({ number: '1001', status: 400 });
    expect(report.failed[0]?.message).toContain('phoneNumber');
    expect((await mock.state()).orders).toEqual([]);
  });

  it('reports a dropped connection without crashing when retries run out', async () => {
    const noRetries = createShopSync({
      client: createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 }),
      companyId: mock.company.company_id,
    });
    mock.fail('addOrder', { network: true });
    expect((await noRetries.pushOrders([order('1001')])).failed).toEqual([{ number: '1001', status: null, message: expect.any(String) }]);
  });
});

describe('the nightly job', () => {
  it('pushes orders, syncs customers and starts the thank-you campaign once', async () => {
    const at = new Date('2030-01-15T10:00:00Z');
    const first = await sync.nightly([order('1001'), order('1002', { customer: { firstName: 'Ravi', phone: '+919800000002' } })], 'thank-you-jan', at);
    expect(first).toMatchObject({ customers: 2, campaignCreated: true, campaign: { name: 'thank-you-jan', status: 'scheduled', schedule_type: 'once' } });
    const again = await sync.nightly([order('1001')], 'thank-you-jan', at);
    expect(again.campaignCreated).toBe(false);
    expect(again.campaign.id).toBe(first.campaign.id);
    expect((await mock.state()).campaigns).toHaveLength(1);
  });
});

describe('the webhook receiver', () => {
  it('handles each order event engagekit sends once, verified with the endpoint’s secret', async () => {
    const handled: string[] = [];
    const receive = createOrderWebhookReceiver({
      secret: MOCK_WEBHOOK_SECRET,
      onEvent: (e) => {
        handled.push(`${e.type} ${e.data.order.company_order_id}`);
      },
    });
    mock.onWebhook((webhook) => receive(webhook.request));
    await sync.pushOrders([order('1001')]);
    await sync.pushOrders([order('1001', { status: 'shipped' })]);
    await mock.waitForWebhook((w) => w.event.type === 'order.updated');
    expect(handled).toEqual(['order.created 1001', 'order.updated 1001']);
    // The receiver's answers are what engagekit logged.
    expect(mock.webhooks.map((w) => w.status)).toEqual([204, 204]);
  });

  it('handles a redelivered event only once', async () => {
    const handled: string[] = [];
    const receive = createOrderWebhookReceiver({
      secret: MOCK_WEBHOOK_SECRET,
      onEvent: (e) => {
        handled.push(e.id);
      },
    });
    let answers = 0;
    // The first answer is lost (the shop answered 204, the network dropped it): engagekit retries.
    mock.onWebhook(async (webhook) => {
      const res = await receive(webhook.request);
      return ++answers === 1 ? new Response(null, { status: 502 }) : res;
    });
    await sync.pushOrders([order('1001')]);
    await mock.waitForWebhook((w) => w.status === 204);
    expect(mock.webhooks.map((w) => w.headers['webhook-id'])).toEqual([handled[0], handled[0]]);
    expect(handled).toHaveLength(1);
  });

  it('refuses a request signed with another secret', async () => {
    const receive = createOrderWebhookReceiver({ secret: MOCK_WEBHOOK_SECRET, onEvent: () => {} });
    const body = JSON.stringify({ id: 'evt_forged', type: 'order.created', created_at: new Date().toISOString(), data: { order: {} } });
    const headers = await signWebhook(body, 'whsec_c29tZW9uZS1lbHNlcy1zZWNyZXQtMTIzNA==');
    const res = await receive(new Request('https://shop.example/hooks', { method: 'POST', headers, body }));
    expect(res.status).toBe(400);
  });
});
