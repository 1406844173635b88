/**
 * The SDK integration suite: every resource method, error class, page style and webhook verification
 * against a running API. It takes a setup, so the same suite runs on the reference server over HTTP
 * and (later) on the in-process mock through its `fetch`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../../runtime/test/receiver.ts';
import { sampleOrder } from '../../../runtime/test/sample-order.ts';
import { createAdminClient } from '../../src/admin.ts';
import {
  type AddOrderBody,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CreateCampaignBody,
  createClient,
  type EngageClient,
  type FetchLike,
  NotFoundError,
  PermissionDeniedError,
} from '../../src/index.ts';
import { validateResponse } from '../../src/validate.ts';
import { verifyWebhook } from '../../src/webhooks.ts';
import { describeWebhookEndpoints } from './webhook-endpoints-suite.ts';

/** What the suite needs from a target. */
export interface SdkTarget {
  /** Where the API answers, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Where order calls go, when not `baseUrl`. */
  orderBaseUrl?: string;
  /** How to reach it (a mock's `fetch`); `globalThis.fetch` when absent. */
  fetch?: FetchLike;
  /** The admin token, to make companies, tokens and webhook endpoints. */
  adminToken: string;
  /** Whether the target POSTs webhooks to a receiver on 127.0.0.1 (a process with WEBHOOK_ALLOW_PRIVATE=1). */
  deliversWebhooks?: boolean;
}

interface Company {
  uuid: string;
  company_id: string;
  token: string;
}

