/** The typed engagekit client's interface (what `createClient` returns), its options and its pages. */
import type { APIPromise } from './api-promise.ts';
import type { ApiClient } from './internal/api-client.ts';
import type { PaginatedPage } from './internal/calls.ts';
import type { Logger, LogLevel } from './internal/log.ts';
import type { RequestOptions, ResponseValidator } from './internal/request.ts';
import type { FetchLike } from './internal/transport.ts';
import type { ListOptions, Page, PagePromise } from './pagination.ts';
import type {
  AddOrderBody,
  Campaign,
  CampaignListParams,
  Company,
  CreateCampaignBody,
  Customer,
  CustomerListParams,
  Order,
  Pagination,
  Paging,
  Report,
  SubmitTemplateBody,
  SyncResult,
  Template,
  TemplateListParams,
  UpdateOrderBody,
} from './types.ts';
import type { WebhookEndpoints } from './webhook-endpoints.ts';
import type { VerifyWebhookOptions, WebhookBody, WebhookEvent, WebhookHeaders } from './webhooks.ts';

export type { FetchLike, Logger, LogLevel, RequestOptions, ResponseValidator };

/** Options of `createClient`. */
export interface ClientOptions {
  /** The API's base URL, e.g. `https://api.example.com` (agency calls, and order calls unless `orderBaseUrl` is set). */
  baseUrl: string;
  /** Where order calls go when the order surface has its own host or port; defaults to `baseUrl`. */
  orderBaseUrl?: string;
  /** The company token (a JWT from the admin API), sent as `Authorization: Bearer`. */
  token: string;
  /** The company UUID, sent as the `uuid` query parameter of agency calls. */
  uuid: string;
  /**
   * The fetch to send requests with, called as `fetch(url, init)`: a mock's `fetch`, an instrumented one.
   * Defaults to `globalThis.fetch`, looked up at each call, so a fetch installed later (MSW) is used.
   */
  fetch?: FetchLike;
  /** Retries after a connection error, timeout, 408, 429 or 5xx (default 2). Per call too. */
  maxRetries?: number;
  /** Milliseconds each attempt may take, answer included (default 60000). Per call too. */
  timeout?: number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Called with every successful answer of a resource method before it resolves; throw to reject it.
   * `validateResponse` from `@engagekit/sdk/validate` checks answers against the contract's zod schemas.
   */
  validateResponse?: ResponseValidator;
  /**
   * The endpoint secret (`whsec_...`) `webhooks.unwrap` verifies with when it is given none; several
   * while rotating.
   */
  webhookSecret?: string | readonly string[];
  /**
   * What the client logs, one line per attempt: `'off'`; `'error'`, calls that failed for good; `'warn'`,
   * also attempts a retry follows (why, and the delay); `'info'`, as `'warn'`; `'debug'`, every attempt.
   * A line holds the method, URL, status (or why no answer came), attempt number, milliseconds taken and
   * `x-request-id`, never headers. Defaults to the `ENGAGEKIT_LOG` environment variable where
   * `process.env` exists, else `'warn'` when `logger` is given, else `'off'`: nothing is logged unless asked.
   *
   * @example
   * createClient({ baseUrl, token, uuid, logLevel: 'debug' });
   * // engagekit: GET https://api.example.com/agency/reportingCampaign?uuid=… 200 (attempt 1, 84 ms, x-request-id req_…)
   */
  logLevel?: LogLevel;
  /** Where log lines go (default `console`): any object with `error`, `warn`, `info` and `debug` methods, such as a pino logger. Each is called with one string. */
  logger?: Logger;
}

/** A page of campaigns: the shared page fields plus the answer's `pagination`. */
export interface CampaignPage extends Page<Campaign> {
  /** `{ total, page, limit, totalPages }` as the API sent it. */
  readonly pagination: Pagination;
}

/** A page of templates, with the answer's `pagination`. */
export interface TemplatePage extends PaginatedPage<Template> {}

/** A page of customers: the shared page fields plus the answer's `paging` (previous and next page numbers). */
export interface CustomerPage extends Page<Customer> {
  /** `{ before, after }` as the API sent it. */
  readonly paging: Paging;
}

/** Options of list calls: request options plus `prefetch`. */
export interface ListRequestOptions extends RequestOptions, ListOptions {}

