import { describe, expect, it } from 'vitest';
import { apiError, fakeFetch, hangingFetch, json } from '../test/helpers/fake-fetch.ts';
import { createClient } from './create-client.ts';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EngageError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.ts';
import type { AddOrderBody, CreateCampaignBody } from './types.ts';

const UUID = '53d1bcd3-aaf0-45e1-9298-5395b6a27b61';
const ok = (data: unknown, status = 200, extra: Record<string, unknown> = {}) =>
  json(status, { success: true, message: 'OK', data, ...extra }, { 'x-request-id': `req_${status}` });
const campaignBody: CreateCampaignBody = {
  name: 'spring',
  schedule_type: 'once',
  schedule: '2030-01-15T10:00:00Z',
  template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
};
const orderBody: AddOrderBody = {
  company_id: 'ACME',
  company_order_id: 'ORD-1',
  totalAmount: 10,
  firstName: 'Asha',
  phoneNumber: '+919800000001',
  postalCode: '560001',
  streetAddress1: '1 MG Road',
};

function client(handler: Parameters<typeof fakeFetch>[0], extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const f = fakeFetch(handler);
  return { c: createClient({ baseUrl: 'http://api.test/', token: 'tok', uuid: UUID, fetch: f.fetch, ...extra }), calls: f.calls };
}

