/**
 * The API conformance suite: everything DESIGN.md promises about the wire, driven through a plain
 * fetch function, so the same suite runs on the app in-process, on the real server over HTTP (PGlite
 * and PostgreSQL), and on the mock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleOrder } from './sample-order.ts';

export interface ApiTarget {
  /** Sends a request to the server under test; `path` starts with `/`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  adminToken: string;
}

type Json = Record<string, unknown> & { data?: unknown; issues?: { path: string; message: string }[] };

export function describeApiConformance(name: string, setup: () => Promise<ApiTarget>) {
  describe(`API conformance: ${name}`, () => {
    let t: ApiTarget;
    const call = async (method: string, path: string, opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await t.fetch(path, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let json: Json = {};
      try {
        json = JSON.parse(text) as Json;
      } catch {}
      return { status: res.status, headers: res.headers, json, text };
    };
    const admin = (method: string, path: string, body?: unknown) => call(method, path, { token: t.adminToken, ...(body !== undefined ? { body } : {}) });

    let suffix = '';
    const companies: { uuid: string; company_id: string; token: string }[] = [];
    const makeCompany = async (label: string, scopes?: string[]) => {
      const c = await admin('POST', '/api/v2/companies', { name: `${label} ${suffix}`, company_id: `${label}${suffix}`.toUpperCase().slice(0, 60) });
      expect(c.status, c.text).toBe(201);
      const data = c.json.data as { uuid: string; company_id: string };
      const tok = await admin('POST', `/api/v2/companies/${data.uuid}/tokens`, scopes ? { scopes } : {});
      expect(tok.status, tok.text).toBe(201);
      return { uuid: data.uuid, company_id: data.company_id, token: (tok.json.data as { token: string }).token };
    };
    const order = sampleOrder;
    const campaign = (name: string) => ({
      name,
      schedule_type: 'once',
      schedule: '2030-01-15T10:00:00Z',
      template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
    });

    beforeAll(async () => {
      t = await setup();
      suffix = Math.random().toString(36).slice(2, 10);
      companies.push(await makeCompany('alpha'), await makeCompany('beta'));
    });
    const A = () => companies[0] as { uuid: string; company_id: string; token: string };
    const B = () => companies[1] as { uuid: string; company_id: string; token: string };

    describe('envelopes and plumbing', () => {
      it('answers health and the OpenAPI document without a token', async () => {
        const h = await call('GET', '/api/v2/health');
        expect(h.status).toBe(200);
        expect(h.json).toMatchObject({ success: true, data: { status: 'ok', database: 'ok' } });
        const doc = await call('GET', '/openapi.json');
        expect(doc.status).toBe(200);
        expect(doc.json.openapi).toBe('3.1.0');
        // Health says which API version it serves: the document's, beside the server's own version.
        expect(h.json.data).toMatchObject({ api_version: (doc.json.info as { version: string }).version, version: expect.any(String) });
      });

      it('returns a request id in the header and in error bodies, and keeps a sane one the client sent', async () => {
        const r = await call('GET', `/agency/getCampaign/nope?uuid=${A().uuid}`, { token: A().token, headers: { 'x-request-id': 'client-req-42' } });
        expect(r.status).toBe(404);
        expect(r.headers.get('x-request-id')).toBe('client-req-42');
        expect(r.json.requestId).toBe('client-req-42');
        const s = await call('GET', '/api/v2/health');
        expect(s.headers.get('x-request-id')).toMatch(/^req_/);
      });

      it('tells browsers not to sniff any answer (X-Content-Type-Options: nosniff): successes, errors, the document and preflights', async () => {
        const answers = [
          await call('GET', '/api/v2/health'),
          await call('GET', `/agency/getCustomers?uuid=${A().uuid}`, { token: A().token }),
          await call('POST', '/api/order/addOrder', { token: A().token, body: { company_id: A().company_id } }),
          await call('GET', `/agency/getCustomers?uuid=${A().uuid}`),
          await call('GET', `/agency/getCampaign/nope?uuid=${A().uuid}`, { token: A().token }),
          await call('DELETE', '/api/v2/health'),
          await call('GET', '/no/such/route'),
          await call('GET', '/openapi.json'),
          await call('OPTIONS', '/api/order/addOrder', { headers: { origin: 'https://app.partner.example', 'access-control-request-method': 'POST' } }),
        ];
        expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 401, 404, 405, 404, 200, expect.any(Number)]);
        for (const a of answers) expect(a.headers.get('x-content-type-options')).toBe('nosniff');
      });

      it('answers CORS preflights so browsers may call it with a bearer token', async () => {
        const r = await t.fetch(`/agency/getCampaignData?uuid=${A().uuid}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.partner.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
        expect(r.status).toBeLessThan(300);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
        expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
        const g = await t.fetch('/api/v2/health', { headers: { origin: 'https://app.partner.example' } });
        expect(g.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
      });

      it('answers an unknown route 404 and a wrong method 405, in the error envelope', async () => {
        const r = await call('GET', '/agency/nothing-here');
        expect(r.status).toBe(404);
        expect(r.json).toMatchObject({ success: false, code: 'not_found' });
        const m = await call('DELETE', `/agency/createCampaign?uuid=${A().uuid}`, { token: A().token });
        expect(m.status).toBe(405);
        expect(m.json).toMatchObject({ success: false, code: 'method_not_allowed' });
        expect(m.headers.get('allow')).toBe('POST');
      });

      it('answers malformed JSON 400, a non-JSON body 415 and a body over 1 MB 413', async () => {
        const path = `/agency/createCampaign?uuid=${A().uuid}`;
        const bad = await call('POST', path, { token: A().token, raw: '{"name": ', headers: { 'content-type': 'application/json' } });
        expect(bad.status).toBe(400);
        expect(bad.json).toMatchObject({ success: false, code: 'validation_error' });
        const form = await call('POST', path, { token: A().token, raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        expect(form.status).toBe(415);
        const big = await call('POST', path, {
          token: A().token,
          raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
          headers: { 'content-type': 'application/json' },
        });
        expect(big.status).toBe(413);
        expect(big.json).toMatchObject({ success: false, code: 'payload_too_large' });
      });
    });

    describe('authentication', () => {
      it('answers 401 without a token, with a malformed one, and with a badly signed one', async () => {
        const path = `/agency/getCampaignData?uuid=${A().uuid}`;
        expect((await call('GET', path)).status).toBe(401);
        expect((await call('GET', path, { headers: { authorization: 'Token abc' } })).status).toBe(401);
        expect((await call('GET', path, { token: 'not.a.jwt' })).status).toBe(401);
        const [h, p] = A().token.split('.');
        const forged = await call('GET', path, { token: `${h}.${p}.c2lnbmF0dXJlLW9mLWFub3RoZXIta2V5` });
        expect(forged.status).toBe(401);
        expect(forged.json.code).toBe('unauthorized');
      });

      it('answers 401 to admin calls without the admin token, and with a company token', async () => {
        expect((await call('POST', '/api/v2/companies', { body: { name: 'x' } })).status).toBe(401);
        expect((await call('POST', '/api/v2/companies', { token: A().token, body: { name: 'x' } })).status).toBe(401);
      });

      it('answers 400 for a missing uuid, 404 for an unknown one, 403 for another company’s', async () => {
        const missing = await call('GET', '/agency/getCampaignData', { token: A().token });
        expect(missing.status).toBe(400);
        expect(missing.json.message).toBe('Bad Request: Missing uuid parameter');
        expect(missing.json.issues?.[0]?.path).toBe('uuid');
        const unknown = await call('GET', '/agency/getCampaignData?uuid=00000000-0000-4000-8000-000000000000', { token: A().token });
        expect(unknown.status).toBe(404);
        expect(unknown.json.message).toBe('No company found with the provided uuid');
        const other = await call('GET', `/agency/getCampaignData?uuid=${B().uuid}`, { token: A().token });
        expect(other.status).toBe(403);
        expect(other.json.code).toBe('forbidden');
      });

      it('finds a company by its uuid in upper case: as ?uuid=, as a path prefix and in an admin path', async () => {
        const upper = A().uuid.toUpperCase();
        const customers = await call('GET', `/agency/getCustomers?uuid=${upper}`, { token: A().token });
        expect(customers.status, customers.text).toBe(200);
        const prefixed = await call('GET', `/${upper}/agency/getCampaignData`, { token: A().token });
        expect(prefixed.status, prefixed.text).toBe(200);
        const company = await admin('GET', `/api/v2/companies/${upper}`);
        expect(company.status, company.text).toBe(200);
        expect(company.json.data).toMatchObject({ uuid: A().uuid });
        const hooks = await call('GET', `/api/v2/companies/${upper}/webhooks`, { token: A().token });
        expect(hooks.status, hooks.text).toBe(200);
        // Another company's uuid in upper case is still another company's.
        expect((await call('GET', `/agency/getCustomers?uuid=${B().uuid.toUpperCase()}`, { token: A().token })).status).toBe(403);
      });

      it('answers 403 when the token lacks the scope', async () => {
        const ordersOnly = await admin('POST', `/api/v2/companies/${A().uuid}/tokens`, { scopes: ['orders'] });
        const token = (ordersOnly.json.data as { token: string; scopes: string[] }).token;
        expect((ordersOnly.json.data as { scopes: string[] }).scopes).toEqual(['orders']);
        expect((await call('GET', `/agency/getCampaignData?uuid=${A().uuid}`, { token })).status).toBe(403);
        expect((await call('POST', '/api/order/addOrder', { token, body: order(A().company_id, 'SCOPE-1') })).status).toBe(201);
        expect((await call('GET', `/api/v2/companies/${A().uuid}`, { token })).status).toBe(403);
        const agencyOnly = await admin('POST', `/api/v2/companies/${A().uuid}/tokens`, { scopes: ['agency'] });
        const t2 = (agencyOnly.json.data as { token: string }).token;
        expect((await call('POST', '/api/order/addOrder', { token: t2, body: order(A().company_id, 'SCOPE-2') })).status).toBe(403);
        // Webhooks carry order events: they need the orders scope too, which the default token has.
        const hooks = `/api/v2/companies/${A().uuid}/webhooks`;
        const refused = await call('POST', hooks, { token: t2, body: { url: 'https://hooks.example.com/scope' } });
        expect(refused.status, refused.text).toBe(403);
        expect(refused.json.message).toMatch(/orders scope/);
        expect((await call('GET', hooks, { token: t2 })).status).toBe(403);
        expect((await call('GET', hooks, { token })).status).toBe(200);
        expect((await call('GET', hooks, { token: A().token })).status).toBe(200);
      });
    });

    describe('campaigns', () => {
      it('creates a campaign (201), refuses a duplicate name (409) and reads it back', async () => {
        const r = await call('POST', `/agency/createCampaign?uuid=${A().uuid}`, { token: A().token, body: campaign('spring') });
        expect(r.status, r.text).toBe(201);
        const c = r.json.data as { id: string; uuid: string; status: string; startDate: string; next_run_at: string };
        expect(c).toMatchObject({ uuid: A().uuid, status: 'scheduled', startDate: '2030-01-15', next_run_at: '2030-01-15T10:00:00.000Z' });
        const dup = await call('POST', `/agency/createCampaign?uuid=${A().uuid}`, { token: A().token, body: campaign('spring') });
        expect(dup.status).toBe(409);
        expect(dup.json).toMatchObject({ success: false, code: 'conflict', message: 'Campaign name already exists' });
        const got = await call('GET', `/agency/getCampaign/${c.id}?uuid=${A().uuid}`, { token: A().token });
        expect(got.status).toBe(200);
        expect(got.json.data).toEqual(c);
      });

      it('answers a retried create with the same Idempotency-Key as the first time, and refuses the key for another request', async () => {
        const key = `retry-${suffix}`;
        const path = `/agency/createCampaign?uuid=${A().uuid}`;
        const first = await call('POST', path, { token: A().token, body: campaign('idempotent'), headers: { 'idempotency-key': key } });
        expect(first.status).toBe(201);
        const again = await call('POST', path, { token: A().token, body: campaign('idempotent'), headers: { 'idempotency-key': key } });
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect((again.json.data as { id: string }).id).toBe((first.json.data as { id: string }).id);
        const other = await call('POST', path, { token: A().token, body: campaign('other-name'), headers: { 'idempotency-key': key } });
        expect(other.status).toBe(400);
        expect(other.json).toMatchObject({ code: 'idempotency_key_reused', issues: [{ path: 'Idempotency-Key' }] });
        // Another company's identical key is its own.
        expect(
          (
            await call('POST', `/agency/createCampaign?uuid=${B().uuid}`, {
              token: B().token,
              body: campaign('idempotent'),
              headers: { 'idempotency-key': key },
            })
          ).status,
        ).toBe(201);
        // Without a key the same body is a new request: the name is taken.
        expect((await call('POST', path, { token: A().token, body: campaign('idempotent') })).status).toBe(409);
      });

      it('lets another company use the same name', async () => {
        expect((await call('POST', `/agency/createCampaign?uuid=${B().uuid}`, { token: B().token, body: campaign('spring') })).status).toBe(201);
      });

      it('names every bad field of a campaign', async () => {
        const r = await call('POST', `/agency/createCampaign?uuid=${A().uuid}`, {
          token: A().token,
          body: { name: '', schedule_type: 'weekly', schedule: 'tomorrow', template_payload: { template_name: 't', body_variable: ['x'] } },
        });
        expect(r.status).toBe(400);
        expect(r.json.issues?.map((i) => i.path).sort()).toEqual(['name', 'schedule', 'schedule_type', 'template_payload.variables.x']);
      });

      it('pages campaigns oldest first with stable pages and validates page and limit', async () => {
        for (const n of ['p1', 'p2', 'p3', 'p4']) await call('POST', `/agency/createCampaign?uuid=${A().uuid}`, { token: A().token, body: campaign(n) });
        const all = await call('GET', `/agency/getCampaignData?uuid=${A().uuid}&limit=100`, { token: A().token });
        const names = (all.json.data as { name: string }[]).map((c) => c.name);
        expect(names).toEqual(['spring', 'idempotent', 'p1', 'p2', 'p3', 'p4']);
        const p2 = await call('GET', `/agency/getCampaignData?uuid=${A().uuid}&page=2&limit=2`, { token: A().token });
        expect((p2.json.data as { name: string }[]).map((c) => c.name)).toEqual(['p1', 'p2']);
        expect(p2.json.pagination).toEqual({ total: 6, page: 2, limit: 2, totalPages: 3 });
        for (const q of ['page=0', 'limit=101', 'limit=0', 'page=abc']) {
          const bad = await call('GET', `/agency/getCampaignData?uuid=${A().uuid}&${q}`, { token: A().token });
          expect(bad.status, q).toBe(400);
          expect(bad.json.issues?.[0]?.path).toBe(q.split('=')[0]);
        }
      });

      it('accepts the uuid as a path prefix', async () => {
        const r = await call('GET', `/${A().uuid}/agency/getCampaignData?limit=1`, { token: A().token });
        expect(r.status).toBe(200);
        expect((r.json.data as unknown[]).length).toBe(1);
      });

      it('answers 404 for an unknown campaign and for another company’s campaign', async () => {
        const other = await call('GET', `/agency/getCampaignData?uuid=${B().uuid}`, { token: B().token });
        const bId = (other.json.data as { id: string }[])[0]?.id;
        expect((await call('GET', `/agency/getCampaign/${bId}?uuid=${A().uuid}`, { token: A().token })).status).toBe(404);
      });
    });

    describe('templates', () => {
      it('stores a template as submitted with wam_id and as failed without, updating in place', async () => {
        const path = `/agency/template?uuid=${A().uuid}`;
        const failed = await call('POST', path, { token: A().token, body: { template_name: 'savetem', phone_number: '6363978748' } });
        expect(failed.status).toBe(200);
        expect(failed.json).toMatchObject({ message: 'Template data processed successfully', data: { status: 'failed', wam_id: null } });
        const ok = await call('POST', path, { token: A().token, body: { template_name: 'savetem', phone_number: '6363978748', wam_id: 'wamkskdfj' } });
        expect(ok.json.data).toMatchObject({ status: 'submitted', wam_id: 'wamkskdfj', reason: null, id: (failed.json.data as { id: string }).id });
        const bad = await call('POST', path, { token: A().token, body: {} });
        expect(bad.status).toBe(400);
        expect(bad.json.issues?.map((i) => i.path).sort()).toEqual(['phone_number', 'template_name']);
      });
    });

    describe('orders, customers, report, sync', () => {
      it('answers the report 404 while the company has no customers', async () => {
        const r = await call('GET', `/agency/reportingCampaign?uuid=${B().uuid}`, { token: B().token });
        expect(r.status).toBe(404);
        expect(r.json.message).toBe('Users not found with the provided uuid');
      });

      it('adds an order (201), upserts it (200, merged, version 2) and updates it by PUT, PATCH and POST', async () => {
        const first = await call('POST', '/api/order/addOrder', { token: A().token, body: order(A().company_id, 'ORD-1', { city: 'Pune' }) });
        expect(first.status, first.text).toBe(201);
        expect(first.json.data).toMatchObject({ company_order_id: 'ORD-1', version: 1, city: 'Pune', email: null });
        const again = await call('POST', '/api/order/addOrder', { token: A().token, body: order(A().company_id, 'ORD-1', { totalAmount: 200 }) });
        expect(again.status).toBe(200);
        expect(again.json.data).toMatchObject({ version: 2, totalAmount: 200, city: 'Pune', id: (first.json.data as { id: string }).id });
        for (const method of ['PUT', 'PATCH', 'POST']) {
          const u = await call(method, '/api/order/updateOrder/ORD-1', { token: A().token, body: { company_id: A().company_id, companyOrderStatus: method } });
          expect(u.status, method).toBe(200);
          expect(u.json.data).toMatchObject({ companyOrderStatus: method, totalAmount: 200 });
        }
      });

      it('refuses another company’s company_id (403), an unknown order (404) and bad fields (400)', async () => {
        const wrong = await call('POST', '/api/order/addOrder', { token: A().token, body: order(B().company_id, 'ORD-X') });
        expect(wrong.status).toBe(403);
        expect(wrong.json.issues?.[0]?.path).toBe('company_id');
        expect((await call('PUT', '/api/order/updateOrder/NOPE', { token: A().token, body: { company_id: A().company_id } })).status).toBe(404);
        const b = await call('POST', '/api/order/addOrder', { token: B().token, body: order(B().company_id, 'ORD-B') });
        expect(b.status).toBe(201);
        // A cannot reach B's order even by its id: updates are scoped to the token's company.
        expect((await call('PUT', '/api/order/updateOrder/ORD-B', { token: A().token, body: { company_id: A().company_id } })).status).toBe(404);
        expect((await call('PUT', '/api/order/updateOrder/ORD-B', { token: A().token, body: { company_id: B().company_id } })).status).toBe(403);
        const bad = await call('POST', '/api/order/addOrder', {
          token: A().token,
          body: { ...order(A().company_id, 'ORD-2'), phoneNumber: '98000', totalAmount: -1 },
        });
        expect(bad.status).toBe(400);
        expect(bad.json.issues?.map((i) => i.path).sort()).toEqual(['phoneNumber', 'totalAmount']);
      });

      it('derives customers from orders, keyed by phone, with paging', async () => {
        await call('POST', '/api/order/addOrder', {
          token: A().token,
          body: order(A().company_id, 'ORD-3', { phoneNumber: '+919800000002', firstName: 'Ravi', lastName: undefined, totalAmount: 10 }),
        });
        const r = await call('GET', `/agency/getCustomers?uuid=${A().uuid}&limit=1`, { token: A().token });
        expect(r.status).toBe(200);
        expect(r.json.total).toBe(2);
        expect(r.json.paging).toEqual({ before: null, after: 2 });
        expect(r.json.data).toEqual([expect.objectContaining({ phoneNumber: '+919800000001', name: 'Asha Rao', source: 'orders' })]);
        const p2 = await call('GET', `/agency/getCustomers?uuid=${A().uuid}&limit=1&page=2`, { token: A().token });
        expect(p2.json.paging).toEqual({ before: 1, after: null });
        expect(p2.json.data).toEqual([expect.objectContaining({ phoneNumber: '+919800000002', name: 'Ravi', orders_count: 1, orders_amount: 10 })]);
      });

      it('reports campaigns, customers and orders', async () => {
        const r = await call('GET', `/agency/reportingCampaign?uuid=${A().uuid}`, { token: A().token });
        expect(r.status).toBe(200);
        const d = r.json.data as {
          campaigns: { total: number; by_status: Record<string, number> };
          customers: { total: number };
          orders: { total: number; amount: number };
        };
        expect(d.campaigns.total).toBe(6);
        expect(d.campaigns.by_status.scheduled).toBe(6);
        expect(d.customers.total).toBe(2);
        expect(d.orders.total).toBe(3);
      });

      it('syncs with status and success both true', async () => {
        const r = await call('POST', `/agency/sync?uuid=${A().uuid}`, { token: A().token });
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({ success: true, status: true, message: 'Sync Complete', data: { customers: { total: 2 } } });
      });
    });

    describe('admin API', () => {
      it('creates, reads and lists companies; refuses a taken company_id', async () => {
        const got = await admin('GET', `/api/v2/companies/${A().uuid}`);
        expect(got.json.data).toMatchObject({ uuid: A().uuid, company_id: A().company_id });
        // A company token with the agency scope reads its own company, and no other.
        const own = await call('GET', `/api/v2/companies/${A().uuid}`, { token: A().token });
        expect(own.status, own.text).toBe(200);
        expect(own.json.data).toMatchObject({ uuid: A().uuid, company_id: A().company_id });
        expect((await call('GET', `/api/v2/companies/${B().uuid}`, { token: A().token })).status).toBe(403);
        const taken = await admin('POST', '/api/v2/companies', { name: 'Copy', company_id: A().company_id });
        expect(taken.status).toBe(409);
        expect(taken.json.issues?.[0]?.path).toBe('company_id');
        expect((await admin('GET', '/api/v2/companies/00000000-0000-4000-8000-000000000000')).status).toBe(404);
        const list = await admin('GET', '/api/v2/companies?limit=100');
        expect((list.json.pagination as { total: number }).total).toBeGreaterThanOrEqual(2);
      });

      it('imports customers', async () => {
        const r = await admin('POST', `/api/v2/companies/${B().uuid}/customers`, { customers: [{ phoneNumber: '+14155550100', firstName: 'Imported' }] });
        expect(r.status).toBe(200);
        expect(r.json.data).toEqual({ created: 1, updated: 0 });
        const list = await call('GET', `/agency/getCustomers?uuid=${B().uuid}&limit=100`, { token: B().token });
        expect((list.json.data as { source: string; phoneNumber: string }[]).find((c) => c.phoneNumber === '+14155550100')?.source).toBe('import');
      });

      it('lists customers imported in one batch in the order of the batch', async () => {
        const c = await makeCompany('batch');
        const phones = ['+14155550130', '+14155550110', '+14155550120'];
        const r = await admin('POST', `/api/v2/companies/${c.uuid}/customers`, {
          customers: phones.map((phoneNumber, i) => ({ phoneNumber, firstName: `N${i}` })),
        });
        expect(r.json.data).toEqual({ created: 3, updated: 0 });
        const list = await call('GET', `/agency/getCustomers?uuid=${c.uuid}&limit=100`, { token: c.token });
        expect((list.json.data as { phoneNumber: string }[]).map((customer) => customer.phoneNumber)).toEqual(phones);
      });

      it('manages webhook endpoints: create, list, get, update, rotate, test, deliveries, redeliver, delete', async () => {
        const base = `/api/v2/companies/${A().uuid}/webhooks`;
        const created = await admin('POST', base, { url: 'https://hooks.partner.example/engagekit', events: ['order.created'] });
        expect(created.status, created.text).toBe(201);
        const ep = created.json.data as { id: string; secret: string; enabled: boolean };
        expect(ep.secret).toMatch(/^whsec_/);
        expect(ep.enabled).toBe(true);
        expect(((await admin('GET', base)).json.data as { id: string }[]).map((e) => e.id)).toContain(ep.id);
        expect((await admin('GET', `${base}/${ep.id}`)).json.data).toMatchObject({ id: ep.id, secret: ep.secret });
        const patched = await admin('PATCH', `${base}/${ep.id}`, { enabled: false, events: [] });
        expect(patched.json.data).toMatchObject({ enabled: false, events: [] });
        const rotated = await admin('POST', `${base}/${ep.id}/rotate-secret`, {});
        expect((rotated.json.data as { secret: string }).secret).not.toBe(ep.secret);
        const test = await admin('POST', `${base}/${ep.id}/test`, {});
        expect(test.status).toBe(202);
        const delivery = test.json.data as { id: string; event_type: string; status: string };
        expect(delivery).toMatchObject({ event_type: 'order.created' });
        const log = await admin('GET', `${base}/${ep.id}/deliveries`);
        expect((log.json.data as { id: string }[]).map((d) => d.id)).toContain(delivery.id);
        const again = await admin('POST', `${base}/${ep.id}/deliveries/${delivery.id}/redeliver`);
        expect(again.status).toBe(202);
        expect((again.json.data as { event_id: string }).event_id).toBe((test.json.data as { event_id: string }).event_id);
        expect((await admin('DELETE', `${base}/${ep.id}`)).json.data).toEqual({ id: ep.id, deleted: true });
        expect((await admin('GET', `${base}/${ep.id}`)).status).toBe(404);
      });

      it('lets a company manage its own webhooks with its company token, and no other company’s', async () => {
        const own = await call('POST', `/api/v2/companies/${A().uuid}/webhooks`, { token: A().token, body: { url: 'https://hooks.partner.example/own' } });
        expect(own.status, own.text).toBe(201);
        const id = (own.json.data as { id: string }).id;
        expect((await call('GET', `/api/v2/companies/${A().uuid}/webhooks/${id}`, { token: A().token })).status).toBe(200);
        expect((await call('GET', `/api/v2/companies/${A().uuid}/webhooks/${id}`, { token: B().token })).status).toBe(403);
        expect((await call('GET', `/api/v2/companies/${A().uuid}/webhooks`, { token: 'not.a.jwt' })).status).toBe(401);
        expect((await call('POST', `/api/v2/companies/${A().uuid}/tokens`, { token: A().token, body: {} })).status).toBe(401);
        expect((await call('DELETE', `/api/v2/companies/${A().uuid}/webhooks/${id}`, { token: A().token })).status).toBe(200);
      });

      it('answers 409 too_many_endpoints past 20 endpoints of a company, however many are asked for at once', async () => {
        const c = await makeCompany('capped');
        const base = `/api/v2/companies/${c.uuid}/webhooks`;
        const made = await Promise.all(Array.from({ length: 25 }, (_, i) => admin('POST', base, { url: `https://hooks.partner.example/${i}` })));
        expect(made.filter((r) => r.status === 201)).toHaveLength(20);
        const refused = made.filter((r) => r.status !== 201);
        expect(refused.map((r) => [r.status, r.json.code])).toEqual(Array.from({ length: 5 }, () => [409, 'too_many_endpoints']));
        expect(((await admin('GET', `${base}?limit=100`)).json.data as unknown[]).length).toBe(20);
        // One deleted, one more may be made.
        const first = made.find((r) => r.status === 201)?.json.data as { id: string };
        expect((await admin('DELETE', `${base}/${first.id}`)).status).toBe(200);
        expect((await admin('POST', base, { url: 'https://hooks.partner.example/again' })).status).toBe(201);
        expect((await admin('POST', base, { url: 'https://hooks.partner.example/over' })).status).toBe(409);
      });

      it('refuses a webhook URL that is not http(s), naming the field', async () => {
        const r = await admin('POST', `/api/v2/companies/${A().uuid}/webhooks`, { url: 'ftp://files.example/x' });
        expect(r.status).toBe(400);
        expect(r.json.issues?.[0]?.path).toBe('url');
      });
    });

    describe('token revocation', () => {
      type Listed = { id: string; scopes: string[]; issued_at: string; expires_at: string; revoked_at: string | null };
      const issue = async (uuid: string, body: unknown = {}) => {
        const r = await admin('POST', `/api/v2/companies/${uuid}/tokens`, body);
        expect(r.status, r.text).toBe(201);
        return r.json.data as { id: string; token: string };
      };
      const sync = (uuid: string, token: string) => call('POST', `/agency/sync?uuid=${uuid}`, { token });

      it('lists the tokens issued, never their text, a page at a time; only to the admin', async () => {
        const c = await makeCompany('tokens');
        const second = await issue(c.uuid, { scopes: ['orders'], expires_in: 3600 });
        const page = await admin('GET', `/api/v2/companies/${c.uuid}/tokens?limit=1&page=2`);
        expect(page.status, page.text).toBe(200);
        expect(page.json.pagination).toEqual({ total: 2, page: 2, limit: 1, totalPages: 2 });
        expect(page.json.data).toEqual([
          { id: second.id, scopes: ['orders'], issued_at: expect.any(String), expires_at: expect.any(String), revoked_at: null },
        ]);
        const [listed] = page.json.data as Listed[];
        expect(Date.parse(listed?.expires_at ?? '') - Date.parse(listed?.issued_at ?? '')).toBeGreaterThanOrEqual(3_599_000);
        expect(page.text).not.toContain(second.token);
        expect((await call('GET', `/api/v2/companies/${c.uuid}/tokens`, { token: c.token })).status).toBe(401);
        expect((await call('DELETE', `/api/v2/companies/${c.uuid}/tokens`, { token: c.token })).status).toBe(401);
      });

      it('revokes one token by its id: it answers 401, the company’s other tokens work; an unknown id is a 404', async () => {
        const c = await makeCompany('revokeone');
        const other = await issue(c.uuid);
        const target = await issue(c.uuid);
        expect((await sync(c.uuid, target.token)).status).toBe(200);
        const r = await admin('DELETE', `/api/v2/companies/${c.uuid}/tokens/${target.id}`);
        expect(r.status, r.text).toBe(200);
        expect(r.json.data).toMatchObject({ id: target.id, revoked_at: expect.any(String) });
        const refused = await sync(c.uuid, target.token);
        expect(refused.status).toBe(401);
        expect(refused.json.message).toContain('the token has been revoked');
        expect((await sync(c.uuid, other.token)).status).toBe(200);
        expect((await sync(c.uuid, c.token)).status).toBe(200);
        const again = await admin('DELETE', `/api/v2/companies/${c.uuid}/tokens/${target.id}`);
        expect(again.json.data).toEqual(r.json.data);
        expect((await admin('DELETE', `/api/v2/companies/${c.uuid}/tokens/tok-unknown`)).status).toBe(404);
        // Another company's token is not this company's to revoke.
        expect((await admin('DELETE', `/api/v2/companies/${B().uuid}/tokens/${other.id}`)).status).toBe(404);
        expect((await sync(c.uuid, other.token)).status).toBe(200);
      });

      it('revokes every token of a company issued until now; tokens issued afterwards and other companies’ work', async () => {
        const c = await makeCompany('revokeall');
        const before = await issue(c.uuid, { scopes: ['agency'] });
        const r = await admin('DELETE', `/api/v2/companies/${c.uuid}/tokens`);
        expect(r.status, r.text).toBe(200);
        expect(r.json.data).toEqual({ tokens_valid_after: expect.any(String), revoked: 2 });
        for (const token of [c.token, before.token]) {
          const refused = await sync(c.uuid, token);
          expect(refused.status).toBe(401);
          expect(refused.json.message).toContain('the token has been revoked');
        }
        // Issued in the same second as the revocation (or the same instant, on a clock that stands still), it works.
        const after = await issue(c.uuid);
        expect((await sync(c.uuid, after.token)).status).toBe(200);
        expect((await sync(B().uuid, B().token)).status).toBe(200);
        const listed = (await admin('GET', `/api/v2/companies/${c.uuid}/tokens?limit=100`)).json.data as Listed[];
        expect(listed.map((t) => t.revoked_at === null)).toEqual([false, false, true]);
      });
    });

    describe('isolation between companies', () => {
      it('never lets one company’s token reach another company through any agency operation', async () => {
        const q = `uuid=${B().uuid}`;
        const attempts: [string, string, unknown?][] = [
          ['POST', `/agency/sync?${q}`],
          ['POST', `/agency/template?${q}`, { template_name: 'x', phone_number: '6363978748' }],
          ['POST', `/agency/createCampaign?${q}`, campaign('intrusion')],
          ['GET', `/agency/getCampaignData?${q}`],
          ['GET', `/agency/getCampaign/anything?${q}`],
          ['GET', `/agency/getCustomers?${q}`],
          ['GET', `/agency/reportingCampaign?${q}`],
          ['POST', `/${B().uuid}/agency/sync`],
        ];
        for (const [method, path, body] of attempts) {
          const r = await call(method, path, { token: A().token, ...(body ? { body } : {}) });
          expect(r.status, `${method} ${path}`).toBe(403);
        }
        const bCampaigns = await call('GET', `/agency/getCampaignData?uuid=${B().uuid}&limit=100`, { token: B().token });
        expect((bCampaigns.json.data as { name: string }[]).map((c) => c.name)).not.toContain('intrusion');
      });
    });
  });
}
