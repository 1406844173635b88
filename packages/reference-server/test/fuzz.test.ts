/**
 * No input makes the server answer 5xx: generated junk (paths, methods, headers, query strings and
 * bodies, valid-looking and not) is sent to every operation of the contract, authenticated and not.
 */
import { type OperationSpec, operations } from '@engagekit/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, openSqlStore } from '../src/store/index.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

const ops = Object.values(operations) as OperationSpec[];

describe.each(['memory', 'pglite'] as const)('generated junk to every operation, on the %s store', (kind) => {
  let env: Awaited<ReturnType<typeof inProcessApp>>;
  let uuid = '';
  let token = '';
  let companyId = '';

  beforeAll(async () => {
    const store = kind === 'memory' ? createMemoryStore() : await openSqlStore({ memory: true });
    env = await inProcessApp({ store, config: { validateResponses: true } });
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const c = await (await env.fetch('/api/v2/companies', { method: 'POST', headers: admin, body: '{"name":"Fuzz"}' })).json();
    uuid = c.data.uuid;
    companyId = c.data.company_id;
    token = (await (await env.fetch(`/api/v2/companies/${uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' })).json()).data.token;
  });

  const junkValue = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('', ' ', '+', '-1', '1e309', 'NaN', '2024-02-30', '+1234567890', '__proto__', '{{customer.firstName}}', '\u0000', 'x'.repeat(3000)),
  );
  const junkJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      junkValue,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(
          fc.string(),
          fc.constantFrom('company_id', 'name', 'template_payload', 'days', 'products', 'variables', 'url', 'events', 'scopes', 'customers'),
        ),
        tie('value'),
        { maxKeys: 6 },
      ),
    ),
  })).value;

  const request = fc.record({
    op: fc.constantFrom(...ops),
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
    ),
    // Mostly the credentials the operation wants, so the junk reaches validation and the handlers.
    auth: fc.constantFrom('right', 'right', 'right', 'company', 'admin', 'none', 'garbage'),
    param: fc.oneof(fc.string(), fc.constantFrom('%00', '..', '%E0%A4%A', 'a/b', '53d1bcd3-aaf0-45e1-9298-5395b6a27b61')),
    query: fc.dictionary(fc.constantFrom('uuid', 'page', 'limit', 'status', 'x'), fc.oneof(fc.string(), fc.constantFrom('0', '101', '-5', '1.5', 'abc'))),
    useRealUuid: fc.constantFrom(true, true, true, false),
    body: fc.oneof(
      junkJson.map((v) => JSON.stringify(v)),
      fc.string(),
      fc.constant(undefined),
    ),
    contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined),
    // Valid-looking bodies with one field broken get deeper into the handlers.
    base: fc.constantFrom('none', 'order', 'campaign'),
  });

  it('never answers 5xx', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const path = r.op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(r.param));
        const q = new URLSearchParams(r.query);
        if (r.useRealUuid) q.set('uuid', uuid);
        const headers: Record<string, string> = {};
        const auth = r.auth === 'right' ? (r.op.auth.kind === 'company' ? 'company' : 'admin') : r.auth;
        if (auth === 'company') headers.authorization = `Bearer ${token}`;
        if (auth === 'admin') headers.authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
        if (r.auth === 'garbage') headers.authorization = 'Bearer a.b.c';
        if (r.contentType) headers['content-type'] = r.contentType;
        let body = r.body;
        if (body !== undefined && r.base !== 'none') {
          let extra: unknown;
          try {
            extra = JSON.parse(body);
          } catch {}
          const base =
            r.base === 'order'
              ? {
                  company_id: companyId,
                  company_order_id: 'F-1',
                  totalAmount: 1,
                  firstName: 'F',
                  phoneNumber: '+1234567890',
                  postalCode: '1',
                  streetAddress1: 'x',
                }
              : { name: 'fz', schedule_type: 'once', schedule: '2030-01-01T00:00:00Z', template_payload: { template_name: 't' } };
          body = JSON.stringify(typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? { ...base, ...extra } : base);
        }
        const method = r.method ?? r.op.method.toUpperCase();
        const res = await env.fetch(`${path}?${q}`, { method, headers, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}) });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        if (res.status >= 500) throw new Error(`${method} ${path}?${q} answered ${res.status}: ${await res.text()} (body ${body?.slice(0, 300)})`);
        if (method !== 'HEAD' && res.status >= 400) {
          const json = await res.json();
          expect(json).toMatchObject({ success: false, code: expect.any(String), requestId: expect.any(String) });
        }
      }),
      { numRuns: 1500, seed: 20261121 },
    );
    // The junk got past validation into the handlers, not only bounced at the door.
    const ok = [...seen].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    expect(ok, JSON.stringify(Object.fromEntries(seen))).toBeGreaterThan(20);
    expect(seen.get(400) ?? 0).toBeGreaterThan(100);
  });
});
