/** Type tests of the public surface: checked by tsc (vitest typecheck), never run. */
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AddOrderBody,
  APIError,
  type APIPromise,
  type Campaign,
  type CampaignPage,
  type CreateCampaignBody,
  type Customer,
  type CustomerPage,
  createClient,
  type EngageClient,
  EngageError,
  NotFoundError,
  type Order,
  type PagePromise,
  RateLimitError,
  type Report,
  type SyncResult,
  type Template,
  type UpdateOrderBody,
  type WithResponse,
} from '../src/index.ts';
import { ResponseValidationError, validateResponse } from '../src/validate.ts';
import { signWebhook, verifyWebhook, type WebhookEvent, WebhookVerificationError } from '../src/webhooks.ts';

declare const client: EngageClient;
declare const campaignBody: CreateCampaignBody;
declare const orderBody: AddOrderBody;
declare const unknownError: unknown;

type ItemOf<T> = T extends AsyncIterable<infer I> ? I : never;

describe('createClient', () => {
  it('needs baseUrl, token and uuid, and takes the optional ones', () => {
    expectTypeOf(createClient({ baseUrl: 'https://api.example.com', token: 't', uuid: 'u' })).toEqualTypeOf<EngageClient>();
    createClient({
      baseUrl: 'https://api.example.com',
      orderBaseUrl: 'https://orders.example.com',
      token: 't',
      uuid: 'u',
      fetch: globalThis.fetch,
      maxRetries: 5,
      timeout: 10_000,
      validateResponse,
    });
    createClient({ baseUrl: 'x', token: 't', uuid: 'u', fetch: (url, init) => Promise.resolve(new Response(`${init.method} ${url}`)) });
    createClient({ baseUrl: 'x', token: 't', uuid: 'u', fetch: (url: string, init?: RequestInit) => globalThis.fetch(url, init) });
    // @ts-expect-error the SDK calls fetch(url, init), not fetch(request)
    createClient({ baseUrl: 'x', token: 't', uuid: 'u', fetch: (request: Request) => Promise.resolve(new Response(request.url)) });
    // @ts-expect-error token is required
    createClient({ baseUrl: 'https://api.example.com', uuid: 'u' });
    // @ts-expect-error uuid is required
    createClient({ baseUrl: 'https://api.example.com', token: 't' });
    // @ts-expect-error timeout is a number of milliseconds
    createClient({ baseUrl: 'https://api.example.com', token: 't', uuid: 'u', timeout: '60s' });
  });
});

