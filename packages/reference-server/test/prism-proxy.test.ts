/**
 * The contract check: every request and answer of a full happy path goes through `prism proxy --errors`
 * in front of the real server, so any answer that breaks openapi.yaml fails here.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'prism-admin-token-0123456789';
const DOCUMENT = new URL('../../contract/openapi.yaml', import.meta.url).pathname;
const PRISM = new URL('../node_modules/.bin/prism', import.meta.url).pathname;

describe('the reference server through prism proxy --errors', () => {
  let server: ServerProcess;
  let prism: ReturnType<typeof spawn>;
  let base = '';
  let prismOut = '';

  beforeAll(async () => {
    server = await startServerProcess({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: '1' });
    const port = await freePort();
    prism = spawn(PRISM, ['proxy', DOCUMENT, server.url, '--errors', '--port', String(port), '--host', '127.0.0.1', '-v', 'warn'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prism.stdout?.on('data', (d) => {
      prismOut += String(d);
    });
    prism.stderr?.on('data', (d) => {
      prismOut += String(d);
    });
    base = `http://127.0.0.1:${port}`;
    await vi.waitFor(
      async () => {
        await fetch(`${base}/api/v2/health`).catch((e: Error) => {
          throw new Error(`prism did not start: ${e.message}\n${prismOut}`);
        });
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 60_000);

  afterAll(async () => {
    prism?.kill('SIGTERM');
    await server?.stop();
  });

  /** Sends through prism and fails on any contract violation it reports. */
  async function call(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
    const text = await res.text();
    expect(res.headers.get('sl-violations'), `${method} ${path}: ${res.headers.get('sl-violations')}`).toBeNull();
    const json = JSON.parse(text);
    expect(json.type ?? '', `${method} ${path} -> ${res.status}: ${text}`).not.toMatch(/stoplight|VIOLATIONS|UNPROCESSABLE/i);
    return { status: res.status, json };
  }

  it('passes every operation, its success answers and its usual errors', async () => {
    expect((await call('GET', '/api/v2/health')).status).toBe(200);
    const company = await call('POST', '/api/v2/companies', { token: ADMIN_TOKEN, body: { name: 'Prism Co', company_id: 'PRISMCO1' } });
    expect(company.status).toBe(201);
    const uuid = company.json.data.uuid as string;
    expect((await call('GET', `/api/v2/companies/${uuid}`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await call('GET', '/api/v2/companies?page=1&limit=10', { token: ADMIN_TOKEN })).status).toBe(200);
    const token = (await call('POST', `/api/v2/companies/${uuid}/tokens`, { token: ADMIN_TOKEN, body: {} })).json.data.token as string;
    expect(
      (
        await call('POST', `/api/v2/companies/${uuid}/customers`, {
          token: ADMIN_TOKEN,
          body: { customers: [{ phoneNumber: '+14155550100', firstName: 'Imported' }] },
        })
      ).status,
    ).toBe(200);

    const q = `uuid=${uuid}`;
    expect((await call('POST', `/agency/template?${q}`, { token, body: { template_name: 'savetem', phone_number: '6363978748', wam_id: 'w1' } })).status).toBe(
      200,
    );
    const body = {
      name: 'weekly',
      schedule_type: 'recurring',
      schedule: '2030-01-15T10:00:00Z',
      days: { monday: ['09:00', '18:30'], friday: ['10:00'] },
      template_payload: {
        template_name: 'carousel_offer',
        body_variable: ['first_name'],
        variables: { first_name: 'Asha' },
        cards: [{ card_image_url: 'https://example.com/i.jpg', card_body_variables: ['10%'] }],
      },
    };
    const created = await call('POST', `/agency/createCampaign?${q}`, { token, body });
    expect(created.status).toBe(201);
    expect((await call('POST', `/agency/createCampaign?${q}`, { token, body })).status).toBe(409);
    expect((await call('GET', `/agency/getCampaign/${created.json.data.id}?${q}`, { token })).status).toBe(200);
    expect((await call('GET', `/agency/getCampaign/unknown?${q}`, { token })).status).toBe(404);
    expect((await call('GET', `/agency/getCampaignData?${q}&page=1&limit=10`, { token })).status).toBe(200);

    const order = {
      company_id: 'PRISMCO1',
      company_order_id: 'ORD-1',
      totalAmount: 10.5,
      firstName: 'John',
      phoneNumber: '+1234567890',
      postalCode: '56789',
      streetAddress1: '123 Main Street',
    };
    expect((await call('POST', '/api/order/addOrder', { token, body: order })).status).toBe(201);
    expect((await call('POST', '/api/order/addOrder', { token, body: { ...order, totalAmount: 12 } })).status).toBe(200);
    expect((await call('PUT', '/api/order/updateOrder/ORD-1', { token, body: { company_id: 'PRISMCO1', city: 'Springfield' } })).status).toBe(200);
    expect((await call('PATCH', '/api/order/updateOrder/ORD-1', { token, body: { company_id: 'PRISMCO1', state: 'Illinois' } })).status).toBe(200);
    expect((await call('POST', '/api/order/updateOrder/ORD-1', { token, body: { company_id: 'PRISMCO1', companyOrderStatus: 'Shipped' } })).status).toBe(200);
    expect((await call('PUT', '/api/order/updateOrder/NOPE', { token, body: { company_id: 'PRISMCO1' } })).status).toBe(404);

    expect((await call('GET', `/agency/getCustomers?${q}&page=1&limit=10`, { token })).status).toBe(200);
    expect((await call('GET', `/agency/reportingCampaign?${q}`, { token })).status).toBe(200);
    expect((await call('POST', `/agency/sync?${q}`, { token })).status).toBe(200);

    const hooks = `/api/v2/companies/${uuid}/webhooks`;
    const ep = await call('POST', hooks, { token: ADMIN_TOKEN, body: { url: 'https://hooks.partner.example/x', events: ['order.created'] } });
    expect(ep.status).toBe(201);
    const id = ep.json.data.id as string;
    expect((await call('GET', `${hooks}?page=1&limit=10`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await call('GET', `${hooks}/${id}`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await call('PATCH', `${hooks}/${id}`, { token: ADMIN_TOKEN, body: { description: 'warehouse' } })).status).toBe(200);
    expect((await call('POST', `${hooks}/${id}/rotate-secret`, { token: ADMIN_TOKEN, body: { grace_period_s: 60 } })).status).toBe(200);
    const test = await call('POST', `${hooks}/${id}/test`, { token: ADMIN_TOKEN, body: { event_type: 'order.updated' } });
    expect(test.status).toBe(202);
    expect((await call('GET', `${hooks}/${id}/deliveries?page=1&limit=20`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await call('POST', `${hooks}/${id}/deliveries/${test.json.data.id}/redeliver`, { token: ADMIN_TOKEN })).status).toBe(202);
    expect((await call('DELETE', `${hooks}/${id}`, { token: ADMIN_TOKEN })).status).toBe(200);

    // Errors the contract documents come back in the documented envelope too.
    expect((await call('GET', `/agency/getCampaignData?${q}`, { token: 'not.a.jwt' })).status).toBe(401);
    expect((await call('GET', '/agency/getCampaignData?uuid=00000000-0000-4000-8000-000000000000', { token })).status).toBe(404);
  });
});
