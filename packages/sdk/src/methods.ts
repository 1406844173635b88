/**
 * The SDK's methods, one row each: the one place a method is declared. Nothing of the built package
 * imports this table. `scripts/generate.ts` writes from it the methods of the client interfaces
 * (`EngageClient` in client.ts, `CompanyWebhookEndpoints` in webhook-endpoints.ts, `EngageAdminClient`
 * in admin-client.ts, each between its `<methods ...>` markers) and the README's method tables, and
 * checks every row against the contract's document (the operation exists, its path parameters, body
 * and paging are the row's). The MCP server's build takes its method list and signatures from it.
 * Each method's code, in resources.ts, webhook-endpoints.ts or admin-client.ts, is typed by the
 * interface written from here, so a row without its code (or code without its row) fails to compile.
 */
import type { OperationId } from './types.ts';

/** A method that calls one operation. Type names are those the interface's file imports (from types.ts). */
interface MethodRow {
  /** The contract's operationId: the HTTP method, path and answer come from the contract. */
  operationId: OperationId;
  /** The method's JSDoc, one line. */
  doc: string;
  /** The names of its path parameters in the signature, in order (the company uuid a client binds left out). */
  args?: readonly string[];
  /** Its JSON body and the type of it; `optional` when the SDK sends `{}` for none. */
  body?: { type: string; optional?: true };
  /** A paged list: the type of its `params` (`page`, `limit`, ...), of its items and of its pages. */
  list?: { params: string; item: string; page: string };
  /** What a call that is not a list resolves to: the envelope's `data`. */
  result?: string;
}

/** A member of a client that is a set of methods declared elsewhere, such as `companies.webhookEndpoints`. */
interface MemberRow {
  /** Its type. */
  type: string;
  /** Its JSDoc, one line. */
  doc: string;
  /** Its row in the README: the call and what it is. */
  readme: readonly [call: string, what: string];
}

/** Rows and groups of rows, by name: `campaigns: { create: ... }` is `campaigns.create`. */
export interface MethodGroup {
  readonly [name: string]: MethodRow | MemberRow | MethodGroup;
}

/** A client's table: its rows, and what its list methods take as options. */
export interface MethodTable {
  /** The type of a list method's options. */
  listOptions: string;
  /** Arguments every method takes first, which the README leaves out (the company client binds them). */
  leading: readonly string[];
  /** Path parameters the client fills in itself, which no signature names (the company client's `uuid`). */
  bound?: readonly string[];
  methods: MethodGroup;
}

/** The company client's own methods (`createClient`), its webhook endpoints aside. */
export const clientMethods: MethodTable = {
  listOptions: 'ListRequestOptions',
  leading: [],
  bound: ['uuid'],
  methods: {
    company: {
      get: {
        operationId: 'getCompany',
        doc: "The token's own company, with its `company_id` (what order calls name); needs the `agency` scope.",
        result: 'Company',
      },
    },
    agency: {
      sync: { operationId: 'sync', doc: 'Re-derives customers from orders and refreshes campaign statuses and report aggregates.', result: 'SyncResult' },
    },
    templates: {
      submit: {
        operationId: 'submitTemplate',
        doc: 'Stores or updates the template `(template_name, phone_number)`: `submitted` with `wam_id` (until WhatsApp reports its review), `failed` without.',
        body: { type: 'SubmitTemplateBody' },
        result: 'Template',
      },
      list: {
        operationId: 'listTemplates',
        doc: 'Lists templates oldest first, each with its status at WhatsApp and its reason: await it for a page, `for await` it for every template.',
        list: { params: 'TemplateListParams', item: 'Template', page: 'TemplatePage' },
      },
    },
    campaigns: {
      create: {
        operationId: 'createCampaign',
        doc: 'Creates a campaign. A duplicate name rejects with `ConflictError` (never retried).',
        body: { type: 'CreateCampaignBody' },
        result: 'Campaign',
      },
      list: {
        operationId: 'getCampaignData',
        doc: 'Lists campaigns oldest first: await it for a page, `for await` it for every campaign.',
        list: { params: 'CampaignListParams', item: 'Campaign', page: 'CampaignPage' },
      },
      get: { operationId: 'getCampaign', doc: 'One campaign; an unknown id rejects with `NotFoundError`.', args: ['id'], result: 'Campaign' },
      pause: {
        operationId: 'pauseCampaign',
        doc: 'Pauses a scheduled or running campaign (a paused one resolves as it is); a run stops after the messages in flight. Another status rejects with `ConflictError`.',
        args: ['id'],
        result: 'Campaign',
      },
      resume: {
        operationId: 'resumeCampaign',
        doc: 'Resumes a paused campaign: its run goes on, or it waits for its run again. A completed, failed or cancelled one rejects with `ConflictError`.',
        args: ['id'],
        result: 'Campaign',
      },
      cancel: {
        operationId: 'cancelCampaign',
        doc: 'Cancels a scheduled, running or paused campaign for good (a cancelled one resolves as it is). A completed or failed one rejects with `ConflictError`.',
        args: ['id'],
        result: 'Campaign',
      },
    },
    customers: {
      list: {
        operationId: 'getCustomers',
        doc: 'Lists customers oldest first: await it for a page, `for await` it for every customer.',
        list: { params: 'CustomerListParams', item: 'Customer', page: 'CustomerPage' },
      },
    },
    reports: {
      get: { operationId: 'reportingCampaign', doc: 'The company report. A company without customers rejects with `NotFoundError`.', result: 'Report' },
    },
    orders: {
      add: {
        operationId: 'addOrder',
        doc: 'Adds an order, or updates it when `(company_id, company_order_id)` exists (`withResponse().status` 201 or 200).',
        body: { type: 'AddOrderBody' },
        result: 'Order',
      },
      update: {
        operationId: 'updateOrder',
        doc: 'Updates the order whose `company_order_id` is `companyOrderId`; an unknown one rejects with `NotFoundError`.',
        args: ['companyOrderId'],
        body: { type: 'UpdateOrderBody' },
        result: 'Order',
      },
    },
  },
};

