import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createSeededIds } from '../../runtime/src/ids.ts';
import { createLeases } from '../../runtime/src/leases.ts';
import { createMemoryStore } from '../../runtime/src/store/memory/store.ts';
import { describeApiConformance } from '../../runtime/test/api-conformance.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

describeApiConformance('app in-process on the memory store', async () => {
  const { fetch } = await inProcessApp();
  return { fetch, adminToken: TEST_ADMIN_TOKEN };
});

async function companyWithToken(fetch: (p: string, i?: RequestInit) => Promise<Response>, body: Record<string, unknown> = {}) {
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const c = await (await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme', ...body }) })).json();
  const t = await (await fetch(`/api/v2/companies/${c.data.uuid}/tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ expires_in: 60 }) })).json();
  return { uuid: c.data.uuid as string, token: t.data.token as string };
}

describe('company tokens', () => {
  it('answer 401 once expired', async () => {
    const { fetch, clock } = await inProcessApp();
    const { uuid, token } = await companyWithToken(fetch);
    const get = () => fetch(`/agency/getCampaignData?uuid=${uuid}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    clock.advance(61_000);
    const r = await get();
    expect(r.status).toBe(401);
    expect((await r.json()).message).toMatch(/expired/);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the limit, per company, and recovers', async () => {
    const setup = await inProcessApp();
    const a = await companyWithToken(setup.fetch);
    const b = await companyWithToken(setup.fetch, { name: 'Other' });
    const { fetch, clock } = await inProcessApp({ store: setup.store, config: { rateLimitPerMinute: 3 } });
    const get = (c: { uuid: string; token: string }) => fetch(`/agency/getCampaignData?uuid=${c.uuid}`, { headers: { authorization: `Bearer ${c.token}` } });
    for (let i = 0; i < 3; i++) expect((await get(a)).status).toBe(200);
    const limited = await get(a);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(await limited.json()).toMatchObject({ success: false, code: 'rate_limited' });
    expect((await get(b)).status).toBe(200);
    clock.advance(20_000);
    expect((await get(a)).status).toBe(200);
  });
});

describe('bindings a request brings', () => {
  it('serve that request as a new app on their store would: its records, its ids, no cached company, full rate limits', async () => {
    const first = await inProcessApp({ config: { rateLimitPerMinute: 3 } });
    const list = (fetch: typeof first.fetch, c: { uuid: string; token: string }) =>
      fetch(`/agency/getCampaignData?uuid=${c.uuid}`, { headers: { authorization: `Bearer ${c.token}` } });
    const statuses = async (fetch: typeof first.fetch, c: { uuid: string; token: string }, n: number) => {
      const seen = [];
      for (let i = 0; i < n; i++) seen.push((await list(fetch, c)).status);
      return seen;
    };
    const a = await companyWithToken(first.fetch);
    expect(await statuses(first.fetch, a, 4)).toEqual([200, 200, 200, 429]);

    const next = createMemoryStore();
    const bindings = { store: next, ids: createSeededIds(7), leases: createLeases({ store: next, clock: first.clock }) };
    const fetch = (path: string, init?: RequestInit) => Promise.resolve(first.app.request(path, init, bindings));
    // The company read (and cached) through the first store is unknown to the next one.
    expect((await list(fetch, a)).status).toBe(404);
    const b = await companyWithToken(fetch);
    expect(await next.getCompany(b.uuid)).toMatchObject({ name: 'Acme' });
    expect(await first.store.getCompany(b.uuid)).toBeNull();
    const created = await (
      await fetch(`/agency/createCampaign?uuid=${b.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'spring', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } }),
      })
    ).json();
    // Named by the ids given.
    const expected = createSeededIds(7);
    expect(Array.from({ length: 20 }, () => expected.newId('cmp'))).toContain(created.data.id);
    // The token's bucket started full: the create, two reads, then 429.
    expect(await statuses(fetch, b, 3)).toEqual([200, 200, 429]);
    // A request that brings none is still served from the app's own store, with its own limits.
    expect(await statuses(first.fetch, a, 1)).toEqual([429]);
    expect((await list(first.fetch, b)).status).toBe(404);
  });
});

describe('webhook targets', () => {
  it('refuses loopback, private, link-local and metadata addresses unless private targets are allowed', async () => {
    const { fetch } = await inProcessApp();
    const { uuid } = await companyWithToken(fetch);
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://[fd00::1]/x',
    ]) {
      const r = await fetch(`/api/v2/companies/${uuid}/webhooks`, { method: 'POST', headers: admin, body: JSON.stringify({ url }) });
      expect(r.status, url).toBe(400);
      expect((await r.json()).issues[0].path).toBe('url');
    }
    const allowed = await inProcessApp({ config: { webhookAllowPrivate: true } });
    const c2 = await companyWithToken(allowed.fetch);
    const ok = await allowed.fetch(`/api/v2/companies/${c2.uuid}/webhooks`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ url: 'http://127.0.0.1:8080/x' }),
    });
    expect(ok.status).toBe(201);
  });
});

describe('errors', () => {
  it('answer 500 without internals when the store fails, and log the cause', async () => {
    const logged: object[] = [];
    const failing = await inProcessApp({ logger: { info() {}, warn() {}, error: (o) => logged.push(o) } });
    failing.store.listCompanies = async () => {
      throw new Error('connection reset by peer at 10.0.0.5');
    };
    const r = await failing.fetch('/api/v2/companies', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect(r.status).toBe(500);
    const body = await r.json();
    expect(body).toMatchObject({ success: false, code: 'internal_error', message: 'Something went wrong on the backend' });
    expect(JSON.stringify(body)).not.toContain('10.0.0.5');
    expect(String((logged[0] as { err: Error }).err.message)).toContain('10.0.0.5');
  });
});

describe('routing', () => {
  it('runs middleware mounted around the app for every operation, as for any Hono route', async () => {
    const { app } = await inProcessApp();
    const seen: string[] = [];
    const outer = new Hono();
    outer.use(async (c, next) => {
      await next();
      seen.push(`${c.req.method} ${c.req.path} ${c.res.status}`);
      c.header('x-outer', 'yes');
    });
    outer.route('/', app);
    const health = await outer.request('/api/v2/health');
    const order = await outer.request('/api/order/addOrder', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const page = await outer.request('/openapi.json');
    expect([health, order, page].map((r) => r.headers.get('x-outer'))).toEqual(['yes', 'yes', 'yes']);
    expect(seen).toEqual(['GET /api/v2/health 200', 'POST /api/order/addOrder 401', 'GET /openapi.json 200']);
  });

  it('answers HEAD as GET, a trailing slash with 404, and a wrong method with 405 and Allow', async () => {
    const { fetch } = await inProcessApp();
    const head = await fetch('/api/v2/health', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const slash = await fetch('/api/v2/health/');
    expect(slash.status).toBe(404);
    expect((await slash.json()).message).toBe('No route for GET /api/v2/health/');
    const wrong = await fetch('/agency/sync');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.headers.get('access-control-allow-origin')).toBe('*');
  });
});