describe('resource methods', () => {
  it('send each operation to its path with the token, the uuid query and the body, and resolve to data', async () => {
    const { c, calls } = client((req) => ok({ path: req.url.pathname }, req.method === 'POST' && req.url.pathname.endsWith('createCampaign') ? 201 : 200), {
      orderBaseUrl: 'http://orders.test',
    });
    const results = [
      await c.agency.sync(),
      await c.templates.submit({ template_name: 'savetem', phone_number: '6363978748' }),
      await c.campaigns.create(campaignBody),
      await c.campaigns.get('cmp/1'),
      await c.reports.get(),
      await c.orders.add(orderBody),
      await c.orders.update('ORD 1', { company_id: 'ACME', companyOrderStatus: 'Shipped' }),
    ];
    expect(results.map((r) => (r as unknown as { path: string }).path)).toEqual([
      '/agency/sync',
      '/agency/template',
      '/agency/createCampaign',
      '/agency/getCampaign/cmp%2F1',
      '/agency/reportingCampaign',
      '/api/order/addOrder',
      '/api/order/updateOrder/ORD%201',
    ]);
    expect(calls.map((r) => `${r.method} ${r.url.host}`)).toEqual([
      'POST api.test',
      'POST api.test',
      'POST api.test',
      'GET api.test',
      'GET api.test',
      'POST orders.test',
      'PUT orders.test',
    ]);
    expect(calls.every((r) => r.headers.get('authorization') === 'Bearer tok')).toBe(true);
    expect(calls.slice(0, 5).every((r) => r.url.searchParams.get('uuid') === UUID)).toBe(true);
    expect(calls.slice(5).every((r) => !r.url.searchParams.has('uuid'))).toBe(true);
    expect(JSON.parse(calls[2]?.body ?? '')).toEqual(campaignBody);
    expect(JSON.parse(calls[6]?.body ?? '')).toEqual({ company_id: 'ACME', companyOrderStatus: 'Shipped' });
  });

  it('give status, headers and requestId with .withResponse()', async () => {
    const { c } = client((_, n) => ok({ id: 'ord_1', version: n }, n === 1 ? 201 : 200));
    const created = await c.orders.add(orderBody).withResponse();
    expect(created).toMatchObject({ status: 201, requestId: 'req_201', data: { id: 'ord_1', version: 1 } });
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.response.status).toBe(201);
    const updated = await c.orders.add(orderBody).withResponse();
    expect(updated.status).toBe(200);
  });

  it('merge client and per-call headers', async () => {
    const { c, calls } = client(() => ok({}), { headers: { 'x-team': 'growth' } });
    await c.reports.get({ headers: { 'x-request-id': 'mine-1' } });
    expect(calls[0]?.headers.get('x-team')).toBe('growth');
    expect(calls[0]?.headers.get('x-request-id')).toBe('mine-1');
  });

  it("let a call's headers replace the client's whatever their case, and keep a key given as a header", async () => {
    const { c, calls } = client(() => ok({}, 201), { headers: { 'X-Team': 'growth' } });
    await c.orders.add(orderBody, { headers: { Authorization: 'Bearer other', 'x-team': 'ops', 'Idempotency-Key': 'mine' } });
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer other');
    expect(calls[0]?.headers.get('x-team')).toBe('ops');
    expect(calls[0]?.headers.get('idempotency-key')).toBe('mine');
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
  });

  it('encode path and query parameters, leaving out the ones not given', async () => {
    const { c, calls } = client(() => ok([], 200, { pagination: { total: 0, page: 2, limit: 5, totalPages: 1 } }), { uuid: 'a b&c' });
    await c.campaigns.list({ page: 2, limit: 5 });
    await c.campaigns.list();
    await c.campaigns.get('cmp/1?x');
    expect(calls.map((r) => r.url.pathname + r.url.search)).toEqual([
      '/agency/getCampaignData?page=2&limit=5&uuid=a%20b%26c',
      '/agency/getCampaignData?page=1&uuid=a%20b%26c',
      '/agency/getCampaign/cmp%2F1%3Fx?uuid=a%20b%26c',
    ]);
  });

  it('time out an answer whose body never ends, and a fetch that ignores its signal', async () => {
    const stalled = async () => new Response(new ReadableStream({ start() {} }), { status: 200 });
    const a = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: stalled, timeout: 5, maxRetries: 0 });
    await expect(a.campaigns.get('cmp_1')).rejects.toBeInstanceOf(APITimeoutError);
    const deaf = () => new Promise<Response>(() => {});
    const b = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: deaf, timeout: 5, maxRetries: 1 });
    const err = await b.campaigns.get('cmp_1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toBe(
      'GET http://api.test/agency/getCampaign/cmp_1?uuid=53d1bcd3-aaf0-45e1-9298-5395b6a27b61 timed out after 5 ms (the `timeout` option)',
    );
  });

  it('reject with the error class of the status, carrying the envelope', async () => {
    const cases: [number, string, typeof APIError][] = [
      [400, 'validation_error', BadRequestError],
      [401, 'unauthorized', AuthenticationError],
      [403, 'forbidden', PermissionDeniedError],
      [404, 'not_found', NotFoundError],
      [409, 'conflict', ConflictError],
      [429, 'rate_limited', RateLimitError],
      [500, 'internal_error', InternalServerError],
      [503, 'unavailable', InternalServerError],
      [415, 'unsupported_media_type', APIError],
    ];
    for (const [status, code, Class] of cases) {
      const { c } = client(() => apiError(status, code, `says ${status}`, { issues: [{ path: 'name', message: 'bad' }] }), { maxRetries: 0 });
      const err = await c.campaigns.create(campaignBody).catch((e: unknown) => e);
      expect(err, String(status)).toBeInstanceOf(Class);
      expect(err).toMatchObject({ status, code, message: `says ${status}`, requestId: `req_${status}`, issues: [{ path: 'name', message: 'bad' }] });
      expect((err as APIError).body).toMatchObject({ success: false, code });
    }
  });

  it('retry 5xx and 429 (Retry-After 0 here) but never a 409', async () => {
    const flaky = client((_, n) => (n < 3 ? apiError(n === 1 ? 503 : 429, 'x', 'later', {}, { 'retry-after': '0' }) : ok({ id: 'cmp_1' }, 201)));
    expect(await flaky.c.campaigns.create(campaignBody)).toEqual({ id: 'cmp_1' });
    expect(flaky.calls).toHaveLength(3);
    expect(new Set(flaky.calls.map((r) => r.headers.get('idempotency-key'))).size).toBe(1);
    const conflict = client(() => apiError(409, 'conflict', 'Campaign name already exists'));
    await expect(conflict.c.campaigns.create(campaignBody)).rejects.toBeInstanceOf(ConflictError);
    expect(conflict.calls).toHaveLength(1);
  });

  it('call the fetch as fetch(url, init), with an init of its own for each attempt', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      seen.push({ url, headers: { ...headers } });
      // A fetch may change what it is given: the retry still sends what the SDK meant to.
      delete headers.authorization;
      headers['idempotency-key'] = 'changed';
      return seen.length === 1 ? apiError(503, 'x', 'later', {}, { 'retry-after': '0' }) : ok({ id: 'cmp_1' }, 201);
    };
    const c = createClient({ baseUrl: 'http://api.test', token: 'tok', uuid: UUID, fetch });
    await c.campaigns.create(campaignBody);
    await c.campaigns.create(campaignBody);
    expect(seen.map((s) => s.url)).toEqual(Array(3).fill(`http://api.test/agency/createCampaign?uuid=${UUID}`));
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer tok', 'Bearer tok', 'Bearer tok']);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys).not.toContain('changed');
  });

  it('take maxRetries from the client and from the call', async () => {
    const failing = () => apiError(500, 'internal_error', 'boom', {}, { 'retry-after': '0' });
    const a = client(failing, { maxRetries: 1 });
    await expect(a.c.reports.get()).rejects.toBeInstanceOf(InternalServerError);
    expect(a.calls).toHaveLength(2);
    const b = client(failing, { maxRetries: 1 });
    await expect(b.c.reports.get({ maxRetries: 3 })).rejects.toBeInstanceOf(InternalServerError);
    expect(b.calls).toHaveLength(4);
    const d = client(failing);
    await expect(d.c.reports.get()).rejects.toBeInstanceOf(InternalServerError);
    expect(d.calls).toHaveLength(3);
  });

  it('take the timeout from the client and from the call', async () => {
    const h = hangingFetch();
    const c = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: h.fetch, timeout: 5, maxRetries: 0 });
    await expect(c.reports.get()).rejects.toBeInstanceOf(APITimeoutError);
    const slow = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: h.fetch, maxRetries: 0 });
    const err = await slow.reports.get({ timeout: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toContain('after 5 ms');
  });

  it('abort with an AbortSignal', async () => {
    const h = hangingFetch();
    const c = createClient({ baseUrl: 'http://api.test', token: 't', uuid: UUID, fetch: h.fetch });
    const controller = new AbortController();
    const pending = c.campaigns.list(undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
  });

  it('pass the idempotency key given for a call', async () => {
    const { c, calls } = client(() => ok({}, 201));
    await c.orders.add(orderBody, { idempotencyKey: 'import-7-ORD-1' });
    expect(calls[0]?.headers.get('idempotency-key')).toBe('import-7-ORD-1');
  });

  it('hand every successful answer to validateResponse, whose throw rejects the call', async () => {
    const seen: unknown[] = [];
    const { c } = client(() => ok({ id: 'cmp_1' }, 201), {
      validateResponse: (answer) => {
        seen.push(answer);
        if (answer.operationId === 'getCampaign') throw new EngageError('does not match');
      },
    });
    await c.campaigns.create(campaignBody);
    expect(seen).toEqual([{ operationId: 'createCampaign', status: 201, body: { success: true, message: 'OK', data: { id: 'cmp_1' } } }]);
    await expect(c.campaigns.get('cmp_1')).rejects.toThrow('does not match');
  });

  it('reject a success answer that is not JSON with an EngageError saying so', async () => {
    const { c } = client(() => new Response('<html>captive portal</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const err = await c.reports.get().catch((e: unknown) => e);
    expect(EngageError.is(err)).toBe(true);
    expect((err as Error).message).toBe('The answer to reportingCampaign is not JSON: is baseUrl the engagekit API?');
  });

  it('reject bad arguments without sending anything', async () => {
    const { c, calls } = client(() => ok({}));
    await expect(c.campaigns.get('')).rejects.toThrow(/needs a campaign id/);
    await expect(c.orders.update('', { company_id: 'ACME' })).rejects.toThrow(/company_order_id/);
    await expect(c.reports.get({ timeout: -1 })).rejects.toThrow(/timeout must be/);
    await expect(c.reports.get({ maxRetries: 1.5 })).rejects.toThrow(/maxRetries must be/);
    expect(calls).toHaveLength(0);
  });

  it('reject a request that cannot be built with an EngageError naming the cause, sending and retrying nothing', async () => {
    const { c, calls } = client(() => ok([], 200, { pagination: { total: 0, page: 1, limit: 10, totalPages: 0 } }));
    const nested = { limit: 5, filter: { status: { in: 'running' } } } as unknown as { limit: number };
    const query = await c.campaigns.list(nested).catch((e: unknown) => e);
    expect(EngageError.is(query) && !APIConnectionError.is(query)).toBe(true);
    expect((query as Error).message).toMatch(/^Could not build the request, so nothing was sent: Deeply-nested arrays\/objects/);
    const key = await c.orders.add(orderBody, { idempotencyKey: 'import-7\r\nx-admin: 1' }).catch((e: unknown) => e);
    expect(EngageError.is(key) && !APIConnectionError.is(key)).toBe(true);
    expect((key as Error).message).toMatch(/^Could not build the request, so nothing was sent: .*invalid header value/s);
    const header = await c.reports.get({ headers: { 'x-team': 'a\nb' } }).catch((e: unknown) => e);
    expect(EngageError.is(header) && !APIConnectionError.is(header)).toBe(true);
    expect((header as Error).message).toMatch(/^Could not build the request, so nothing was sent: /);
    expect(calls).toHaveLength(0);
  });
});

describe('createClient', () => {
  it('says what is wrong with its options', () => {
    const base = { baseUrl: 'https://api.example.com', token: 't', uuid: UUID };
    const attempts: [unknown, RegExp][] = [
      [{ ...base, baseUrl: 'api.example.com' }, /baseUrl must be an absolute http\(s\) URL/],
      [{ ...base, baseUrl: undefined }, /baseUrl/],
      [{ ...base, orderBaseUrl: 'ftp://x' }, /orderBaseUrl/],
      [{ ...base, token: '' }, /token is required/],
      [{ ...base, uuid: undefined }, /uuid is required/],
      [{ ...base, maxRetries: -1 }, /maxRetries must be a whole number/],
      [{ ...base, timeout: 0 }, /timeout must be/],
      [{ ...base, fetch: 'fetch' }, /fetch must be a function/],
    ];
    for (const [options, message] of attempts) {
      expect(() => createClient(options as Parameters<typeof createClient>[0])).toThrow(message);
      expect(() => createClient(options as Parameters<typeof createClient>[0])).toThrow(EngageError);
    }
  });

  it('sends the resource calls through client.api, whose middleware sees them', async () => {
    const { c } = client((req) => ok({ id: 'x', path: req.url.pathname }, req.method === 'POST' ? 201 : 200), { orderBaseUrl: 'http://orders.test' });
    const seen: string[] = [];
    const middleware = {
      onRequest({ request, schemaPath }: { request: Request; schemaPath: string }) {
        seen.push(`${request.method} ${schemaPath}`);
        request.headers.set('x-trace', 'mw');
        return request;
      },
    };
    c.api.agency.use(middleware);
    c.api.orders.use(middleware);
    await c.campaigns.get('cmp_1');
    await c.orders.add(orderBody);
    await c.webhookEndpoints.get('wh_1');
    expect(seen).toEqual(['GET /agency/getCampaign/{id}', 'POST /api/order/addOrder', 'GET /api/v2/companies/{uuid}/webhooks/{id}']);
  });

  it('makes each retry a request of its own, with the same body and Idempotency-Key', async () => {
    const requests: Request[] = [];
    const { c, calls } = client((_, n) => (n === 1 ? apiError(503, 'x', 'later', {}, { 'retry-after': '0' }) : ok({ id: 'cmp_1' }, 201)));
    c.api.agency.use({
      onRequest({ request }) {
        requests.push(request);
      },
    });
    await c.campaigns.create(campaignBody, { headers: { 'x-team': 'growth' } });
    expect(requests).toHaveLength(2);
    expect(requests[0]).not.toBe(requests[1]);
    expect(calls.map((r) => JSON.parse(r.body))).toEqual([campaignBody, campaignBody]);
    expect(calls.map((r) => r.headers.get('x-team'))).toEqual(['growth', 'growth']);
    expect(calls[0]?.headers.get('idempotency-key')).toBe(calls[1]?.headers.get('idempotency-key'));
  });

  it('rejects an empty successful answer with an EngageError saying it is not JSON, without retrying', async () => {
    const { c, calls } = client(() => new Response('', { status: 200 }));
    await expect(c.reports.get()).rejects.toThrow('The answer to reportingCampaign is not JSON: is baseUrl the engagekit API?');
    const html = client(() => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    await expect(html.c.campaigns.get('cmp_1')).rejects.toBeInstanceOf(EngageError);
    expect([calls.length, html.calls.length]).toEqual([1, 1]);
  });

  it('keeps the low-level openapi-fetch clients reachable, with auth and retries', async () => {
    const { c, calls } = client((_, n) => (n === 1 ? apiError(502, 'x', 'gateway', {}, { 'retry-after': '0' }) : ok([{ id: 'wh_1' }])), {
      orderBaseUrl: 'http://orders.test',
    });
    const { data, error, response } = await c.api.agency.GET('/api/v2/companies/{uuid}/webhooks', {
      params: { path: { uuid: UUID } },
      headers: { authorization: 'Bearer admin-token' },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.data).toEqual([{ id: 'wh_1' }]);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get('authorization')).toBe('Bearer admin-token');
    const raw = await c.api.orders.POST('/api/order/addOrder', { body: orderBody });
    expect(calls[2]?.url.host).toBe('orders.test');
    expect(calls[2]?.headers.get('authorization')).toBe('Bearer tok');
    expect(raw.response.ok).toBe(true);
  });
});