/**
 * A company's webhook endpoints: the company client's `webhookEndpoints` (its uuid bound) and the admin
 * client's `companies.webhookEndpoints` (the uuid first).
 */
export const webhookEndpointMethods: MethodTable = {
  listOptions: 'ListCallOptions',
  leading: ['uuid'],
  methods: {
    create: {
      operationId: 'createWebhook',
      doc: "Creates an endpoint; it resolves with the endpoint's `secret` (`whsec_...`), which verifies what it receives.",
      body: { type: 'CreateWebhookEndpointBody' },
      result: 'WebhookEndpoint',
    },
    list: {
      operationId: 'listWebhooks',
      doc: 'Lists endpoints oldest first: await it for a page, `for await` it for every endpoint.',
      list: { params: 'WebhookEndpointListParams', item: 'WebhookEndpoint', page: 'WebhookEndpointPage' },
    },
    get: { operationId: 'getWebhook', doc: 'One endpoint; an unknown id rejects with `NotFoundError`.', args: ['endpointId'], result: 'WebhookEndpoint' },
    update: {
      operationId: 'updateWebhook',
      doc: "Changes an endpoint's `url`, `events`, `description` or `enabled`.",
      args: ['endpointId'],
      body: { type: 'UpdateWebhookEndpointBody' },
      result: 'WebhookEndpoint',
    },
    delete: { operationId: 'deleteWebhook', doc: 'Deletes an endpoint: it receives nothing more.', args: ['endpointId'], result: 'Deleted' },
    rotateSecret: {
      operationId: 'rotateWebhookSecret',
      doc: "Issues a new secret; with `grace_period_s` (default: the server's) the old one keeps signing beside it for that long.",
      args: ['endpointId'],
      body: { type: 'RotateSecretBody', optional: true },
      result: 'RotatedSecret',
    },
    sendTest: {
      operationId: 'sendTestEvent',
      doc: 'Queues a test event (`test: true`) to the endpoint and resolves to its delivery.',
      args: ['endpointId'],
      body: { type: 'SendTestEventBody', optional: true },
      result: 'Delivery',
    },
    deliveries: {
      operationId: 'listWebhookDeliveries',
      doc: "The endpoint's deliveries, oldest first, each with its attempts: await it for a page, `for await` it for every delivery.",
      args: ['endpointId'],
      list: { params: 'DeliveryListParams', item: 'Delivery', page: 'DeliveryPage' },
    },
    redeliver: {
      operationId: 'redeliverWebhookDelivery',
      doc: 'Queues a delivery again, whatever its status, and resolves to it.',
      args: ['endpointId', 'deliveryId'],
      result: 'Delivery',
    },
  },
};

