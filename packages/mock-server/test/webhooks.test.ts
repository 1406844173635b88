/** Webhooks from the in-process mock: signed as the reference server signs, to a listener or to a URL, retried fast. */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook } from '../../sdk/src/webhooks.ts';
import { MOCK_WEBHOOK_SECRET, MOCK_WEBHOOK_URL, type MockWebhook, setupMockApi } from '../src/node.ts';
import { orderBody, startReceiver } from './helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
function mockWith(options: Parameters<typeof setupMockApi>[0] = {}) {
  const mock = setupMockApi(options);
  cleanups.push(() => mock.close());
  return mock;
}

async function addOrder(mock: ReturnType<typeof setupMockApi>, id: string, extra: Record<string, unknown> = {}) {
  const res = await mock.fetch('/api/order/addOrder', {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(orderBody(mock.company.company_id, id, extra)),
  });
  expect(res.status).toBeLessThan(300);
}

describe('onWebhook()', () => {
  it('gets every order event as a signed request that verifies with the documented secret', async () => {
    const mock = mockWith();
    const got: MockWebhook[] = [];
    mock.onWebhook((w) => {
      got.push(w);
    });
    await addOrder(mock, 'W-1');
    const webhook = await mock.waitForWebhook((w) => w.event.data.order.company_order_id === 'W-1');
    expect(webhook.url).toBe(MOCK_WEBHOOK_URL);
    expect(webhook.status).toBe(200);
    expect(webhook.event).toMatchObject({ type: 'order.created', data: { order: { company_order_id: 'W-1', company_id: mock.company.company_id } } });
    // The standard's reference implementation and the SDK both accept it.
    expect(new Webhook(MOCK_WEBHOOK_SECRET).verify(webhook.rawBody, webhook.headers)).toEqual(webhook.event);
    await expect(verifyWebhook(webhook.rawBody, webhook.headers, mock.webhookSecret)).resolves.toMatchObject({ id: webhook.event.id, type: 'order.created' });
    expect(webhook.headers['webhook-id']).toBe(webhook.event.id);
    // The listener got its own copy of the request, body unread.
    expect(got).toHaveLength(1);
    expect(await got[0]?.request.text()).toBe(webhook.rawBody);
    expect(got[0]?.request.headers.get('webhook-signature')).toBe(webhook.headers['webhook-signature']);
    const state = await mock.state();
    expect(state.webhooks).toEqual([expect.objectContaining({ url: MOCK_WEBHOOK_URL, secret: MOCK_WEBHOOK_SECRET })]);
  });

  it('retries fast when the listener answers 500, with the same webhook id, and logs every attempt', async () => {
    const mock = mockWith();
    let calls = 0;
    mock.onWebhook(() => (++calls === 1 ? new Response('not now', { status: 500 }) : undefined));
    await addOrder(mock, 'R-1');
    const second = await mock.waitForWebhook((w) => w.status === 200);
    expect(mock.webhooks.map((w) => w.status)).toEqual([500, 200]);
    expect(mock.webhooks[0]?.headers['webhook-id']).toBe(second.headers['webhook-id']);
    const delivery = (await mock.state()).deliveries[0];
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });
  });

  it('answers 500 for a listener that throws, records why, and retries', async () => {
    const mock = mockWith();
    let calls = 0;
    mock.onWebhook(() => {
      if (++calls === 1) throw new Error('receiver bug');
      return new Response('fine', { status: 202 });
    });
    await addOrder(mock, 'T-1');
    await mock.waitForWebhook((w) => w.status === 202);
    expect(mock.webhooks[0]).toMatchObject({ status: 500, error: 'a webhook listener threw: receiver bug' });
  });

  it('stops calling a listener once unsubscribed', async () => {
    const mock = mockWith();
    const seen: string[] = [];
    const off = mock.onWebhook((w) => {
      seen.push(w.event.data.order.company_order_id);
    });
    const other = mock.onWebhook(() => {});
    await addOrder(mock, 'K-1');
    await mock.waitForWebhook();
    off();
    await addOrder(mock, 'K-2');
    await mock.waitForWebhook((w) => w.event.data.order.company_order_id === 'K-2');
    other();
    expect(seen).toEqual(['K-1']);
  });

  it('drops onWebhook() listeners and the log on reset(), keeping the webhooks option’s listener and endpoint', async () => {
    const fromOption: string[] = [];
    const added: string[] = [];
    const mock = mockWith({ webhooks: { onWebhook: (w) => fromOption.push(w.event.data.order.company_order_id) } });
    mock.onWebhook((w) => added.push(w.event.data.order.company_order_id));
    await addOrder(mock, 'K-1');
    await mock.waitForWebhook();
    await mock.reset();
    expect(mock.webhooks).toEqual([]);
    await addOrder(mock, 'K-2');
    await mock.waitForWebhook((w) => w.event.data.order.company_order_id === 'K-2');
    expect(fromOption).toEqual(['K-1', 'K-2']);
    expect(added).toEqual(['K-1']);
    expect((await mock.state()).webhooks).toHaveLength(1);
  });

  it('after reset(), makes the in-process endpoint again at the next onWebhook()', async () => {
    const mock = mockWith();
    mock.onWebhook(() => {});
    await mock.reset();
    expect((await mock.state()).webhooks).toEqual([]);
    const got: string[] = [];
    mock.onWebhook((w) => got.push(w.event.type));
    await addOrder(mock, 'K-3');
    await mock.waitForWebhook();
    expect(got).toEqual(['order.created']);
  });

  it('rejects waitForWebhook with a hint when nothing comes', async () => {
    const mock = mockWith();
    await expect(mock.waitForWebhook(undefined, { timeoutMs: 50 })).rejects.toThrow(/no matching webhook in 50 ms .* is a webhook endpoint registered/);
  });
});

