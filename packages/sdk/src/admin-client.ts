/** `createAdminClient`: the operator's client, with the admin token: companies, their tokens, customers and webhook endpoints. */
import type { APIPromise } from './api-promise.ts';
import { campaignControl } from './campaign-controls.ts';
import type { ClientOptions } from './client.ts';
import { type ApiClient, exact } from './internal/api-client.ts';
import { one, type PaginatedPage, paginatedList, required } from './internal/calls.ts';
import type { RequestOptions } from './internal/request.ts';
import { check, createTransport } from './internal/setup.ts';
import type { ListOptions, PagePromise } from './pagination.ts';
import type {
  Campaign,
  Company,
  CompanyListParams,
  CreateCompanyBody,
  CreateTokenBody,
  Health,
  ImportCustomersBody,
  ImportCustomersResult,
  IssuedToken,
  Liveness,
  Readiness,
  Token,
  TokenListParams,
  TokensRevoked,
} from './types.ts';
import { type CompanyWebhookEndpoints, createWebhookEndpoints } from './webhook-endpoints.ts';

/** Options of `createAdminClient`: those of `createClient` with `adminToken` in place of `token` and `uuid`. */
export interface AdminClientOptions extends Omit<ClientOptions, 'token' | 'uuid' | 'orderBaseUrl' | 'webhookSecret'> {
  /** The admin token the server was started with (`ADMIN_TOKEN`), sent as `Authorization: Bearer`. */
  adminToken: string;
}

/** A page of companies, with the answer's `pagination`. */
export interface CompanyPage extends PaginatedPage<Company> {}

/** A page of a company's tokens, with the answer's `pagination`. */
export interface TokenPage extends PaginatedPage<IssuedToken> {}

/** The admin client `createAdminClient` returns. Every method takes request options last. */
export interface EngageAdminClient {
  // <generated from="src/methods.ts" table="adminMethods"> (`pnpm --filter @engagekit/sdk generate`)
  companies: {
    /** Creates a company; a `company_id` already taken rejects with `ConflictError`. */
    create(body: CreateCompanyBody, options?: RequestOptions): APIPromise<Company>;
    /** One company; an unknown uuid rejects with `NotFoundError`. */
    get(uuid: string, options?: RequestOptions): APIPromise<Company>;
    /** Lists companies oldest first: await it for a page, `for await` it for every company. */
    list(params?: CompanyListParams, options?: RequestOptions & ListOptions): PagePromise<Company, CompanyPage>;
    tokens: {
      /** Issues a company token (a JWT) for `createClient`; its `id` is what `revoke` takes. */
      create(uuid: string, body?: CreateTokenBody, options?: RequestOptions): APIPromise<Token>;
      /** Lists the company's tokens oldest first (never their text): await it for a page, `for await` it for every token. */
      list(uuid: string, params?: TokenListParams, options?: RequestOptions & ListOptions): PagePromise<IssuedToken, TokenPage>;
      /** Revokes one token by its id: every instance refuses it within 5 s. An unknown id rejects with `NotFoundError`. */
      revoke(uuid: string, tokenId: string, options?: RequestOptions): APIPromise<IssuedToken>;
      /** Revokes every token of the company issued until now, listed or not: every instance refuses them within 5 s. */
      revokeAll(uuid: string, options?: RequestOptions): APIPromise<TokensRevoked>;
    };
    campaigns: {
      /** Pauses one of the company's campaigns, scheduled or running (a paused one resolves as it is). Another status rejects with `ConflictError`. */
      pause(uuid: string, id: string, options?: RequestOptions): APIPromise<Campaign>;
      /** Resumes one of the company's paused campaigns. A completed, failed or cancelled one rejects with `ConflictError`. */
      resume(uuid: string, id: string, options?: RequestOptions): APIPromise<Campaign>;
      /** Cancels one of the company's campaigns for good (a cancelled one resolves as it is). A completed or failed one rejects with `ConflictError`. */
      cancel(uuid: string, id: string, options?: RequestOptions): APIPromise<Campaign>;
    };
    customers: {
      /** Imports customers into the company (upserted by phone number). */
      import(uuid: string, body: ImportCustomersBody, options?: RequestOptions): APIPromise<ImportCustomersResult>;
    };
    /** Any company's webhook endpoints: the company client's `webhookEndpoints` methods, the company uuid first. */
    webhookEndpoints: CompanyWebhookEndpoints;
  };
  /** Whether the server is up (needs no token). */
  health(options?: RequestOptions): APIPromise<Health>;
  /** Whether the process serves: `{ status: "live" }` (needs no token). */
  liveness(options?: RequestOptions): APIPromise<Liveness>;
  /** Whether the instance takes traffic: `{ status: "ready" }`, else an `APIError` with status 503 (its database does not answer, or it drains) (needs no token). */
  readiness(options?: RequestOptions): APIPromise<Readiness>;
  // </generated>
  /** The openapi-fetch client on `baseUrl` that the methods above send through (the admin token, retries, timeout, log): any path of the contract. */
  api: ApiClient;
}