/** The admin client's methods (`createAdminClient`). */
export const adminMethods: MethodTable = {
  listOptions: 'RequestOptions & ListOptions',
  leading: [],
  methods: {
    companies: {
      create: {
        operationId: 'createCompany',
        doc: 'Creates a company; a `company_id` already taken rejects with `ConflictError`.',
        body: { type: 'CreateCompanyBody' },
        result: 'Company',
      },
      get: { operationId: 'getCompany', doc: 'One company; an unknown uuid rejects with `NotFoundError`.', args: ['uuid'], result: 'Company' },
      list: {
        operationId: 'listCompanies',
        doc: 'Lists companies oldest first: await it for a page, `for await` it for every company.',
        list: { params: 'CompanyListParams', item: 'Company', page: 'CompanyPage' },
      },
      tokens: {
        create: {
          operationId: 'createToken',
          doc: 'Issues a company token (a JWT) for `createClient`; its `id` is what `revoke` takes.',
          args: ['uuid'],
          body: { type: 'CreateTokenBody', optional: true },
          result: 'Token',
        },
        list: {
          operationId: 'listTokens',
          doc: "Lists the company's tokens oldest first (never their text): await it for a page, `for await` it for every token.",
          args: ['uuid'],
          list: { params: 'TokenListParams', item: 'IssuedToken', page: 'TokenPage' },
        },
        revoke: {
          operationId: 'revokeToken',
          doc: 'Revokes one token by its id: every instance refuses it within 5 s. An unknown id rejects with `NotFoundError`.',
          args: ['uuid', 'tokenId'],
          result: 'IssuedToken',
        },
        revokeAll: {
          operationId: 'revokeCompanyTokens',
          doc: 'Revokes every token of the company issued until now, listed or not: every instance refuses them within 5 s.',
          args: ['uuid'],
          result: 'TokensRevoked',
        },
      },
      campaigns: {
        pause: {
          operationId: 'pauseCampaign',
          doc: "Pauses one of the company's campaigns, scheduled or running (a paused one resolves as it is). Another status rejects with `ConflictError`.",
          args: ['uuid', 'id'],
          result: 'Campaign',
        },
        resume: {
          operationId: 'resumeCampaign',
          doc: "Resumes one of the company's paused campaigns. A completed, failed or cancelled one rejects with `ConflictError`.",
          args: ['uuid', 'id'],
          result: 'Campaign',
        },
        cancel: {
          operationId: 'cancelCampaign',
          doc: "Cancels one of the company's campaigns for good (a cancelled one resolves as it is). A completed or failed one rejects with `ConflictError`.",
          args: ['uuid', 'id'],
          result: 'Campaign',
        },
      },
      customers: {
        import: {
          operationId: 'importCustomers',
          doc: 'Imports customers into the company (upserted by phone number).',
          args: ['uuid'],
          body: { type: 'ImportCustomersBody' },
          result: 'ImportCustomersResult',
        },
      },
      webhookEndpoints: {
        type: 'CompanyWebhookEndpoints',
        doc: "Any company's webhook endpoints: the company client's `webhookEndpoints` methods, the company uuid first.",
        readme: ['companies.webhookEndpoints.*(uuid, ...)', 'the `webhookEndpoints` methods above, the company uuid first'],
      },
    },
    health: { operationId: 'getHealth', doc: 'Whether the server is up (needs no token).', result: 'Health' },
    liveness: { operationId: 'getLiveness', doc: 'Whether the process serves: `{ status: "live" }` (needs no token).', result: 'Liveness' },
    readiness: {
      operationId: 'getReadiness',
      doc: 'Whether the instance takes traffic: `{ status: "ready" }`, else an `APIError` with status 503 (its database does not answer, or it drains) (needs no token).',
      result: 'Readiness',
    },
  },
};

/** A method of a table with its full name (`campaigns.create`) and how it is called without the leading arguments. */
interface NamedMethod {
  name: string;
  row: MethodRow;
  /** The arguments before the request options: path parameters, `body` or `body?`, `params?`. */
  params: string[];
  /** For a list: the position of its `params` argument (where `page` goes). */
  pageParamsIndex?: number;
}

/** Whether a row is a method (rather than a member or a group). */
export const isMethod = (row: MethodRow | MemberRow | MethodGroup): row is MethodRow => 'operationId' in row && typeof row.operationId === 'string';

/** Whether a row is a member declared elsewhere. */
export const isMember = (row: MethodRow | MemberRow | MethodGroup): row is MemberRow => 'readme' in row && Array.isArray(row.readme);

/** Every method of a group, in order, its name prefixed by `prefix` (`webhookEndpoints.`). */
export function methodsOf(group: MethodGroup, prefix = ''): NamedMethod[] {
  const out: NamedMethod[] = [];
  for (const [key, row] of Object.entries(group)) {
    if (isMember(row)) continue;
    if (!isMethod(row)) {
      out.push(...methodsOf(row, `${prefix}${key}.`));
      continue;
    }
    const params = [...(row.args ?? []), ...(row.body ? [row.body.optional ? 'body?' : 'body'] : []), ...(row.list ? ['params?'] : [])];
    out.push({ name: `${prefix}${key}`, row, params, ...(row.list ? { pageParamsIndex: params.length - 1 } : {}) });
  }
  return out;
}

/**
 * The company client's methods as an assistant calls them (the MCP server's bridge): its own, then its
 * webhook endpoints', each with its signature, e.g. `orders.update(companyOrderId, body)`.
 */
export function companyClientMethods(): (NamedMethod & { signature: string })[] {
  return [...methodsOf(clientMethods.methods), ...methodsOf(webhookEndpointMethods.methods, 'webhookEndpoints.')].map((m) => ({
    ...m,
    signature: `${m.name}(${m.params.join(', ')})`,
  }));
}
