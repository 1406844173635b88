/** The in-process mock through `mock.fetch`: the ready company, seeds, reset, state and sample data. */

import { readFileSync } from 'node:fs';
import { createManualClock, createTokenService, hashToken } from '@engagekit/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readyCompanyToken } from '../src/internal/token.ts';
import { DEFAULT_COMPANY, MockDataError, setupMockApi } from '../src/node.ts';
import { campaignBody, orderBody } from './helpers.ts';

const mocks: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
});
function mockWith(options: Parameters<typeof setupMockApi>[0] = {}) {
  const mock = setupMockApi(options);
  mocks.push(mock);
  return mock;
}

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** Calls the mock as the company (JSON in and out). */
function client(mock: ReturnType<typeof setupMockApi>) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await mock.fetch(path, {
      method,
      headers: { authorization: `Bearer ${mock.company.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> & { data: Record<string, unknown> } };
  };
}

describe('the ready company', () => {
  it('exists with a working token as soon as setupMockApi returns, with nothing else in it', async () => {
    const mock = mockWith();
    expect(mock.company).toMatchObject({ uuid: DEFAULT_COMPANY.uuid, company_id: DEFAULT_COMPANY.company_id });
    const call = client(mock);
    const list = await call('GET', `/agency/getCampaignData?uuid=${mock.company.uuid}`);
    expect(list.status).toBe(200);
    expect(list.json.pagination).toMatchObject({ total: 0 });
    const state = await mock.state();
    expect(state).toMatchObject({ orders: [], campaigns: [], customers: [], templates: [], webhooks: [], deliveries: [], events: [] });
    const companies = await mock.fetch('/api/v2/companies', { headers: { authorization: `Bearer ${mock.adminToken}` } });
    expect(((await companies.json()) as { data: { uuid: string }[] }).data.map((c) => c.uuid)).toEqual([mock.company.uuid]);
  });

  it('signs its token the same on every start, with claims the token service accepts', async () => {
    const secret = 'a-jwt-secret-of-at-least-32-characters!';
    expect(readyCompanyToken(secret, 'uuid-1')).toBe(readyCompanyToken(secret, 'uuid-1'));
    expect(decode(readyCompanyToken(secret, 'uuid-1'))).toMatchObject({ sub: 'uuid-1', scope: 'agency orders', iss: 'engagekit', aud: 'engagekit-api' });
    await expect(createTokenService(secret, hashToken('x'.repeat(16))).verify(readyCompanyToken(secret, 'uuid-1'), new Date())).resolves.toMatchObject({
      companyUuid: 'uuid-1',
      scopes: ['agency', 'orders'],
    });
  });

  it('refuses its token once the company’s tokens are revoked, and gives it back working after reset()', async () => {
    const mock = mockWith();
    const call = client(mock);
    const admin = { authorization: `Bearer ${mock.adminToken}` };
    const revoked = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/tokens`, { method: 'DELETE', headers: admin });
    expect(revoked.status).toBe(200);
    const refused = await call('GET', `/agency/getCampaignData?uuid=${mock.company.uuid}`);
    expect(refused.status).toBe(401);
    expect(refused.json.message).toContain('the token has been revoked');
    // A token issued afterwards works at once.
    const issued = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/tokens`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{}',
    });
    const { token } = ((await issued.json()) as { data: { token: string } }).data;
    expect((await mock.fetch(`/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await mock.reset();
    expect((await call('GET', `/agency/getCampaignData?uuid=${mock.company.uuid}`)).status).toBe(200);
  });

  it('takes another company, admin token and JWT secret when asked', async () => {
    const mock = mockWith({
      company: { uuid: '11111111-2222-4333-8444-555555555555', company_id: 'ACME1', name: 'Acme' },
      adminToken: 'another-admin-token-123',
      jwtSecret: 'another-jwt-secret-0123456789abcdefgh',
    });
    expect((await client(mock)('POST', '/api/order/addOrder', orderBody('ACME1', 'O-1'))).status).toBe(201);
    const got = await mock.fetch(`/api/v2/companies/${mock.company.uuid}`, { headers: { authorization: 'Bearer another-admin-token-123' } });
    expect(((await got.json()) as { data: { name: string } }).data.name).toBe('Acme');
    expect((await mock.fetch('/api/v2/companies', { headers: { authorization: 'Bearer engagekit-mock-admin-token' } })).status).toBe(401);
  });

  it('keeps a company uuid given in upper case in lower case, and finds it by either', async () => {
    const upper = '53D1BCD3-AAF0-45E1-9298-5395B6A27B61';
    const mock = mockWith({ company: { uuid: upper } });
    expect(mock.company.uuid).toBe(upper.toLowerCase());
    const call = client(mock);
    for (const uuid of [upper, upper.toLowerCase()]) {
      expect((await call('GET', `/agency/getCustomers?uuid=${uuid}`)).status, uuid).toBe(200);
      expect((await call('GET', `/${uuid}/agency/getCampaignData`)).status, uuid).toBe(200);
      expect((await mock.state(uuid)).company.uuid).toBe(upper.toLowerCase());
    }
  });

  it('refuses a token signed with another key, as the server does', async () => {
    const mock = mockWith();
    const res = await mock.fetch(`/agency/sync?uuid=${mock.company.uuid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readyCompanyToken('some-other-secret-0123456789abcdefghij', mock.company.uuid)}` },
    });
    expect(res.status).toBe(401);
  });
});

