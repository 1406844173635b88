/** `createClient`: the typed engagekit client, its options and its resources. */
import createFetchClient, { type Client } from 'openapi-fetch';
import type { APIPromise } from './api-promise.ts';
import { EngageError } from './errors.ts';
import type { paths } from './generated/paths.ts';
import { checkLimits, createRequester, type RequestOptions, type ResponseValidator } from './internal/request.ts';
import type { FetchLike } from './internal/transport.ts';
import type { ListOptions, Page, PagePromise } from './pagination.ts';
import { createResources } from './resources.ts';
import type {
  AddOrderBody,
  Campaign,
  CampaignListParams,
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
  UpdateOrderBody,
} from './types.ts';

export type { FetchLike, RequestOptions, ResponseValidator };

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
}

/** A page of campaigns: the shared page fields plus the answer's `pagination`. */
export interface CampaignPage extends Page<Campaign> {
  /** `{ total, page, limit, totalPages }` as the API sent it. */
  readonly pagination: Pagination;
}

/** A page of customers: the shared page fields plus the answer's `paging` (previous and next page numbers). */
export interface CustomerPage extends Page<Customer> {
  /** `{ before, after }` as the API sent it. */
  readonly paging: Paging;
}

/** Options of list calls: request options plus `prefetch`. */
export interface ListRequestOptions extends RequestOptions, ListOptions {}

/** The engagekit client `createClient` returns. Every method takes request options last. */
export interface EngageClient {
  agency: {
    /** Re-derives customers from orders and refreshes campaign statuses and report aggregates. */
    sync(options?: RequestOptions): APIPromise<SyncResult>;
  };
  templates: {
    /** Stores or updates the template `(template_name, phone_number)`: `submitted` with `wam_id`, `failed` without. */
    submit(body: SubmitTemplateBody, options?: RequestOptions): APIPromise<Template>;
  };
  campaigns: {
    /** Creates a campaign. A duplicate name rejects with `ConflictError` (never retried). */
    create(body: CreateCampaignBody, options?: RequestOptions): APIPromise<Campaign>;
    /** Lists campaigns oldest first: await it for a page, `for await` it for every campaign. */
    list(params?: CampaignListParams, options?: ListRequestOptions): PagePromise<Campaign, CampaignPage>;
    /** One campaign; an unknown id rejects with `NotFoundError`. */
    get(id: string, options?: RequestOptions): APIPromise<Campaign>;
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
  /**
   * The low-level openapi-fetch clients (same auth, retries and timeout), for anything the resources do not
   * cover. They return `{ data, error, response }` instead of throwing on error statuses.
   */
  api: {
    /** Agency and admin paths on `baseUrl`. */
    agency: Client<paths, 'application/json'>;
    /** Order paths on `orderBaseUrl`. */
    orders: Client<paths, 'application/json'>;
  };
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new EngageError(`createClient: ${message}`);
}

function isAbsoluteUrl(url: unknown): boolean {
  try {
    return typeof url === 'string' && /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Creates a client for one company.
 *
 * @example
 * import { createClient } from '@engagekit/sdk';
 * const client = createClient({ baseUrl: 'https://api.example.com', token: process.env.ENGAGEKIT_TOKEN, uuid: process.env.ENGAGEKIT_UUID });
 * const campaign = await client.campaigns.create({ name: 'Spring', schedule_type: 'once', schedule: '2030-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } });
 */
export function createClient(options: ClientOptions): EngageClient {
  check(typeof options === 'object' && options !== null, 'pass an options object: createClient({ baseUrl, token, uuid })');
  check(isAbsoluteUrl(options.baseUrl), `baseUrl must be an absolute http(s) URL such as https://api.example.com (got ${JSON.stringify(options.baseUrl)})`);
  check(
    options.orderBaseUrl === undefined || isAbsoluteUrl(options.orderBaseUrl),
    `orderBaseUrl must be an absolute http(s) URL (got ${JSON.stringify(options.orderBaseUrl)})`,
  );
  check(typeof options.token === 'string' && options.token.length > 0, 'token is required: the company token issued by the admin API');
  check(typeof options.uuid === 'string' && options.uuid.length > 0, 'uuid is required: the company UUID');
  check(options.fetch === undefined || typeof options.fetch === 'function', 'fetch must be a function called as fetch(url, init)');
  checkLimits('createClient', options);

  const headers = { ...options.headers, authorization: `Bearer ${options.token}` };
  const orderBaseUrl = options.orderBaseUrl ?? options.baseUrl;
  const requester = createRequester({
    baseUrl: options.baseUrl,
    orderBaseUrl,
    headers,
    fetch: options.fetch,
    maxRetries: options.maxRetries ?? 2,
    timeout: options.timeout ?? 60_000,
    validateResponse: options.validateResponse,
  });
  const make = (baseUrl: string) => createFetchClient<paths, 'application/json'>({ baseUrl, headers, fetch: requester.fetchFor(undefined) });
  const api = { agency: make(options.baseUrl), orders: make(orderBaseUrl) };
  return { ...createResources({ uuid: options.uuid, requester }), api };
}
