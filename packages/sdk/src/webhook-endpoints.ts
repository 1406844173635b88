/**
 * Webhook endpoints of a company: one implementation, taking the company uuid first. The admin client
 * offers it as is (`companies.webhookEndpoints`); the company client binds its own uuid (`webhookEndpoints`).
 */
import type { APIPromise } from './api-promise.ts';
import type { ContractClient } from './internal/api-client.ts';
import { one, type PaginatedPage, paginatedList, required } from './internal/calls.ts';
import type { RequestOptions } from './internal/request.ts';
import type { Transport } from './internal/setup.ts';
import type { ListOptions, PagePromise } from './pagination.ts';
import type {
  CreateWebhookEndpointBody,
  Deleted,
  Delivery,
  DeliveryListParams,
  RotatedSecret,
  RotateSecretBody,
  SendTestEventBody,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointListParams,
} from './types.ts';

/** A page of webhook endpoints, with the answer's `pagination`. */
export interface WebhookEndpointPage extends PaginatedPage<WebhookEndpoint> {}

/** A page of deliveries of one endpoint, with the answer's `pagination`. */
export interface DeliveryPage extends PaginatedPage<Delivery> {}

type ListCallOptions = RequestOptions & ListOptions;

/** The webhook endpoints of any company, its uuid first (the admin client's `companies.webhookEndpoints`). */
export interface CompanyWebhookEndpoints {
  // <generated from="src/methods.ts" table="webhookEndpointMethods"> (`pnpm --filter @engagekit/sdk generate`)
  /** Creates an endpoint; it resolves with the endpoint's `secret` (`whsec_...`), which verifies what it receives. */
  create(uuid: string, body: CreateWebhookEndpointBody, options?: RequestOptions): APIPromise<WebhookEndpoint>;
  /** Lists endpoints oldest first: await it for a page, `for await` it for every endpoint. */
  list(uuid: string, params?: WebhookEndpointListParams, options?: ListCallOptions): PagePromise<WebhookEndpoint, WebhookEndpointPage>;
  /** One endpoint; an unknown id rejects with `NotFoundError`. */
  get(uuid: string, endpointId: string, options?: RequestOptions): APIPromise<WebhookEndpoint>;
  /** Changes an endpoint's `url`, `events`, `description` or `enabled`. */
  update(uuid: string, endpointId: string, body: UpdateWebhookEndpointBody, options?: RequestOptions): APIPromise<WebhookEndpoint>;
  /** Deletes an endpoint: it receives nothing more. */
  delete(uuid: string, endpointId: string, options?: RequestOptions): APIPromise<Deleted>;
  /** Issues a new secret; with `grace_period_s` (default: the server's) the old one keeps signing beside it for that long. */
  rotateSecret(uuid: string, endpointId: string, body?: RotateSecretBody, options?: RequestOptions): APIPromise<RotatedSecret>;
  /** Queues a test event (`test: true`) to the endpoint and resolves to its delivery. */
  sendTest(uuid: string, endpointId: string, body?: SendTestEventBody, options?: RequestOptions): APIPromise<Delivery>;
  /** The endpoint's deliveries, oldest first, each with its attempts: await it for a page, `for await` it for every delivery. */
  deliveries(uuid: string, endpointId: string, params?: DeliveryListParams, options?: ListCallOptions): PagePromise<Delivery, DeliveryPage>;
  /** Queues a delivery again, whatever its status, and resolves to it. */
  redeliver(uuid: string, endpointId: string, deliveryId: string, options?: RequestOptions): APIPromise<Delivery>;
  // </generated>
}

/** The same methods with the uuid already given. */
export type BoundToCompany<T> = {
  [K in keyof T]: T[K] extends (uuid: string, ...rest: infer A) => infer R ? (...rest: A) => R : never;
};

/** The company client's own webhook endpoints (`client.webhookEndpoints`): the methods of `CompanyWebhookEndpoints` without the uuid. */
export type WebhookEndpoints = BoundToCompany<CompanyWebhookEndpoints>;

/**
 * The webhook endpoint methods, sent through `api` (an openapi-fetch client on `baseUrl`); `name`
 * prefixes argument errors (`webhookEndpoints.get needs ...`).
 */
export function createWebhookEndpoints(t: Transport, api: ContractClient, name: string): CompanyWebhookEndpoints {
  const company = (method: string, uuid: string) => required(`${name}.${method}`, 'the company uuid', uuid);
  const endpoint = (method: string, uuid: string, id: string) => ({
    uuid: company(method, uuid),
    id: required(`${name}.${method}`, 'an endpoint id', id),
  });
  return {
    create: (uuid, body, options) =>
      one(t, 'createWebhook', options, (init) =>
        api.POST('/api/v2/companies/{uuid}/webhooks', { ...init, params: { path: { uuid: company('create', uuid) } }, body }),
      ),
    list: (uuid, params, options) =>
      paginatedList(t, 'listWebhooks', options, params?.page, (page, init) =>
        api.GET('/api/v2/companies/{uuid}/webhooks', { ...init, params: { path: { uuid: company('list', uuid) }, query: { ...params, page } } }),
      ),
    get: (uuid, id, options) =>
      one(t, 'getWebhook', options, (init) => api.GET('/api/v2/companies/{uuid}/webhooks/{id}', { ...init, params: { path: endpoint('get', uuid, id) } })),
    update: (uuid, id, body, options) =>
      one(t, 'updateWebhook', options, (init) =>
        api.PATCH('/api/v2/companies/{uuid}/webhooks/{id}', { ...init, params: { path: endpoint('update', uuid, id) }, body }),
      ),
    delete: (uuid, id, options) =>
      one(t, 'deleteWebhook', options, (init) =>
        api.DELETE('/api/v2/companies/{uuid}/webhooks/{id}', { ...init, params: { path: endpoint('delete', uuid, id) } }),
      ),
    rotateSecret: (uuid, id, body, options) =>
      one(t, 'rotateWebhookSecret', options, (init) =>
        api.POST('/api/v2/companies/{uuid}/webhooks/{id}/rotate-secret', { ...init, params: { path: endpoint('rotateSecret', uuid, id) }, body: body ?? {} }),
      ),
    sendTest: (uuid, id, body, options) =>
      one(t, 'sendTestEvent', options, (init) =>
        api.POST('/api/v2/companies/{uuid}/webhooks/{id}/test', { ...init, params: { path: endpoint('sendTest', uuid, id) }, body: body ?? {} }),
      ),
    deliveries: (uuid, id, params, options) =>
      paginatedList(t, 'listWebhookDeliveries', options, params?.page, (page, init) =>
        api.GET('/api/v2/companies/{uuid}/webhooks/{id}/deliveries', {
          ...init,
          params: { path: endpoint('deliveries', uuid, id), query: { ...params, page } },
        }),
      ),
    redeliver: (uuid, id, deliveryId, options) =>
      one(t, 'redeliverWebhookDelivery', options, (init) =>
        api.POST('/api/v2/companies/{uuid}/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          ...init,
          params: { path: { ...endpoint('redeliver', uuid, id), deliveryId: required(`${name}.redeliver`, 'a delivery id', deliveryId) } },
        }),
      ),
  };
}

/** `methods` with `uuid` given: the company client's `webhookEndpoints`. */
export function bindToCompany(methods: CompanyWebhookEndpoints, uuid: string): WebhookEndpoints {
  const bound: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(methods)) bound[key] = (...rest: unknown[]) => (method as (...a: unknown[]) => unknown)(uuid, ...rest);
  return bound as WebhookEndpoints;
}