describe('seed and reset', () => {
  async function script(mock: ReturnType<typeof setupMockApi>) {
    const call = client(mock);
    const order = await call('POST', '/api/order/addOrder', orderBody(mock.company.company_id, 'ORD-1'));
    const campaign = await call('POST', `/agency/createCampaign?uuid=${mock.company.uuid}`, campaignBody('spring'));
    return { order: order.json.data.id, campaign: campaign.json.data.id, requestId: order.headers.get('x-request-id') };
  }

  it('makes the same ids for the same seed, other ids for another seed, and the same again after reset()', async () => {
    const a = mockWith({ seed: 42 });
    const b = mockWith({ seed: 42 });
    const c = mockWith({ seed: 43 });
    const first = await script(a);
    expect(await script(b)).toEqual(first);
    expect((await script(c)).order).not.toBe(first.order);
    await a.reset();
    expect(await script(a)).toEqual(first);
    await a.reset({ seed: 43 });
    const c2 = mockWith({ seed: 43 });
    expect(await script(a)).toEqual(await script(c2));
  });

  it('empties everything on reset() but keeps the company and its token, and clears faults', async () => {
    const mock = mockWith();
    const call = client(mock);
    await call('POST', '/api/order/addOrder', orderBody(mock.company.company_id, 'ORD-1'));
    await call('POST', `/agency/createCampaign?uuid=${mock.company.uuid}`, campaignBody('spring'));
    mock.fail('getCampaignData', { status: 500, times: Number.POSITIVE_INFINITY });
    const token = mock.company.token;
    await mock.reset();
    expect(mock.company.token).toBe(token);
    expect(mock.faults()).toEqual([]);
    const list = await call('GET', `/agency/getCampaignData?uuid=${mock.company.uuid}`);
    expect(list.status).toBe(200);
    expect(list.json.pagination).toMatchObject({ total: 0 });
    expect((await mock.state()).orders).toEqual([]);
    // The same campaign name is free again.
    expect((await call('POST', `/agency/createCampaign?uuid=${mock.company.uuid}`, campaignBody('spring'))).status).toBe(201);
  });
  it('caps webhook endpoints a company may have at maxWebhookEndpoints, counting the one its webhooks option made', async () => {
    const mock = mockWith({ maxWebhookEndpoints: 2, webhooks: {} });
    const create = (url: string) =>
      mock.fetch(`/api/v2/companies/${mock.company.uuid}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    expect((await create('https://hooks.partner.example/one')).status).toBe(201);
    const over = await create('https://hooks.partner.example/two');
    expect(over.status).toBe(409);
    expect(((await over.json()) as { code: string }).code).toBe('too_many_endpoints');
  });
  it('answers after reset() and restore() as a new mock would: companies made since are unknown, rate limits start afresh', async () => {
    const mock = mockWith({ rateLimitPerMinute: 2 });
    const snap = mock.snapshot();
    const made = await mock.fetch('/api/v2/companies', {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Other', company_id: 'OTHER1' }),
    });
    const { uuid } = ((await made.json()) as { data: { uuid: string } }).data;
    const issued = await mock.fetch(`/api/v2/companies/${uuid}/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['agency'] }),
    });
    const other = { uuid, token: ((await issued.json()) as { data: { token: string } }).data.token };
    const customers = (uuid: string, token: string) => mock.fetch(`/agency/getCustomers?uuid=${uuid}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await customers(other.uuid, other.token)).status).toBe(200);
    const ownStatuses = async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await customers(mock.company.uuid, mock.company.token)).status);
      return statuses;
    };
    expect(await ownStatuses()).toEqual([200, 200, 429]);
    for (const back of [() => mock.reset(), () => mock.restore(snap)]) {
      await back();
      expect((await customers(other.uuid, other.token)).status).toBe(404);
      expect(await ownStatuses()).toEqual([200, 200, 429]);
    }
  });
});

describe('state()', () => {
  it('shows the company’s orders, campaigns, customers, templates and events as the API shows them', async () => {
    // A second between the writes: events of one millisecond are listed by id, not in the order they happened.
    const mock = mockWith({ clock: 'manual' });
    const call = client(mock);
    const cid = mock.company.company_id;
    await call('POST', '/api/order/addOrder', orderBody(cid, 'ORD-1'));
    await mock.clock.advance('1s');
    await call('POST', '/api/order/addOrder', orderBody(cid, 'ORD-2', { phoneNumber: '+919800000002', firstName: 'Ravi', totalAmount: 10 }));
    await mock.clock.advance('1s');
    await call('PUT', '/api/order/updateOrder/ORD-1', { company_id: cid, companyOrderStatus: 'Shipped' });
    await call('POST', `/agency/createCampaign?uuid=${mock.company.uuid}`, campaignBody('spring'));
    await call('POST', `/agency/template?uuid=${mock.company.uuid}`, { template_name: 'welcome', phone_number: '6363978748', wam_id: 'w1' });
    const state = await mock.state();
    expect(state.orders.map((o) => [o.company_order_id, o.companyOrderStatus, o.version])).toEqual([
      ['ORD-1', 'Shipped', 2],
      ['ORD-2', null, 1],
    ]);
    expect(state.orders[0]).not.toHaveProperty('company_uuid');
    expect(state.campaigns.map((c) => [c.name, c.uuid, c.status])).toEqual([['spring', mock.company.uuid, 'scheduled']]);
    expect(state.customers.map((c) => c.phoneNumber)).toEqual(['+919800000001', '+919800000002']);
    expect(state.templates).toEqual([expect.objectContaining({ template_name: 'welcome', status: 'submitted' })]);
    expect(state.events.map((e) => [e.type, e.data.order.company_order_id])).toEqual([
      ['order.created', 'ORD-1'],
      ['order.created', 'ORD-2'],
      ['order.updated', 'ORD-1'],
    ]);
  });

  it('reads any company the mock holds, and says so when it holds none by that uuid', async () => {
    const mock = mockWith();
    const made = await mock.fetch('/api/v2/companies', {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Other', company_id: 'OTHER1' }),
    });
    const uuid = ((await made.json()) as { data: { uuid: string } }).data.uuid;
    expect((await mock.state(uuid)).company.company_id).toBe('OTHER1');
    await expect(mock.state('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/no company 00000000/);
  });
});

describe('sample data', () => {
  const data = {
    templates: [{ template_name: 'welcome', phone_number: '6363978748', wam_id: 'w1' }],
    customers: [{ phoneNumber: '+14155550100', firstName: 'Imported' }],
    orders: [{ company_order_id: 'S-1', totalAmount: 5, firstName: 'Sam', phoneNumber: '+14155550101', postalCode: '1', streetAddress1: 'x' }],
    campaigns: [campaignBody('welcome-wave')],
  };

  it('loads through the API at start and again after every reset', async () => {
    const mock = mockWith({ seed: 5, data });
    await mock.ready;
    const first = await mock.state();
    expect(first.orders.map((o) => o.company_order_id)).toEqual(['S-1']);
    expect(first.customers.map((c) => c.phoneNumber).sort()).toEqual(['+14155550100', '+14155550101']);
    expect(first.campaigns.map((c) => c.name)).toEqual(['welcome-wave']);
    expect(first.templates).toHaveLength(1);
    await client(mock)('POST', '/api/order/addOrder', orderBody(mock.company.company_id, 'EXTRA'));
    // The journal holds what the code under test sent, never the loading of the data.
    expect(mock.requests().map((r) => r.operationId)).toEqual(['addOrder']);
    await mock.reset();
    const again = await mock.state();
    expect(again.orders.map((o) => o.id)).toEqual(first.orders.map((o) => o.id));
    expect(mock.requests()).toEqual([]);
    await client(mock)('POST', '/api/order/addOrder', orderBody(mock.company.company_id, 'AFTER'));
    expect(mock.requests().map((r) => r.operationId)).toEqual(['addOrder']);
  });

  it('makes the first call wait until the data is in', async () => {
    const mock = mockWith({ data });
    // No `await mock.ready`: the call itself waits.
    const res = await client(mock)('GET', `/agency/getCampaignData?uuid=${mock.company.uuid}`);
    expect(res.json.pagination).toMatchObject({ total: 1 });
  });

  it('refuses data of the wrong shape at once, naming each place in it and the problem', () => {
    const bad = { orders: [{ company_order_id: 'BAD', totalAmount: -1, firstName: 'x', phoneNumber: 'nope', postalCode: '1', streetAddress1: 'x' }] };
    expect(() => setupMockApi({ data: bad })).toThrow(MockDataError);
    expect(() => setupMockApi({ data: bad })).toThrow(
      /^The data option is not valid sample data:\n {2}orders\[0\]\.totalAmount: .*\n {2}orders\[0\]\.phoneNumber: must be an E\.164/,
    );
    expect(() => setupMockApi({ data: { templates: {} } as never })).toThrow(/templates: /);
  });

  it('rejects ready with the API’s own words when the API refuses the data', async () => {
    const mock = mockWith({ data: { campaigns: [campaignBody('twice'), campaignBody('twice')] } });
    const err = await mock.ready.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MockDataError);
    expect((err as Error).message).toMatch(/campaigns\[1\] answered 409: /);
    await expect(mock.seed({ orders: [{ company_order_id: 'X' }] } as never)).rejects.toThrow(/^seed\(\) data is not valid sample data:/);
  });

  it('publishes the shape of sample data as JSON Schema', async () => {
    const schema = JSON.parse(readFileSync(new URL('../dist/fixtures.schema.json', import.meta.url), 'utf8'));
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false });
    expect(Object.keys(schema.properties)).toEqual(['$schema', 'templates', 'customers', 'orders', 'campaigns']);
    expect(schema.properties.orders.items.required).not.toContain('company_id');
  });

  it('loads more on demand with seed(data), answering with what was created', async () => {
    const mock = mockWith();
    const loaded = await mock.seed({ orders: data.orders, campaigns: data.campaigns });
    expect(loaded.orders[0]).toMatchObject({ company_order_id: 'S-1', company_id: mock.company.company_id });
    expect(loaded.campaigns[0]?.name).toBe('welcome-wave');
  });
});

describe('limits and targets', () => {
  it('refuses at once a webhooks.url that no endpoint could be registered for', () => {
    expect(() => setupMockApi({ webhooks: { url: 'ftp://127.0.0.1/hook' } })).toThrow(/^webhooks\.url must be an http\(s\) URL \(given "ftp:/);
    expect(() => setupMockApi({ webhooks: { url: 'http://user:pw@127.0.0.1/hook' } })).toThrow(/webhooks\.url must not carry credentials/);
    expect(() => setupMockApi({ webhooks: { url: 'not a url' } })).toThrow(/webhooks\.url must be an absolute http\(s\) URL/);
  });
  it('has no rate limit unless asked, and limits per company when asked', async () => {
    const open = mockWith();
    for (let i = 0; i < 30; i++) expect((await client(open)('GET', `/agency/getCustomers?uuid=${open.company.uuid}`)).status).toBe(200);
    const limited = mockWith({ rateLimitPerMinute: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await client(limited)('GET', `/agency/getCustomers?uuid=${limited.company.uuid}`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('accepts private and loopback webhook targets', async () => {
    const mock = mockWith();
    const res = await mock.fetch(`/api/v2/companies/${mock.company.uuid}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
    });
    expect(res.status).toBe(201);
  });

  it('serves a base URL with a path prefix, and takes bare paths under it', async () => {
    const mock = mockWith({ baseUrl: 'https://api.example.test/engage/v1' });
    const headers = { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' };
    const full = await mock.fetch(`https://api.example.test/engage/v1/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers });
    expect(full.status).toBe(200);
    const bare = await mock.fetch(`/api/order/addOrder`, { method: 'POST', headers, body: JSON.stringify(orderBody(mock.company.company_id, 'P-1')) });
    expect(bare.status).toBe(201);
  });

  it('follows the signal of an init as fetch does: rejecting with its reason, sending nothing once aborted', async () => {
    const mock = mockWith();
    const headers = { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' };
    const post = (signal: AbortSignal, name = 'signalled') =>
      mock.fetch(`/agency/createCampaign?uuid=${mock.company.uuid}`, { method: 'POST', headers, body: JSON.stringify(campaignBody(name)), signal });

    const live = new AbortController();
    const answered = await post(live.signal);
    expect(answered.status).toBe(201);
    live.abort();
    expect(((await answered.json()) as { data: { name: string } }).data.name).toBe('signalled');

    const late = new AbortController();
    const pending = post(late.signal, 'aborted in flight');
    const reason = new Error('caller gave up');
    late.abort(reason);
    await expect(pending).rejects.toBe(reason);

    await expect(post(AbortSignal.abort(), 'never sent')).rejects.toMatchObject({ name: 'AbortError' });
    // The first call, and the one aborted while the app served it: as a server does after its client hangs up, the mock finishes it.
    await vi.waitFor(async () => expect((await mock.state()).campaigns.map((c) => c.name)).toEqual(['signalled', 'aborted in flight']));
  });

  it('follows the signal of a Request it is given, as fetch does', async () => {
    const mock = mockWith();
    const controller = new AbortController();
    const request = new Request(`${mock.baseUrl}/agency/createCampaign?uuid=${mock.company.uuid}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(campaignBody('from a Request')),
      signal: controller.signal,
    });
    const pending = mock.fetch(request);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers with Responses of the platform, through fetch and handle alike', async () => {
    const mock = mockWith({ baseUrl: 'https://api.example.test/v1' });
    const answers = [
      await mock.fetch('/api/v2/health'),
      await mock.fetch('/agency/getCampaignData'),
      await mock.handle(new Request('https://api.example.test/v1/api/v2/health')),
      await mock.fetch('/__mock/faults'),
    ];
    for (const res of answers) expect(Object.getPrototypeOf(res)).toBe(Response.prototype);
    expect(answers.map((r) => r.status)).toEqual([200, 401, 200, 200]);
  });

  it('uses the clock it is given for what it writes', async () => {
    const clock = createManualClock(new Date('2026-03-01T12:00:00.000Z'));
    const mock = mockWith({ clock });
    const res = await client(mock)('POST', '/api/order/addOrder', orderBody(mock.company.company_id, 'C-1'));
    expect(res.json.data.created_at).toBe('2026-03-01T12:00:00.000Z');
  });
});