describe('the webhooks option', () => {
  it('registers an endpoint to your URL at start and after reset, signed with the documented secret', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const mock = mockWith({ webhooks: { url: receiver.url } });
    await addOrder(mock, 'U-1');
    await receiver.waitFor(1);
    const first = receiver.received[0];
    const event = new Webhook(MOCK_WEBHOOK_SECRET).verify(first?.body ?? '', first?.headers as Record<string, string>) as MockWebhook['event'];
    expect(event.data.order.company_order_id).toBe('U-1');
    expect(first?.headers['user-agent']).toBe('engagekit-webhooks/1');
    await mock.waitForWebhook();
    expect(mock.webhooks[0]).toMatchObject({ url: receiver.url, status: 200 });
    await mock.reset();
    await addOrder(mock, 'U-2');
    await receiver.waitFor(2);
    expect(receiver.received[1]?.body).toContain('"company_order_id":"U-2"');
  });

  it('sends only the events asked for, signed with your secret', async () => {
    const secret = 'whsec_c2VjcmV0LW9mLXRoZS1wYXJ0bmVyLTAwMQ==';
    const mock = mockWith({ webhooks: { events: ['order.updated'], secret } });
    await addOrder(mock, 'E-1');
    await addOrder(mock, 'E-1', { totalAmount: 7 });
    const webhook = await mock.waitForWebhook();
    expect(webhook.event.type).toBe('order.updated');
    expect(() => new Webhook(secret).verify(webhook.rawBody, webhook.headers)).not.toThrow();
    expect(() => new Webhook(MOCK_WEBHOOK_SECRET).verify(webhook.rawBody, webhook.headers)).toThrow();
    expect((await mock.state()).deliveries.map((d) => d.event_type)).toEqual(['order.updated']);
  });
});

describe('endpoints registered through the admin API', () => {
  it('are delivered to over HTTP with their own secret, loopback included', async () => {
    const receiver = await startReceiver((_, i) => ({ status: i === 0 ? 503 : 200 }));
    cleanups.push(receiver.close);
    const mock = mockWith();
    const made = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    const { secret } = ((await made.json()) as { data: { secret: string } }).data;
    await addOrder(mock, 'H-1');
    await receiver.waitFor(2);
    const [first, second] = receiver.received;
    expect(first?.headers['webhook-id']).toBe(second?.headers['webhook-id']);
    expect(() => new Webhook(secret).verify(second?.body ?? '', second?.headers as Record<string, string>)).not.toThrow();
    await mock.waitForWebhook((w) => w.status === 200);
    expect(mock.webhooks.map((w) => w.status)).toEqual([503, 200]);
  });
});

describe('the webhookDelivery option', () => {
  it("'record' logs every delivery, signed, and sends nothing to the endpoint's URL", async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const mock = mockWith({ webhookDelivery: 'record', webhooks: { url: receiver.url } });
    const made = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url }),
    });
    const { secret } = ((await made.json()) as { data: { secret: string } }).data;
    await addOrder(mock, 'R-1');
    await vi.waitFor(() => expect(mock.webhooks).toHaveLength(2));
    expect(mock.webhooks.map((w) => [w.url, w.status, w.event.data.order.company_order_id])).toEqual([
      [receiver.url, 200, 'R-1'],
      [receiver.url, 200, 'R-1'],
    ]);
    const signedWith = (s: string) =>
      mock.webhooks.filter((w) => {
        try {
          new Webhook(s).verify(w.rawBody, w.headers);
          return true;
        } catch {
          return false;
        }
      });
    expect(signedWith(MOCK_WEBHOOK_SECRET)).toHaveLength(1);
    expect(signedWith(secret)).toHaveLength(1);
    await vi.waitFor(async () => expect((await mock.state()).deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded']));
    // Time for a stray send to land, had one been made.
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(0);
  });

  it("'record' hands deliveries to onWebhook() listeners, whose answer counts", async () => {
    const mock = mockWith({ webhookDelivery: 'record', webhooks: { url: 'https://shop.example/hooks' } });
    let calls = 0;
    mock.onWebhook(() => (calls++ === 0 ? new Response(null, { status: 500 }) : undefined));
    await addOrder(mock, 'R-2');
    await mock.waitForWebhook((w) => w.status === 200);
    expect(mock.webhooks.map((w) => [w.url, w.status])).toEqual([
      ['https://shop.example/hooks', 500],
      ['https://shop.example/hooks', 200],
    ]);
  });

  it('refuses a value it does not know', () => {
    expect(() => setupMockApi({ webhookDelivery: 'none' as 'record' })).toThrow("webhookDelivery must be 'send' or 'record' (given \"none\").");
  });
});
