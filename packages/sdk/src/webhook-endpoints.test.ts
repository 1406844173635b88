import { describe, expect, it } from 'vitest';
import { fakeFetch, json } from '../test/helpers/fake-fetch.ts';
import { createAdminClient } from './admin-client.ts';
import { createClient } from './create-client.ts';
import { EngageError } from './errors.ts';
import { signWebhook, WebhookVerificationError } from './webhooks.ts';

const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ok = (data: unknown, extra: Record<string, unknown> = {}) => json(200, { success: true, message: 'OK', data, ...extra });
const page = (data: unknown[], p: number, totalPages: number) => ok(data, { pagination: { total: 3, page: p, limit: 2, totalPages } });

/** Answers lists with two pages of two and one items, everything else with its own method and path. */
function api() {
  return fakeFetch((req) => {
    const p = Number(req.url.searchParams.get('page'));
    if (req.method === 'GET' && /\/(webhooks|deliveries|companies)$/.test(req.url.pathname)) {
      return p === 1 ? page([{ id: 'a' }, { id: 'b' }], 1, 2) : page([{ id: 'c' }], 2, 2);
    }
    return ok({ seen: `${req.method} ${req.url.pathname}` });
  });
}

const seen = async (p: PromiseLike<unknown>) => ((await p) as { seen: string }).seen;

