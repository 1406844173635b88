/** MSW interception: `listen()` owns the base URLs and nothing else; `handlers` fit a suite's own setupServer. */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupMockApi } from '../src/node.ts';
import { orderBody, startReceiver } from './helpers.ts';

// Hosts that never resolve: an answer can only come from the interception.
const API = 'http://api.engagekit-msw.invalid';
const ORDERS = 'http://orders.engagekit-msw.invalid:8443';

describe('listen()', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let mock: ReturnType<typeof setupMockApi>;
  beforeAll(async () => {
    receiver = await startReceiver();
    mock = setupMockApi({ baseUrl: API, orderBaseUrl: ORDERS, webhooks: { url: receiver.url } });
    // 'error': any request the mock does not own fails, so a pass here proves which requests it owned.
    mock.listen({ onUnhandledFrame: 'error' });
    mock.listen();
  });
  afterAll(async () => {
    await mock.close();
    await receiver.close();
  });
  const headers = () => ({ authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' });

  it('hands requests for baseUrl and orderBaseUrl made with the global fetch to the mock', async () => {
    const list = await fetch(`${API}/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: headers() });
    expect(list.status).toBe(200);
    const order = await fetch(`${ORDERS}/api/order/addOrder`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(orderBody(mock.company.company_id, 'M-1')),
    });
    expect(order.status).toBe(201);
    expect((await mock.state()).orders.map((o) => o.company_order_id)).toEqual(['M-1']);
  });

  it('leaves other hosts alone (here the error strategy fails them)', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(fetch('http://elsewhere.engagekit-msw.invalid/agency/sync')).rejects.toThrow();
      await expect(fetch(`${API}.evil.invalid/api/v2/health`)).rejects.toThrow();
      const said = printed.mock.calls.map((c) => c.join(' ')).join('\n');
      expect(said).toContain('elsewhere.engagekit-msw.invalid/agency/sync');
      expect(said).toContain('api.engagekit-msw.invalid.evil.invalid/api/v2/health');
    } finally {
      printed.mockRestore();
    }
  });

  it('turns a network fault into a rejected fetch, and an error fault into an answer', async () => {
    mock.fail('getHealth', { network: true });
    await expect(fetch(`${API}/api/v2/health`)).rejects.toBeInstanceOf(TypeError);
    mock.fail('getHealth', { status: 500 });
    const res = await fetch(`${API}/api/v2/health`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ success: false, code: 'internal_error' });
  });

  it('lets its own webhook deliveries reach a real receiver, even under the error strategy', async () => {
    await fetch(`${ORDERS}/api/order/addOrder`, { method: 'POST', headers: headers(), body: JSON.stringify(orderBody(mock.company.company_id, 'M-2')) });
    const sent = await mock.waitForWebhook((w) => w.event.data.order.company_order_id === 'M-2');
    expect(sent.status).toBe(200);
    const got = receiver.received.find((r) => r.body.includes('"company_order_id":"M-2"'));
    expect(got?.headers['webhook-signature']).toBe(sent.headers['webhook-signature']);
    expect(got?.headers.accept ?? '').not.toContain('msw');
  });
});

describe('handlers in a suite’s own setupServer', () => {
  const mock = setupMockApi({ baseUrl: API });
  const server = setupServer(
    http.get('http://partner.engagekit-msw.invalid/stock', () => HttpResponse.json({ items: 3 })),
    ...mock.handlers,
  );
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(async () => {
    server.close();
    await mock.close();
  });

  it('answers the mock’s base URL beside the suite’s other handlers', async () => {
    expect(await (await fetch('http://partner.engagekit-msw.invalid/stock')).json()).toEqual({ items: 3 });
    const res = await fetch(`${API}/agency/getCustomers?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${mock.company.token}` } });
    expect(res.status).toBe(200);
  });
});
