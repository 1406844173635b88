/**
 * Webhook endpoints with a company token (`client.webhookEndpoints`), the admin client
 * (`createAdminClient`) and `client.webhooks.unwrap`, against a running API. Registered by the SDK
 * integration suite, on its target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../../runtime/test/receiver.ts';
import { createAdminClient, type EngageAdminClient } from '../../src/admin.ts';
import { type EngageClient, NotFoundError, PermissionDeniedError } from '../../src/index.ts';
import { WebhookVerificationError } from '../../src/webhooks.ts';
import type { SdkTarget } from './sdk-suite.ts';

/** What the SDK integration suite hands this one once its setup ran. */
export interface EndpointSuiteContext {
  target: SdkTarget;
  /** Makes a company (its `company_id` is `label` plus the suite's suffix) and issues it a token. */
  makeCompany(label: string): Promise<{ uuid: string; company_id: string; token: string }>;
  /** A client with `token` for the company `uuid`. */
  clientFor(company: { uuid: string; token: string }): EngageClient;
  /** A unique suffix for names. */
  suffix: string;
}

/** Registers the webhook endpoint, admin client and unwrap tests; `context` is called once the suite's setup ran. */
export function describeWebhookEndpoints(context: () => EndpointSuiteContext) {
  let ctx: EndpointSuiteContext;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: EngageAdminClient;
  let client: EngageClient;
  let foreign: EngageClient;
  beforeAll(async () => {
    ctx = context();
    const company = await ctx.makeCompany('SDKW');
    const other = await ctx.makeCompany('SDKX');
    client = ctx.clientFor(company);
    // The company's own token with another company's uuid.
    foreign = ctx.clientFor({ uuid: other.uuid, token: company.token });
    receiver = await startReceiver();
    admin = createAdminClient({ baseUrl: ctx.target.baseUrl, adminToken: ctx.target.adminToken, ...(ctx.target.fetch ? { fetch: ctx.target.fetch } : {}) });
  });
  afterAll(async () => receiver?.close());

  describe('webhookEndpoints (company token)', () => {
    it('creates, lists over two pages, reads, updates, rotates, tests, redelivers and deletes an endpoint', async () => {
      const created = await client.webhookEndpoints.create({ url: receiver.url, events: ['order.created'], description: 'first' }).withResponse();
      expect(created.status).toBe(201);
      expect(created.data).toMatchObject({ url: receiver.url, events: ['order.created'], description: 'first', enabled: true });
      expect(created.data.secret).toMatch(/^whsec_/);
      const endpoint = created.data;
      const made = [endpoint];
      for (const description of ['second', 'third']) made.push(await client.webhookEndpoints.create({ url: `${receiver.url}/${description}`, description }));
      // Oldest first, as the contract says: by creation time, then in the order they were made (a stable sort of `made`).
      const oldestFirst = made.sort((a, b) => a.created_at.localeCompare(b.created_at)).map((e) => e.description);

      const first = await client.webhookEndpoints.list({ limit: 2 });
      expect(first.data.map((e) => e.description)).toEqual(oldestFirst.slice(0, 2));
      expect(first.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
      expect(first.nextPage).toBe(2);
      const all: string[] = [];
      for await (const e of client.webhookEndpoints.list({ limit: 2 })) all.push(e.description);
      expect(all).toEqual(oldestFirst);

      expect(await client.webhookEndpoints.get(endpoint.id)).toMatchObject({ id: endpoint.id, url: receiver.url });
      const updated = await client.webhookEndpoints.update(endpoint.id, { events: ['order.created', 'order.updated'], description: 'renamed' });
      expect(updated).toMatchObject({ id: endpoint.id, events: ['order.created', 'order.updated'], description: 'renamed' });

      const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id, { grace_period_s: 0 });
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(endpoint.secret);
      expect(rotated.previous_secret_expires_at).toBeNull();

      const test = await client.webhookEndpoints.sendTest(endpoint.id, { event_type: 'order.updated' }).withResponse();
      expect(test.status).toBe(202);
      expect(test.data).toMatchObject({ endpoint_id: endpoint.id, event_type: 'order.updated' });
      const deliveries = await client.webhookEndpoints.deliveries(endpoint.id, { limit: 10 });
      expect(deliveries.data.map((d) => d.id)).toContain(test.data.id);
      const again = await client.webhookEndpoints.redeliver(endpoint.id, test.data.id).withResponse();
      expect(again.status).toBe(202);
      expect(again.data).toMatchObject({ endpoint_id: endpoint.id, event_id: test.data.event_id });
      const ids: string[] = [];
      for await (const d of client.webhookEndpoints.deliveries(endpoint.id, { limit: 1 })) ids.push(d.id);
      expect(ids).toEqual(expect.arrayContaining([test.data.id, again.data.id]));
      expect(ids).toHaveLength(2);

      if (ctx.target.deliversWebhooks) {
        // The test event arrives signed with the new secret, and unwrap checks it.
        const received = await receiver.next(test.data.event_id);
        const event = await client.webhooks.unwrap(received.body, received.headers, rotated.secret);
        expect(event).toMatchObject({ id: test.data.event_id, type: 'order.updated', test: true });
        const tampered = await client.webhooks
          .unwrap(received.body.replace('TEST-ORDER', 'TEST-ORDEX'), received.headers, rotated.secret)
          .catch((e: unknown) => e);
        expect(tampered).toBeInstanceOf(WebhookVerificationError);
        expect((tampered as WebhookVerificationError).code).toBe('no_matching_signature');
      }

      expect(await client.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
      await expect(client.webhookEndpoints.get(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('answers an unknown endpoint with NotFoundError, another company’s endpoints with PermissionDeniedError and a wrong admin token with AuthenticationError', async () => {
      const err = await client.webhookEndpoints.get('wh_does_not_exist').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).status).toBe(404);
      await expect(client.webhookEndpoints.deliveries('wh_does_not_exist')).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.webhookEndpoints.redeliver('wh_does_not_exist', 'dlv_none')).rejects.toBeInstanceOf(NotFoundError);
      await expect(foreign.webhookEndpoints.list()).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(
        createAdminClient({
          baseUrl: ctx.target.baseUrl,
          adminToken: 'wrong-admin-token-0000',
          maxRetries: 0,
          ...(ctx.target.fetch ? { fetch: ctx.target.fetch } : {}),
        }).companies.list(),
      ).rejects.toMatchObject({ name: 'AuthenticationError', status: 401 });
    });
  });

  describe('createAdminClient', () => {
    it('creates a company, issues its token, imports customers and manages its endpoints', async () => {
      const company = await admin.companies.create({ name: `Admin SDK ${ctx.suffix}`, company_id: `ADM${ctx.suffix}` });
      expect(company).toMatchObject({ name: `Admin SDK ${ctx.suffix}`, company_id: `ADM${ctx.suffix}` });
      expect(await admin.companies.get(company.uuid)).toEqual(company);
      const uuids: string[] = [];
      for await (const c of admin.companies.list({ limit: 2 })) uuids.push(c.uuid);
      expect(uuids).toContain(company.uuid);

      const token = await admin.companies.tokens.create(company.uuid, { scopes: ['agency'] });
      expect(token).toMatchObject({ token_type: 'Bearer', scopes: ['agency'] });
      const imported = await admin.companies.customers.import(company.uuid, {
        customers: [
          { phoneNumber: '+919800000101', firstName: 'Asha' },
          { phoneNumber: '+919800000102', firstName: 'Ravi' },
        ],
      });
      expect(imported).toEqual({ created: 2, updated: 0 });

      const endpoints = admin.companies.webhookEndpoints;
      const endpoint = await endpoints.create(company.uuid, { url: receiver.url });
      expect((await endpoints.list(company.uuid)).data.map((e) => e.id)).toEqual([endpoint.id]);
      expect(await endpoints.update(company.uuid, endpoint.id, { enabled: false })).toMatchObject({ enabled: false });
      const delivery = await endpoints.sendTest(company.uuid, endpoint.id);
      expect((await endpoints.deliveries(company.uuid, endpoint.id)).total).toBe(1);
      expect(await endpoints.redeliver(company.uuid, endpoint.id, delivery.id)).toMatchObject({ event_id: delivery.event_id });
      expect((await endpoints.rotateSecret(company.uuid, endpoint.id)).secret).toMatch(/^whsec_/);
      expect(await endpoints.get(company.uuid, endpoint.id)).toMatchObject({ id: endpoint.id, enabled: false });
      expect(await endpoints.delete(company.uuid, endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
      await expect(endpoints.get(company.uuid, endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(admin.companies.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);

      // The token it issued works for the company client's own endpoints.
      const customers = await ctx.clientFor({ uuid: company.uuid, token: token.token }).customers.list();
      expect(customers.total).toBe(2);
    });

    it('reports health', async () => {
      expect(await admin.health()).toMatchObject({ status: 'ok' });
    });
  });
}
