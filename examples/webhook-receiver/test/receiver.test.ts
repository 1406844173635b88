import { signWebhook } from '@engagekit/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../../packages/reference-server/test/helpers.ts';
import { startWebhookReceiver } from '../receiver.ts';

const ADMIN_TOKEN = 'receiver-example-admin-token';

describe('the webhook receiver example against the reference server', () => {
  let server: ServerProcess;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const handled: { type: string; id: string; order: string }[] = [];
  const refused: string[] = [];
  let api: (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; data: Record<string, unknown> & { id: string } }>;
  let secret = '';
  let token = '';
  let uuid = '';
  let endpointId = '';

  beforeAll(async () => {
    server = await startServerProcess({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' });
    api = async (method, path, body, bearer = ADMIN_TOKEN) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, data: (await res.json()).data };
    };
    const company = (await api('POST', '/api/v2/companies', { name: 'Receiver Co', company_id: 'RECV1' })).data as unknown as { uuid: string };
    uuid = company.uuid;
    token = ((await api('POST', `/api/v2/companies/${uuid}/tokens`, {})).data as unknown as { token: string }).token;
    // The secret comes first (the endpoint makes it), so the receiver starts on any free port and the endpoint is pointed at it after.
    const endpoint = (await api('POST', `/api/v2/companies/${uuid}/webhooks`, { url: 'http://127.0.0.1:9/placeholder', enabled: false })).data;
    endpointId = endpoint.id;
    secret = endpoint.secret as string;
    receiver = await startWebhookReceiver({
      secret,
      port: 0,
      handle: (e) => void handled.push({ type: e.type, id: e.id, order: e.data.order.company_order_id }),
      onRefused: (r) => refused.push(r),
    });
    await api('PATCH', `/api/v2/companies/${uuid}/webhooks/${endpointId}`, { url: receiver.url, enabled: true });
  });

  afterAll(async () => {
    await receiver?.close();
    await server?.stop();
  });

  const until = async (ok: () => boolean) => {
    const deadline = Date.now() + 15_000;
    while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };

  it('handles the events of orders added and updated through the API, verified', async () => {
    const order = {
      company_id: 'RECV1',
      company_order_id: 'R-1',
      totalAmount: 10,
      firstName: 'Asha',
      phoneNumber: '+919800000001',
      postalCode: '1',
      streetAddress1: 'x',
    };
    expect((await api('POST', '/api/order/addOrder', order, token)).status).toBe(201);
    expect((await api('PUT', '/api/order/updateOrder/R-1', { company_id: 'RECV1', totalAmount: 12 }, token)).status).toBe(200);
    await until(() => handled.length >= 2);
    expect(handled.map((h) => [h.type, h.order])).toEqual([
      ['order.created', 'R-1'],
      ['order.updated', 'R-1'],
    ]);
    expect(refused).toEqual([]);
  });

  it('acknowledges a redelivery but handles the event once', async () => {
    const deliveries = (await api('GET', `/api/v2/companies/${uuid}/webhooks/${endpointId}/deliveries`)).data as unknown as { id: string; status: string }[];
    const first = deliveries.at(-1) as { id: string };
    expect((await api('POST', `/api/v2/companies/${uuid}/webhooks/${endpointId}/deliveries/${first.id}/redeliver`)).status).toBe(202);
    // Once the log shows the redelivery acknowledged, the receiver has seen it (and dropped it).
    const log = async () => (await api('GET', `/api/v2/companies/${uuid}/webhooks/${endpointId}/deliveries`)).data as unknown as { status: string }[];
    let entries = await log();
    for (let i = 0; i < 150 && !(entries.length === 3 && entries.every((d) => d.status === 'succeeded')); i++) {
      await new Promise((r) => setTimeout(r, 100));
      entries = await log();
    }
    expect(entries).toHaveLength(3);
    expect(entries.every((d) => d.status === 'succeeded')).toBe(true);
    expect(handled).toHaveLength(2);
  });

  it('refuses a delivery signed with another secret, and one replayed from long ago', async () => {
    const body = JSON.stringify({ id: 'evt_forged', type: 'order.created', created_at: new Date().toISOString(), data: { order: {} } });
    const forged = await signWebhook(body, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect((await fetch(receiver.url, { method: 'POST', headers: forged, body })).status).toBe(400);
    const stale = await signWebhook(body, secret, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await fetch(receiver.url, { method: 'POST', headers: stale, body })).status).toBe(400);
    expect(refused).toHaveLength(2);
    expect(handled.map((h) => h.id)).not.toContain('evt_forged');
  });
});