/** The engagekit client `createClient` returns. Every method takes request options last. */
export interface EngageClient {
  // <generated from="src/methods.ts" table="clientMethods"> (`pnpm --filter @engagekit/sdk generate`)
  company: {
    /** The token's own company, with its `company_id` (what order calls name); needs the `agency` scope. */
    get(options?: RequestOptions): APIPromise<Company>;
  };
  agency: {
    /** Re-derives customers from orders and refreshes campaign statuses and report aggregates. */
    sync(options?: RequestOptions): APIPromise<SyncResult>;
  };
  templates: {
    /** Stores or updates the template `(template_name, phone_number)`: `submitted` with `wam_id` (until WhatsApp reports its review), `failed` without. */
    submit(body: SubmitTemplateBody, options?: RequestOptions): APIPromise<Template>;
    /** Lists templates oldest first, each with its status at WhatsApp and its reason: await it for a page, `for await` it for every template. */
    list(params?: TemplateListParams, options?: ListRequestOptions): PagePromise<Template, TemplatePage>;
  };
  campaigns: {
    /** Creates a campaign. A duplicate name rejects with `ConflictError` (never retried). */
    create(body: CreateCampaignBody, options?: RequestOptions): APIPromise<Campaign>;
    /** Lists campaigns oldest first: await it for a page, `for await` it for every campaign. */
    list(params?: CampaignListParams, options?: ListRequestOptions): PagePromise<Campaign, CampaignPage>;
    /** One campaign; an unknown id rejects with `NotFoundError`. */
    get(id: string, options?: RequestOptions): APIPromise<Campaign>;
    /** Pauses a scheduled or running campaign (a paused one resolves as it is); a run stops after the messages in flight. Another status rejects with `ConflictError`. */
    pause(id: string, options?: RequestOptions): APIPromise<Campaign>;
    /** Resumes a paused campaign: its run goes on, or it waits for its run again. A completed, failed or cancelled one rejects with `ConflictError`. */
    resume(id: string, options?: RequestOptions): APIPromise<Campaign>;
    /** Cancels a scheduled, running or paused campaign for good (a cancelled one resolves as it is). A completed or failed one rejects with `ConflictError`. */
    cancel(id: string, options?: RequestOptions): APIPromise<Campaign>;
  };
  customers: {
    /** Lists customers oldest first: await it for a page, `for await` it for every customer. */
    list(params?: CustomerListParams, options?: ListRequestOptions): PagePromise<Customer, CustomerPage>;
  };
  reports: {
    /** The company report. A company without customers rejects with `NotFoundError`. */
    get(options?: RequestOptions): APIPromise<Report>;
  };
  orders: {
    /** Adds an order, or updates it when `(company_id, company_order_id)` exists (`withResponse().status` 201 or 200). */
    add(body: AddOrderBody, options?: RequestOptions): APIPromise<Order>;
    /** Updates the order whose `company_order_id` is `companyOrderId`; an unknown one rejects with `NotFoundError`. */
    update(companyOrderId: string, body: UpdateOrderBody, options?: RequestOptions): APIPromise<Order>;
  };
  // </generated>
  /**
   * The company's webhook endpoints, with its company token: `create`, `list`, `get`, `update`, `delete`,
   * `rotateSecret`, `sendTest`, and each endpoint's `deliveries` and their `redeliver`.
   */
  webhookEndpoints: WebhookEndpoints;
  webhooks: {
    /**
     * Verifies a webhook engagekit sent (as `verifyWebhook` of `@engagekit/sdk/webhooks` does) and resolves
     * to the typed event; rejects with `WebhookVerificationError` when it does not verify. `secret` defaults
     * to the client's `webhookSecret`; with neither it rejects with `EngageError`.
     *
     * @example
     * const event = await client.webhooks.unwrap(await request.text(), request.headers);
     * if (event.type === 'order.created') console.log(event.data.order.company_order_id);
     */
    unwrap(rawBody: WebhookBody, headers: WebhookHeaders, secret?: string | readonly string[], options?: VerifyWebhookOptions): Promise<WebhookEvent>;
  };
  /**
   * The openapi-fetch clients the resource methods send through (same auth, retries, timeout and log),
   * for any path of the contract. They return `{ data, error, response }` instead of throwing on error
   * statuses. Middleware given to their `use` applies to the resource methods' requests too.
   */
  api: {
    /** Agency and admin paths on `baseUrl`. */
    agency: ApiClient;
    /** Order paths on `orderBaseUrl`. */
    orders: ApiClient;
  };
}