describe('webhookEndpoints', () => {
  it('send every method to its path with the company token and the client uuid', async () => {
    const f = api();
    const c = createClient({ baseUrl: 'http://api.test', token: 'tok', uuid: UUID, fetch: f.fetch });
    const e = c.webhookEndpoints;
    const base = `/api/v2/companies/${UUID}/webhooks`;
    expect([
      await seen(e.create({ url: 'https://hooks.example.com' })),
      await seen(e.get('wh 1')),
      await seen(e.update('wh_1', { enabled: false })),
      await seen(e.delete('wh_1')),
      await seen(e.rotateSecret('wh_1')),
      await seen(e.sendTest('wh_1', { event_type: 'order.updated' })),
      await seen(e.redeliver('wh_1', 'dlv_1')),
    ]).toEqual([
      `POST ${base}`,
      `GET ${base}/wh%201`,
      `PATCH ${base}/wh_1`,
      `DELETE ${base}/wh_1`,
      `POST ${base}/wh_1/rotate-secret`,
      `POST ${base}/wh_1/test`,
      `POST ${base}/wh_1/deliveries/dlv_1/redeliver`,
    ]);
    expect(f.calls.every((r) => r.headers.get('authorization') === 'Bearer tok')).toBe(true);
    expect(f.calls.filter((r) => r.method !== 'GET').every((r) => r.headers.has('idempotency-key'))).toBe(true);
    expect(f.calls.map((r) => r.body)).toEqual([
      '{"url":"https://hooks.example.com"}',
      '',
      '{"enabled":false}',
      '',
      '{}',
      '{"event_type":"order.updated"}',
      '',
    ]);
  });

  it('page endpoints and deliveries: await for a page, for await for every item', async () => {
    const f = api();
    const c = createClient({ baseUrl: 'http://api.test', token: 'tok', uuid: UUID, fetch: f.fetch });
    const first = await c.webhookEndpoints.list({ limit: 2 });
    expect(first).toMatchObject({ page: 1, total: 3, nextPage: 2, pagination: { totalPages: 2 } });
    const ids: string[] = [];
    for await (const e of c.webhookEndpoints.list({ limit: 2 })) ids.push(e.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    const deliveries = await c.webhookEndpoints.deliveries('wh_1', { status: 'failed', limit: 2 }).toArray({ max: 10 });
    expect(deliveries.map((d) => d.id)).toEqual(['a', 'b', 'c']);
    expect(f.calls.slice(-2).map((r) => r.url.pathname + r.url.search)).toEqual([
      `/api/v2/companies/${UUID}/webhooks/wh_1/deliveries?status=failed&limit=2&page=1`,
      `/api/v2/companies/${UUID}/webhooks/wh_1/deliveries?status=failed&limit=2&page=2`,
    ]);
  });

  it('reject a missing endpoint or delivery id without a request', async () => {
    const f = api();
    const c = createClient({ baseUrl: 'http://api.test', token: 'tok', uuid: UUID, fetch: f.fetch });
    await expect(c.webhookEndpoints.get('')).rejects.toThrow('webhookEndpoints.get needs an endpoint id (got "")');
    await expect(c.webhookEndpoints.deliveries(undefined as unknown as string)).rejects.toThrow(/webhookEndpoints.deliveries needs an endpoint id/);
    await expect(c.webhookEndpoints.redeliver('wh_1', '')).rejects.toThrow(/needs a delivery id/);
    expect(f.calls).toHaveLength(0);
  });
});

describe('createAdminClient', () => {
  it('sends companies, tokens, customers, endpoints and health with the admin token', async () => {
    const f = api();
    const admin = createAdminClient({ baseUrl: 'http://api.test/', adminToken: 'admin-tok', fetch: f.fetch });
    expect([
      await seen(admin.companies.create({ name: 'Acme' })),
      await seen(admin.companies.get(UUID)),
      await seen(admin.companies.tokens.create(UUID)),
      await seen(admin.companies.customers.import(UUID, { customers: [] })),
      await seen(admin.companies.campaigns.pause(UUID, 'cmp_1')),
      await seen(admin.companies.campaigns.resume(UUID, 'cmp_1')),
      await seen(admin.companies.campaigns.cancel(UUID, 'cmp_1')),
      await seen(admin.companies.webhookEndpoints.get(UUID, 'wh_1')),
      await seen(admin.companies.webhookEndpoints.redeliver(UUID, 'wh_1', 'dlv_1')),
      await seen(admin.health()),
    ]).toEqual([
      'POST /api/v2/companies',
      `GET /api/v2/companies/${UUID}`,
      `POST /api/v2/companies/${UUID}/tokens`,
      `POST /api/v2/companies/${UUID}/customers`,
      `POST /api/v2/companies/${UUID}/campaigns/cmp_1/pause`,
      `POST /api/v2/companies/${UUID}/campaigns/cmp_1/resume`,
      `POST /api/v2/companies/${UUID}/campaigns/cmp_1/cancel`,
      `GET /api/v2/companies/${UUID}/webhooks/wh_1`,
      `POST /api/v2/companies/${UUID}/webhooks/wh_1/deliveries/dlv_1/redeliver`,
      'GET /api/v2/health',
    ]);
    const uuids: string[] = [];
    for await (const c of admin.companies.list({ limit: 2 })) uuids.push((c as unknown as { id: string }).id);
    expect(uuids).toEqual(['a', 'b', 'c']);
    expect(f.calls.every((r) => r.headers.get('authorization') === 'Bearer admin-tok')).toBe(true);
  });

  it('says what is wrong with its options and arguments', async () => {
    expect(() => createAdminClient({ baseUrl: 'http://api.test', adminToken: '' })).toThrow(/createAdminClient: adminToken is required/);
    expect(() => createAdminClient({ baseUrl: 'api.test', adminToken: 'a' })).toThrow(/createAdminClient: baseUrl must be an absolute/);
    expect(() => createAdminClient({ baseUrl: 'http://api.test', adminToken: 'a', timeout: 0 })).toThrow(EngageError);
    const admin = createAdminClient({ baseUrl: 'http://api.test', adminToken: 'a', fetch: api().fetch });
    await expect(admin.companies.webhookEndpoints.list('')).rejects.toThrow('companies.webhookEndpoints.list needs the company uuid (got "")');
    await expect(admin.companies.tokens.create('')).rejects.toThrow(/companies.tokens.create needs a company uuid/);
  });
});

describe('webhooks.unwrap', () => {
  const event = {
    id: 'evt_1',
    type: 'order.created',
    created_at: '2030-01-15T10:00:00.000Z',
    data: {
      order: {
        id: 'ord_1',
        company_id: 'ACME',
        company_order_id: 'ORD-1',
        phoneNumber: '+919800000001',
        totalAmount: 10,
        version: 1,
        products: [],
        created_at: '2030-01-15T10:00:00.000Z',
        updated_at: '2030-01-15T10:00:00.000Z',
      },
    },
  };
  const body = JSON.stringify(event);
  const client = (webhookSecret?: string) => createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, ...(webhookSecret ? { webhookSecret } : {}) });

  it('accepts a signed event, with the secret given or the client’s webhookSecret', async () => {
    const headers = await signWebhook(body, SECRET);
    expect(await client().webhooks.unwrap(body, headers, SECRET)).toEqual(event);
    expect(await client(SECRET).webhooks.unwrap(body, new Headers(headers))).toEqual(event);
  });

  it('rejects a tampered body with WebhookVerificationError', async () => {
    const headers = await signWebhook(body, SECRET);
    const err = await client(SECRET)
      .webhooks.unwrap(body.replace('ORD-1', 'ORD-2'), headers)
      .catch((e: unknown) => e);
    expect(WebhookVerificationError.is(err)).toBe(true);
    expect((err as WebhookVerificationError).code).toBe('no_matching_signature');
  });

  it('rejects with an EngageError naming what to do when it has no secret', async () => {
    const headers = await signWebhook(body, SECRET);
    const err = await client()
      .webhooks.unwrap(body, headers)
      .catch((e: unknown) => e);
    expect(EngageError.is(err)).toBe(true);
    expect((err as Error).message).toMatch(/webhooks.unwrap needs the endpoint secret.*webhookSecret/);
  });
});