/** Registers the SDK integration suite on `setup`'s target. */
export function describeSdkIntegration(name: string, setup: () => Promise<SdkTarget>) {
  describe(`SDK integration: ${name}`, () => {
    let target: SdkTarget;
    let company: Company;
    let other: Company;
    let client: EngageClient;
    const suffix = Math.random().toString(36).slice(2, 8).toUpperCase();

    const admin = async (method: string, path: string, body?: unknown) => {
      const f: FetchLike = target.fetch ?? ((url, init) => globalThis.fetch(url, init));
      const res = await f(`${target.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${target.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as { data: Record<string, unknown> };
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return json.data;
    };
    const makeCompany = async (label: string): Promise<Company> => {
      const c = await admin('POST', '/api/v2/companies', { name: `${label} ${suffix}`, company_id: `${label}${suffix}` });
      const t = await admin('POST', `/api/v2/companies/${c.uuid}/tokens`, {});
      return { uuid: String(c.uuid), company_id: String(c.company_id), token: String(t.token) };
    };
    const clientFor = (c: Company, extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
      createClient({
        baseUrl: target.baseUrl,
        ...(target.orderBaseUrl ? { orderBaseUrl: target.orderBaseUrl } : {}),
        ...(target.fetch ? { fetch: target.fetch } : {}),
        token: c.token,
        uuid: c.uuid,
        ...extra,
      });
    const campaign = (name: string): CreateCampaignBody => ({
      name,
      schedule_type: 'once',
      schedule: '2030-01-15T10:00:00Z',
      template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
    });
    const order = (id: string, extra: Partial<AddOrderBody> = {}): AddOrderBody => sampleOrder(company.company_id, id, extra);

    beforeAll(async () => {
      target = await setup();
      company = await makeCompany('SDKA');
      other = await makeCompany('SDKB');
      // Every answer this suite gets through `client` is also checked against the contract's schemas.
      client = clientFor(company, { validateResponse });
    });

    describe('campaigns', () => {
      it('creates a campaign (201), reads it back, and refuses a duplicate name with ConflictError', async () => {
        const { data: created, status, requestId } = await client.campaigns.create(campaign('spring')).withResponse();
        expect(status).toBe(201);
        expect(requestId).toMatch(/^req_/);
        expect(created).toMatchObject({ name: 'spring', status: 'scheduled', uuid: company.uuid, startDate: '2030-01-15' });
        expect(await client.campaigns.get(created.id)).toEqual(created);
        const dup = await client.campaigns.create(campaign('spring')).catch((e: unknown) => e);
        expect(dup).toBeInstanceOf(ConflictError);
        expect(dup).toMatchObject({ status: 409, code: 'conflict', message: 'Campaign name already exists' });
        expect((dup as ConflictError).requestId).toMatch(/^req_/);
        expect((dup as ConflictError).body).toMatchObject({ success: false, code: 'conflict' });
      });

      it('rejects a bad body with BadRequestError naming every field', async () => {
        const err = await client.campaigns
          .create({ ...campaign(''), schedule: 'tomorrow', template_payload: { template_name: 't', body_variable: ['x'] } })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BadRequestError);
        expect((err as BadRequestError).issues.map((i) => i.path).sort()).toEqual(['name', 'schedule', 'template_payload.variables.x']);
      });

      it('answers an unknown campaign with NotFoundError', async () => {
        const err = await client.campaigns.get('cmp_does_not_exist').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NotFoundError);
        expect(NotFoundError.is(err)).toBe(true);
      });

      it('pages campaigns oldest first: awaitable, iterable, page by page and bounded', async () => {
        for (const n of ['p1', 'p2', 'p3', 'p4']) await client.campaigns.create(campaign(n));
        const first = await client.campaigns.list({ limit: 2 });
        expect(first.data.map((c) => c.name)).toEqual(['spring', 'p1']);
        expect(first.pagination).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3 });
        const names: string[] = [];
        for await (const c of client.campaigns.list({ limit: 2 })) names.push(c.name);
        expect(names).toEqual(['spring', 'p1', 'p2', 'p3', 'p4']);
        const pages: number[] = [];
        for await (const page of client.campaigns.list({ limit: 2 }, { prefetch: true }).pages()) pages.push(page.data.length);
        expect(pages).toEqual([2, 2, 1]);
        expect((await client.campaigns.list({ limit: 2 }).toArray({ max: 3 })).map((c) => c.name)).toEqual(['spring', 'p1', 'p2']);
      });
    });

    describe('orders, customers, report, sync, templates', () => {
      it('answers the report of a company without customers with NotFoundError', async () => {
        const err = await clientFor(other)
          .reports.get()
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NotFoundError);
        expect((err as NotFoundError).message).toBe('Users not found with the provided uuid');
      });

      it('adds an order (201), upserts it (200) and updates it', async () => {
        const added = await client.orders.add(order('ORD-1', { city: 'Pune' })).withResponse();
        expect(added.status).toBe(201);
        expect(added.data).toMatchObject({ company_order_id: 'ORD-1', version: 1, city: 'Pune' });
        const again = await client.orders.add(order('ORD-1', { totalAmount: 200 })).withResponse();
        expect(again.status).toBe(200);
        expect(again.data).toMatchObject({ id: added.data.id, version: 2, totalAmount: 200 });
        const updated = await client.orders.update('ORD-1', { company_id: company.company_id, companyOrderStatus: 'Shipped' });
        expect(updated).toMatchObject({ companyOrderStatus: 'Shipped', version: 3, city: 'Pune' });
      });

      it('rejects an unknown order with NotFoundError and another company’s company_id with PermissionDeniedError', async () => {
        await expect(client.orders.update('NOPE', { company_id: company.company_id })).rejects.toBeInstanceOf(NotFoundError);
        const err = await client.orders.add(order('ORD-X', { company_id: other.company_id })).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PermissionDeniedError);
        expect((err as PermissionDeniedError).issues[0]?.path).toBe('company_id');
      });

      it('pages customers through paging.after', async () => {
        await client.orders.add(order('ORD-2', { phoneNumber: '+919800000002', firstName: 'Ravi', lastName: undefined }));
        const first = await client.customers.list({ limit: 1 });
        expect(first).toMatchObject({ page: 1, total: 2, nextPage: 2, paging: { before: null, after: 2 } });
        const all = [];
        for await (const c of client.customers.list({ limit: 1 })) all.push(c.phoneNumber);
        expect(all).toEqual(['+919800000001', '+919800000002']);
      });

      it('reports, syncs and stores templates', async () => {
        const report = await client.reports.get();
        expect(report).toMatchObject({ campaigns: { total: 5 }, customers: { total: 2 }, orders: { total: 2 } });
        const sync = await client.agency.sync();
        expect(sync.customers.total).toBe(2);
        const failed = await client.templates.submit({ template_name: 'savetem', phone_number: '6363978748' });
        expect(failed).toMatchObject({ status: 'failed', wam_id: null });
        const submitted = await client.templates.submit({ template_name: 'savetem', phone_number: '6363978748', wam_id: 'wam-1' });
        expect(submitted).toMatchObject({ id: failed.id, status: 'submitted' });
      });
    });

    describe('authentication', () => {
      it('rejects a bad token with AuthenticationError and another company’s uuid with PermissionDeniedError', async () => {
        const bad = await clientFor({ ...company, token: 'not.a.jwt' })
          .campaigns.list()
          .catch((e: unknown) => e);
        expect(bad).toBeInstanceOf(AuthenticationError);
        expect((bad as AuthenticationError).code).toBe('unauthorized');
        await expect(clientFor({ ...company, uuid: other.uuid }).campaigns.list()).rejects.toBeInstanceOf(PermissionDeniedError);
      });

      it('lists, revokes one and revokes every token of a company through the admin client', async () => {
        const adminClient = createAdminClient({
          baseUrl: target.baseUrl,
          adminToken: target.adminToken,
          validateResponse,
          ...(target.fetch ? { fetch: target.fetch } : {}),
        });
        const revoking = await makeCompany('SDKR');
        const issued = await adminClient.companies.tokens.create(revoking.uuid, { scopes: ['agency'] });
        const listed = await adminClient.companies.tokens.list(revoking.uuid).toArray({ max: 10 });
        expect(listed.map((t) => t.id)).toEqual([expect.any(String), issued.id]);
        const revoked = await adminClient.companies.tokens.revoke(revoking.uuid, issued.id);
        expect(revoked).toMatchObject({ id: issued.id, scopes: ['agency'], revoked_at: expect.any(String) });
        await expect(clientFor({ ...revoking, token: issued.token }).campaigns.list()).rejects.toBeInstanceOf(AuthenticationError);
        await expect(clientFor(revoking).campaigns.list()).resolves.toBeDefined();
        await expect(adminClient.companies.tokens.revoke(revoking.uuid, 'tok-unknown')).rejects.toBeInstanceOf(NotFoundError);
        expect(await adminClient.companies.tokens.revokeAll(revoking.uuid)).toEqual({ tokens_valid_after: expect.any(String), revoked: 1 });
        const refused = await clientFor(revoking)
          .campaigns.list()
          .catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(AuthenticationError);
        expect((refused as AuthenticationError).message).toContain('the token has been revoked');
      });
    });

    describe('plumbing', () => {
      it('sends one Idempotency-Key on writes and none on reads', async () => {
        const seen: Request[] = [];
        const base: FetchLike = target.fetch ?? ((url, init) => globalThis.fetch(url, init));
        const spying = clientFor(company, {
          fetch: (url, init) => {
            seen.push(new Request(url, init));
            return base(url, init);
          },
        });
        await spying.campaigns.create(campaign(`idem-${suffix}`));
        await spying.campaigns.list();
        expect(seen.map((r) => [r.method, r.headers.has('idempotency-key')])).toEqual([
          ['POST', true],
          ['GET', false],
        ]);
      });

      it('keeps the low-level client usable for what the resources do not cover', async () => {
        const { data, response } = await client.api.agency.GET('/api/v2/companies/{uuid}', {
          params: { path: { uuid: company.uuid } },
          headers: { authorization: `Bearer ${target.adminToken}` },
        });
        expect(response.status).toBe(200);
        expect(data?.data.company_id).toBe(company.company_id);
      });
    });

    describe('webhooks', () => {
      let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
      afterAll(async () => receiver?.close());

      it('verifies real deliveries with verifyWebhook, before and after a secret rotation', async (ctx) => {
        if (!target.deliversWebhooks) return ctx.skip('this target does not deliver webhooks over HTTP');
        receiver = await startReceiver();
        const endpoint = await admin('POST', `/api/v2/companies/${company.uuid}/webhooks`, { url: receiver.url, events: ['order.created', 'order.updated'] });
        const secret = String(endpoint.secret);
        await client.orders.add(order(`WH-${suffix}`));
        const created = await receiver.next(`"company_order_id":"WH-${suffix}"`);
        const event = await verifyWebhook(created.body, created.headers, secret);
        expect(event.type).toBe('order.created');
        expect(event.data.order.company_order_id).toBe(`WH-${suffix}`);
        expect(event.id).toBe(created.headers['webhook-id']);

        const rotated = await admin('POST', `/api/v2/companies/${company.uuid}/webhooks/${endpoint.id}/rotate-secret`, { grace_period_s: 3600 });
        await client.orders.update(`WH-${suffix}`, { company_id: company.company_id, companyOrderStatus: 'Packed' });
        const updated = await receiver.next('"companyOrderStatus":"Packed"');
        expect(String(updated.headers['webhook-signature']).split(' ')).toHaveLength(2);
        for (const s of [secret, String(rotated.secret)]) {
          const e = await verifyWebhook(updated.body, updated.headers, s);
          expect(e.type).toBe('order.updated');
        }
        await expect(verifyWebhook(`${updated.body} `, updated.headers, secret)).rejects.toThrow(/no signature matched/);
      });
    });

    describeWebhookEndpoints(() => ({ target, makeCompany, clientFor, suffix }));
  });
}