describe('resource methods', () => {
  it('resolve to the resource, typed from the contract', () => {
    expectTypeOf(client.agency.sync()).toEqualTypeOf<APIPromise<SyncResult>>();
    expectTypeOf(client.templates.submit({ template_name: 't', phone_number: '6363978748' })).resolves.toEqualTypeOf<Template>();
    expectTypeOf(client.campaigns.create(campaignBody)).resolves.toEqualTypeOf<Campaign>();
    expectTypeOf(client.campaigns.get('cmp_1')).resolves.toEqualTypeOf<Campaign>();
    expectTypeOf(client.reports.get()).resolves.toEqualTypeOf<Report>();
    expectTypeOf(client.orders.add(orderBody)).resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.orders.update).parameters.toEqualTypeOf<[string, UpdateOrderBody, Parameters<typeof client.orders.add>[1]?]>();
    expectTypeOf<Campaign['status']>().toEqualTypeOf<'scheduled' | 'running' | 'completed' | 'paused' | 'failed' | 'cancelled'>();
    expectTypeOf<Order['version']>().toEqualTypeOf<number>();
    expectTypeOf<Report['customers']['total']>().toEqualTypeOf<number>();
  });

  it('check bodies and params', () => {
    // @ts-expect-error schedule_type is 'once' | 'recurring'
    client.campaigns.create({ ...campaignBody, schedule_type: 'weekly' });
    // @ts-expect-error template_payload is required
    client.campaigns.create({ name: 'x', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z' });
    // @ts-expect-error the mandatory order fields are required
    client.orders.add({ company_id: 'ACME', company_order_id: 'ORD-1' });
    // @ts-expect-error update needs company_id
    client.orders.update('ORD-1', { city: 'Pune' });
    // @ts-expect-error page is a number
    client.campaigns.list({ page: '2' });
    // @ts-expect-error uuid comes from the client, not the params
    client.customers.list({ uuid: 'u' });
  });

  it('give status, headers and requestId with withResponse()', () => {
    expectTypeOf(client.orders.add(orderBody).withResponse()).resolves.toEqualTypeOf<WithResponse<Order>>();
    expectTypeOf<WithResponse<Order>['status']>().toEqualTypeOf<number>();
    expectTypeOf<WithResponse<Order>['requestId']>().toEqualTypeOf<string | undefined>();
  });
});

describe('lists', () => {
  it('await to a page and iterate items, in both page styles', () => {
    expectTypeOf(client.campaigns.list()).toEqualTypeOf<PagePromise<Campaign, CampaignPage>>();
    expectTypeOf(client.campaigns.list({ limit: 100 })).resolves.toEqualTypeOf<CampaignPage>();
    expectTypeOf<ItemOf<ReturnType<EngageClient['campaigns']['list']>>>().toEqualTypeOf<Campaign>();
    expectTypeOf<ItemOf<ReturnType<EngageClient['customers']['list']>>>().toEqualTypeOf<Customer>();
    expectTypeOf<ItemOf<ReturnType<ReturnType<EngageClient['customers']['list']>['pages']>>>().toEqualTypeOf<CustomerPage>();
    expectTypeOf<CampaignPage['data']>().toEqualTypeOf<Campaign[]>();
    expectTypeOf<CampaignPage['pagination']['totalPages']>().toEqualTypeOf<number>();
    expectTypeOf<CustomerPage['paging']['after']>().toEqualTypeOf<number | null>();
    expectTypeOf<ReturnType<CampaignPage['getNextPage']>>().resolves.toEqualTypeOf<CampaignPage>();
    expectTypeOf(client.customers.list().toArray({ max: 10 })).resolves.toEqualTypeOf<Customer[]>();
    // @ts-expect-error toArray needs a bound
    client.customers.list().toArray();
    client.campaigns.list(undefined, { prefetch: true, timeout: 5000 });
  });
});

describe('errors', () => {
  it('narrow with is() and carry the envelope', () => {
    if (NotFoundError.is(unknownError)) {
      expectTypeOf(unknownError).toEqualTypeOf<NotFoundError>();
      expectTypeOf(unknownError.status).toEqualTypeOf<number>();
      expectTypeOf(unknownError.requestId).toEqualTypeOf<string | undefined>();
      expectTypeOf(unknownError.issues).toEqualTypeOf<{ path: string; message: string }[]>();
    }
    if (APIError.is(unknownError)) expectTypeOf(unknownError.code).toEqualTypeOf<string | undefined>();
    if (RateLimitError.is(unknownError)) expectTypeOf(unknownError.retryAfter).toEqualTypeOf<number | undefined>();
    if (EngageError.is(unknownError)) expectTypeOf(unknownError).toEqualTypeOf<EngageError>();
    if (ResponseValidationError.is(unknownError)) expectTypeOf(unknownError.operationId).toEqualTypeOf<string>();
    expectTypeOf(APIError.from(404, {}, new Headers())).toEqualTypeOf<APIError>();
  });
});

describe('webhooks', () => {
  it('resolve to a typed event that narrows on type', async () => {
    const event = await verifyWebhook('{}', new Headers(), 'whsec_x');
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(event.type).toEqualTypeOf<'order.created' | 'order.updated'>();
    if (event.type === 'order.updated') expectTypeOf(event.data.order.company_order_id).toEqualTypeOf<string>();
    await verifyWebhook(new Uint8Array(), { 'webhook-id': 'x', 'set-cookie': ['a', 'b'] }, ['whsec_a', 'whsec_b'], { tolerance: 60, now: new Date() });
    expectTypeOf(signWebhook('{}', 'whsec_x', { id: 'msg_1', timestamp: 1 })).resolves.toEqualTypeOf<{
      'webhook-id': string;
      'webhook-timestamp': string;
      'webhook-signature': string;
    }>();
    // @ts-expect-error the body must be raw, not parsed JSON
    await verifyWebhook({ id: 'evt_1' }, new Headers(), 'whsec_x');
    if (WebhookVerificationError.is(unknownError)) expectTypeOf(unknownError.code).toBeString();
  });
});

describe('low-level clients', () => {
  it('are openapi-fetch clients typed by the contract paths', async () => {
    const { data } = await client.api.agency.GET('/agency/getCampaign/{id}', { params: { path: { id: 'cmp_1' }, query: { uuid: 'u' } } });
    expectTypeOf(data?.data).toEqualTypeOf<Campaign | undefined>();
    // @ts-expect-error unknown path
    await client.api.agency.GET('/agency/nothing');
  });
});