/**
 * Creates a client for the admin API, with the same transport, retries, errors and pagination as `createClient`.
 *
 * @example
 * import { createAdminClient } from '@engagekit/sdk/admin';
 * import { createClient } from '@engagekit/sdk';
 * const admin = createAdminClient({ baseUrl: 'https://api.example.com', adminToken: process.env.ENGAGEKIT_ADMIN_TOKEN });
 * const company = await admin.companies.create({ name: 'Verma Retail' });
 * const { token } = await admin.companies.tokens.create(company.uuid);
 * const client = createClient({ baseUrl: 'https://api.example.com', token, uuid: company.uuid });
 */
export function createAdminClient(options: AdminClientOptions): EngageAdminClient {
  const where = 'createAdminClient';
  check(where, typeof options === 'object' && options !== null, 'pass an options object: createAdminClient({ baseUrl, adminToken })');
  check(
    where,
    typeof options.adminToken === 'string' && options.adminToken.length > 0,
    'adminToken is required: the admin token the server was started with (ADMIN_TOKEN)',
  );
  const t = createTransport(where, options, options.adminToken);
  const api = t.client(options.baseUrl);
  const admin = exact(api);
  const company = (method: string, uuid: string) => required(`companies.${method}`, 'a company uuid', uuid);
  const control = campaignControl(t, admin, 'companies.campaigns');
  return {
    companies: {
      create: (body, o) => one(t, 'createCompany', o, (init) => admin.POST('/api/v2/companies', { ...init, body })),
      get: (uuid, o) => one(t, 'getCompany', o, (init) => admin.GET('/api/v2/companies/{uuid}', { ...init, params: { path: { uuid: company('get', uuid) } } })),
      list: (params, o) =>
        paginatedList(t, 'listCompanies', o, params?.page, (page, init) => admin.GET('/api/v2/companies', { ...init, params: { query: { ...params, page } } })),
      tokens: {
        create: (uuid, body, o) =>
          one(t, 'createToken', o, (init) =>
            admin.POST('/api/v2/companies/{uuid}/tokens', { ...init, params: { path: { uuid: company('tokens.create', uuid) } }, body: body ?? {} }),
          ),
        list: (uuid, params, o) =>
          paginatedList(t, 'listTokens', o, params?.page, (page, init) =>
            admin.GET('/api/v2/companies/{uuid}/tokens', { ...init, params: { path: { uuid: company('tokens.list', uuid) }, query: { ...params, page } } }),
          ),
        revoke: (uuid, tokenId, o) =>
          one(t, 'revokeToken', o, (init) =>
            admin.DELETE('/api/v2/companies/{uuid}/tokens/{tokenId}', {
              ...init,
              params: { path: { uuid: company('tokens.revoke', uuid), tokenId: required('companies.tokens.revoke', 'a token id', tokenId) } },
            }),
          ),
        revokeAll: (uuid, o) =>
          one(t, 'revokeCompanyTokens', o, (init) =>
            admin.DELETE('/api/v2/companies/{uuid}/tokens', { ...init, params: { path: { uuid: company('tokens.revokeAll', uuid) } } }),
          ),
      },
      campaigns: {
        pause: (uuid, id, o) => control('pause', uuid, id, o),
        resume: (uuid, id, o) => control('resume', uuid, id, o),
        cancel: (uuid, id, o) => control('cancel', uuid, id, o),
      },
      customers: {
        import: (uuid, body, o) =>
          one(t, 'importCustomers', o, (init) =>
            admin.POST('/api/v2/companies/{uuid}/customers', { ...init, params: { path: { uuid: company('customers.import', uuid) } }, body }),
          ),
      },
      webhookEndpoints: createWebhookEndpoints(t, admin, 'companies.webhookEndpoints'),
    },
    health: (o) => one(t, 'getHealth', o, (init) => admin.GET('/api/v2/health', { ...init })),
    liveness: (o) => one(t, 'getLiveness', o, (init) => admin.GET('/api/v2/health/live', { ...init })),
    readiness: (o) => one(t, 'getReadiness', o, (init) => admin.GET('/api/v2/health/ready', { ...init })),
    api,
  };
}