describe('campaigns', () => {
  it('runs a due campaign on the reference server’s scheduler: a message per customer, counted in the report', async () => {
    const clock = createManualClock(new Date('2026-03-01T12:00:00.000Z'));
    const mock = mockWith({ clock });
    // The simulated channel fails 5% of messages by their key, and without a seed the keys are random:
    // every number delivers here, so the run cannot end failed by chance.
    mock.channel.outcome('*', 'delivered');
    const call = client(mock);
    for (const [id, phoneNumber] of [
      ['C-1', '+919800000001'],
      ['C-2', '+919800000002'],
    ] as const) {
      await call('POST', '/api/order/addOrder', { ...orderBody(mock.company.company_id, id), phoneNumber });
    }
    const created = await call('POST', `/agency/createCampaign?uuid=${mock.company.uuid}`, { ...campaignBody('due'), schedule: '2026-03-01T12:00:00Z' });
    expect(created.json.data.status).toBe('scheduled');
    // The scheduler looks for due campaigns every second (a real timer); the wait ends once the run has
    // completed, and its limit is one load cannot reach.
    await vi.waitFor(
      async () => expect((await call('GET', `/agency/getCampaign/${created.json.data.id}?uuid=${mock.company.uuid}`)).json.data.status).toBe('completed'),
      { timeout: 20_000, interval: 100 },
    );
    const report = await call('GET', `/agency/reportingCampaign?uuid=${mock.company.uuid}`);
    expect(report.json.data.messages).toMatchObject({ total: 2 });
  });
});
