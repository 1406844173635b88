import * as z from 'zod';
import { PageQuery, Pagination, Paging, success } from './envelope.ts';
import { defineOperation } from './operation.ts';
import { CompanyUuid } from './primitives.ts';
import { Campaign, CampaignIdParams, CompanyCampaignParams, CreateCampaignBody } from './resources/campaign.ts';
import {
  Company,
  CompanyParams,
  CreateCompanyBody,
  CreateTokenBody,
  Health,
  IssuedToken,
  Liveness,
  Readiness,
  Token,
  TokenParams,
  TokensRevoked,
} from './resources/company.ts';
import { Customer, ImportCustomersBody, ImportCustomersResult } from './resources/customer.ts';
import { AddOrderBody, Order, UpdateOrderBody, UpdateOrderParams } from './resources/order.ts';
import { Report } from './resources/report.ts';
import { SyncResponse } from './resources/sync.ts';
import { SubmitTemplateBody, Template } from './resources/template.ts';
import {
  CreateWebhookBody,
  Deleted,
  Delivery,
  DeliveryListQuery,
  DeliveryParams,
  RotatedSecret,
  RotateSecretBody,
  TestEventBody,
  UpdateWebhookBody,
  WebhookEndpoint,
  WebhookParams,
} from './resources/webhook.ts';

/** The `uuid` query parameter every agency operation takes (the path-prefix form `/{uuid}/agency/...` is accepted too). */
export const UuidQuery = z.object({
  uuid: CompanyUuid.meta({
    description: 'The company UUID. The server also accepts it as a path prefix: `/{uuid}/agency/...`.',
  }),
});

const agency = { surface: 'agency', auth: { kind: 'company', scope: 'agency' }, tags: ['Agency'] } as const;
const order = { surface: 'order', auth: { kind: 'company', scope: 'orders' }, tags: ['Orders'] } as const;
const admin = { surface: 'admin', auth: { kind: 'admin' }, tags: ['Admin'] } as const;
// Webhook endpoints carry order events (customers' names, phones and addresses): the `orders` scope.
const webhooksAdmin = { surface: 'admin', auth: { kind: 'admin-or-company', scope: 'orders' }, tags: ['Webhooks'] } as const;
// A company's templates are agency data: the admin token, or the company's own token with the `agency` scope.
const templatesAdmin = { surface: 'admin', auth: { kind: 'admin-or-company', scope: 'agency' }, tags: ['Agency'] } as const;
// Pausing, resuming and cancelling a campaign: the admin token, or the company's own token with the `agency` scope.
const campaignsAdmin = { surface: 'admin', auth: { kind: 'admin-or-company', scope: 'agency' }, tags: ['Agency'] } as const;
// A company reads itself (its company_id, for order calls): the admin token, or its own token with the `agency` scope.
const companyAdmin = { surface: 'admin', auth: { kind: 'admin-or-company', scope: 'agency' }, tags: ['Admin'] } as const;

const CampaignList = z
  .object({
    success: z.literal(true),
    message: z.string().meta({ example: 'Campaigns retrieved successfully.' }),
    data: z.array(Campaign),
    pagination: Pagination,
  })
  .meta({ id: 'CampaignListEnvelope' });

const CustomerList = z
  .object({
    success: z.literal(true),
    message: z.string().meta({ example: 'Customer data fetched successfully' }),
    data: z.array(Customer),
    paging: Paging,
    total: z.int().min(0).meta({ description: 'Customers in the whole list.', example: 40 }),
  })
  .meta({ id: 'CustomerListEnvelope' });

const pagedAdmin = <T extends z.ZodType>(item: T, id: string, message: string) =>
  z.object({ success: z.literal(true), message: z.string().meta({ example: message }), data: z.array(item), pagination: Pagination }).meta({ id });

// Envelopes used by more than one operation are built once, so each is one component.
const OrderEnvelope = success(Order, 'Order created successfully.', 'OrderEnvelope');
const CampaignEnvelope = success(Campaign, 'Successfully fetched campaign data.', 'CampaignEnvelope');
const CompanyEnvelope = success(Company, 'Company retrieved successfully.', 'CompanyEnvelope');
const WebhookEnvelope = success(WebhookEndpoint, 'Webhook retrieved successfully.', 'WebhookEnvelope');
const DeliveryEnvelope = success(Delivery, 'Delivery queued.', 'DeliveryEnvelope');

/** Every operation of the API, keyed by operationId. */
export const operations = {
  // ---- Agency -------------------------------------------------------------------------------------
  sync: defineOperation({
    ...agency,
    operationId: 'sync',
    method: 'post',
    path: '/agency/sync',
    summary: 'Sync the company',
    description:
      'Re-derives customers from orders, refreshes campaign statuses and report aggregates, and answers with what changed. The answer carries `status: true` beside `success`, as the public docs show.',
    query: UuidQuery,
    responses: { 200: { description: 'Sync Complete.', schema: SyncResponse } },
    errors: [],
  }),
  submitTemplate: defineOperation({
    ...agency,
    operationId: 'submitTemplate',
    method: 'post',
    path: '/agency/template',
    summary: 'Submit a template',
    description:
      'Stores or updates the template `(template_name, phone_number)`. With `wam_id` its status is `submitted` until WhatsApp reports its review (`approved`, `rejected`, `paused`, `disabled`); without it, `failed` with a reason.',
    query: UuidQuery,
    body: SubmitTemplateBody,
    responses: {
      200: { description: 'Template data processed successfully.', schema: success(Template, 'Template data processed successfully', 'TemplateEnvelope') },
    },
    errors: [],
  }),
  listTemplates: defineOperation({
    ...templatesAdmin,
    operationId: 'listTemplates',
    method: 'get',
    path: '/api/v2/companies/{uuid}/templates',
    summary: 'List templates',
    description:
      'The company’s templates, oldest first (by creation time, then in the order they were made), each with its status at WhatsApp and the reason of a failure, rejection or flag.',
    params: CompanyParams,
    query: PageQuery,
    responses: {
      200: { description: 'One page of templates.', schema: pagedAdmin(Template, 'TemplateListEnvelope', 'Templates retrieved successfully.') },
    },
    errors: [],
  }),
  createCampaign: defineOperation({
    ...agency,
    operationId: 'createCampaign',
    method: 'post',
    path: '/agency/createCampaign',
    summary: 'Create a campaign',
    description:
      'Creates a broadcast campaign. `days` is required for `recurring`. Every variable the template declares in `header_variable` / `body_variable` needs a value in `variables`, and every value must be declared; otherwise the answer is a 400 naming the variable. Names are unique per company (409). A server that sends through WhatsApp also requires the template to be usable: submitted by the company (on any phone number) and not every submission of it `rejected`, `paused`, `disabled` or `failed`; otherwise a 400 with code `template_not_usable`.',
    query: UuidQuery,
    body: CreateCampaignBody,
    responses: { 201: { description: 'The campaign was created.', schema: CampaignEnvelope } },
    errors: [409],
  }),
  getCampaignData: defineOperation({
    ...agency,
    operationId: 'getCampaignData',
    method: 'get',
    path: '/agency/getCampaignData',
    summary: 'List campaigns',
    description: 'Pages through the company’s campaigns, oldest first (in the order they were made), so pages stay stable while new campaigns arrive.',
    query: UuidQuery.extend(PageQuery.shape),
    responses: { 200: { description: 'One page of campaigns.', schema: CampaignList } },
    errors: [],
  }),
  getCampaign: defineOperation({
    ...agency,
    operationId: 'getCampaign',
    method: 'get',
    path: '/agency/getCampaign/{id}',
    summary: 'Get a campaign',
    description: 'One campaign of the company. An unknown id answers 404.',
    params: CampaignIdParams,
    query: UuidQuery,
    responses: { 200: { description: 'The campaign.', schema: CampaignEnvelope } },
    errors: [404],
  }),
  pauseCampaign: defineOperation({
    ...campaignsAdmin,
    operationId: 'pauseCampaign',
    method: 'post',
    path: '/api/v2/companies/{uuid}/campaigns/{id}/pause',
    summary: 'Pause a campaign',
    description:
      'Pauses a `scheduled` or `running` campaign, with `pause_reason` `paused by the company`. A running campaign stops after the messages already in flight; the rest wait, unsent, until `resumeCampaign`. Pausing a paused campaign answers it as it is. Any other status answers 409 with code `campaign_status_conflict`; an unknown id, 404.',
    params: CompanyCampaignParams,
    responses: { 200: { description: 'The campaign, paused.', schema: CampaignEnvelope } },
    errors: [404, 409],
  }),
  resumeCampaign: defineOperation({
    ...campaignsAdmin,
    operationId: 'resumeCampaign',
    method: 'post',
    path: '/api/v2/companies/{uuid}/campaigns/{id}/resume',
    summary: 'Resume a campaign',
    description:
      'Resumes a `paused` campaign: a run it paused goes on (`running`), sending what it had not sent, each customer still messaged at most once a run; a campaign paused before its run waits for it again, due at once when its time passed meanwhile. A campaign that is not paused but waits or runs is answered as it is. A `completed`, `failed` or `cancelled` one answers 409 with code `campaign_status_conflict`; an unknown id, 404.',
    params: CompanyCampaignParams,
    responses: { 200: { description: 'The campaign, resumed.', schema: CampaignEnvelope } },
    errors: [404, 409],
  }),
  cancelCampaign: defineOperation({
    ...campaignsAdmin,
    operationId: 'cancelCampaign',
    method: 'post',
    path: '/api/v2/companies/{uuid}/campaigns/{id}/cancel',
    summary: 'Cancel a campaign',
    description:
      'Cancels a `scheduled`, `running` or `paused` campaign for good: it sends nothing more (a running one stops after the messages already in flight), a recurring one never runs again, `next_run_at` becomes null and `endDate` the day it was cancelled. Cancelling a cancelled campaign answers it as it is. A `completed` or `failed` one answers 409 with code `campaign_status_conflict`; an unknown id, 404.',
    params: CompanyCampaignParams,
    responses: { 200: { description: 'The campaign, cancelled.', schema: CampaignEnvelope } },
    errors: [404, 409],
  }),
  getCustomers: defineOperation({
    ...agency,
    operationId: 'getCustomers',
    method: 'get',
    path: '/agency/getCustomers',
    summary: 'List customers',
    description:
      'Pages through the company’s customers (the people its orders name, keyed by phone number, and any imported), oldest first: by creation time, then in the order they were made (customers imported in one batch come in the batch’s order). `paging` gives the previous and next page numbers.',
    query: UuidQuery.extend(PageQuery.shape),
    responses: { 200: { description: 'One page of customers.', schema: CustomerList } },
    errors: [],
  }),
  reportingCampaign: defineOperation({
    ...agency,
    operationId: 'reportingCampaign',
    method: 'get',
    path: '/agency/reportingCampaign',
    summary: 'Get the campaign report',
    description:
      'Campaign counts by status, message outcomes, customers and orders, with a per-campaign breakdown. A company without customers answers 404 "Users not found with the provided uuid".',
    query: UuidQuery,
    responses: { 200: { description: 'The report.', schema: success(Report, 'Report retrieved successfully.', 'ReportEnvelope') } },
    errors: [404],
  }),

  // ---- Orders -------------------------------------------------------------------------------------
  addOrder: defineOperation({
    ...order,
    operationId: 'addOrder',
    method: 'post',
    path: '/api/order/addOrder',
    summary: 'Add or update an order',
    description:
      'Inserts the order, or updates it when `(company_id, company_order_id)` exists: 201 when created, 200 when updated. `company_id` must be the token’s company (403 otherwise).',
    body: AddOrderBody,
    responses: {
      201: { description: 'The order was created.', schema: OrderEnvelope },
      200: { description: 'The order existed and was updated.', schema: OrderEnvelope },
    },
    errors: [],
  }),
  updateOrder: defineOperation({
    ...order,
    operationId: 'updateOrder',
    method: 'put',
    alsoAccepts: ['patch', 'post'],
    path: '/api/order/updateOrder/{orderId}',
    summary: 'Update an order',
    description:
      'Updates the fields given of the order whose `company_order_id` is `orderId`, within the body’s `company_id`, which must be the token’s company (403 otherwise) and never changes. An unknown order is a 404. PATCH and POST are accepted too.',
    params: UpdateOrderParams,
    body: UpdateOrderBody,
    responses: { 200: { description: 'The updated order.', schema: OrderEnvelope } },
    errors: [404],
  }),

  // ---- Admin --------------------------------------------------------------------------------------
  getHealth: defineOperation({
    ...admin,
    auth: { kind: 'public' },
    operationId: 'getHealth',
    method: 'get',
    path: '/api/v2/health',
    summary: 'Health check',
    description: 'Whether the server and its database answer. Public.',
    responses: { 200: { description: 'The server is up.', schema: success(Health, 'OK', 'HealthEnvelope') } },
    errors: [503],
  }),
  getLiveness: defineOperation({
    ...admin,
    auth: { kind: 'public' },
    operationId: 'getLiveness',
    method: 'get',
    path: '/api/v2/health/live',
    summary: 'Liveness probe',
    description:
      'Answers 200 while the process can serve, without asking the database: a load balancer or orchestrator restarts an instance that stops answering it. Public.',
    responses: { 200: { description: 'The process serves.', schema: success(Liveness, 'OK', 'LivenessEnvelope') } },
    errors: [],
  }),
  getReadiness: defineOperation({
    ...admin,
    auth: { kind: 'public' },
    operationId: 'getReadiness',
    method: 'get',
    path: '/api/v2/health/ready',
    summary: 'Readiness probe',
    description:
      'Answers 200 while the instance takes traffic, and 503 while its database does not answer (`database_unavailable`) or while it drains before it stops (`draining`, for `DRAIN_DELAY_MS` after SIGTERM): a load balancer sends requests only to instances that answer 200. Public.',
    responses: { 200: { description: 'The instance takes traffic.', schema: success(Readiness, 'OK', 'ReadinessEnvelope') } },
    errors: [503],
  }),
  createCompany: defineOperation({
    ...admin,
    operationId: 'createCompany',
    method: 'post',
    path: '/api/v2/companies',
    summary: 'Create a company',
    description: 'Creates a company with a fresh UUID. `company_id` (the code orders carry) is generated when absent and must be unique (409).',
    body: CreateCompanyBody,
    responses: { 201: { description: 'The company.', schema: CompanyEnvelope } },
    errors: [409],
  }),
  listCompanies: defineOperation({
    ...admin,
    operationId: 'listCompanies',
    method: 'get',
    path: '/api/v2/companies',
    summary: 'List companies',
    description: 'Pages through every company, oldest first.',
    query: PageQuery,
    responses: { 200: { description: 'One page of companies.', schema: pagedAdmin(Company, 'CompanyListEnvelope', 'Companies retrieved successfully.') } },
    errors: [],
  }),
  getCompany: defineOperation({
    ...companyAdmin,
    operationId: 'getCompany',
    method: 'get',
    path: '/api/v2/companies/{uuid}',
    summary: 'Get a company',
    description:
      'One company by UUID, with its `company_id` (what order calls name). The admin token reads any company; a company token with the `agency` scope reads its own.',
    params: CompanyParams,
    responses: { 200: { description: 'The company.', schema: CompanyEnvelope } },
    errors: [],
  }),
  createToken: defineOperation({
    ...admin,
    operationId: 'createToken',
    method: 'post',
    path: '/api/v2/companies/{uuid}/tokens',
    summary: 'Issue a company token',
    description:
      'Issues a JWT for the company’s agency and order calls, with scopes (both when none are asked for) and an expiry. The server keeps its `id`, scopes and times (never its text), for `listTokens` and `revokeToken`.',
    params: CompanyParams,
    body: CreateTokenBody,
    responses: { 201: { description: 'The token.', schema: success(Token, 'Token issued.', 'TokenEnvelope') } },
    errors: [],
  }),
  listTokens: defineOperation({
    ...admin,
    operationId: 'listTokens',
    method: 'get',
    path: '/api/v2/companies/{uuid}/tokens',
    summary: 'List a company’s tokens',
    description:
      'Pages through the tokens issued to the company since the server kept them, oldest first: id (`jti`), scopes, times, and `revoked_at`. Never the token text. Tokens issued before tokens were kept are not listed; `revokeCompanyTokens` refuses them too.',
    params: CompanyParams,
    query: PageQuery,
    responses: { 200: { description: 'One page of tokens.', schema: pagedAdmin(IssuedToken, 'IssuedTokenListEnvelope', 'Tokens retrieved successfully.') } },
    errors: [],
  }),
  revokeToken: defineOperation({
    ...admin,
    operationId: 'revokeToken',
    method: 'delete',
    path: '/api/v2/companies/{uuid}/tokens/{tokenId}',
    summary: 'Revoke a token',
    description:
      'Revokes one token by its id (`jti`): within 5 seconds every instance answers it 401 "the token has been revoked". Revoking a revoked token answers it as it is. An id the company has no token of answers 404.',
    params: TokenParams,
    responses: { 200: { description: 'The revoked token.', schema: success(IssuedToken, 'Token revoked.', 'IssuedTokenEnvelope') } },
    errors: [404],
  }),
  revokeCompanyTokens: defineOperation({
    ...admin,
    operationId: 'revokeCompanyTokens',
    method: 'delete',
    path: '/api/v2/companies/{uuid}/tokens',
    summary: 'Revoke every token of a company',
    description:
      'Refuses every token of the company issued until now, listed or not (tokens issued before tokens were kept, and the mock’s ready token, included): the company’s tokens are valid only after `tokens_valid_after`. Within 5 seconds every instance answers them 401 "the token has been revoked". Tokens issued afterwards work.',
    params: CompanyParams,
    responses: { 200: { description: 'What was revoked.', schema: success(TokensRevoked, 'Tokens revoked.', 'TokensRevokedEnvelope') } },
    errors: [],
  }),
  importCustomers: defineOperation({
    ...admin,
    operationId: 'importCustomers',
    method: 'post',
    path: '/api/v2/companies/{uuid}/customers',
    summary: 'Import customers',
    description: 'Adds customers who have no orders yet, keyed by phone number; an existing customer is updated.',
    params: CompanyParams,
    body: ImportCustomersBody,
    responses: { 200: { description: 'What was imported.', schema: success(ImportCustomersResult, 'Customers imported.', 'ImportCustomersEnvelope') } },
    errors: [],
  }),
  createWebhook: defineOperation({
    ...webhooksAdmin,
    operationId: 'createWebhook',
    method: 'post',
    path: '/api/v2/companies/{uuid}/webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'Registers a URL to receive the company’s order events, signed per the Standard Webhooks spec with the returned `secret`. Loopback, private, link-local and metadata addresses are refused unless the server allows private targets. A company has at most 20 endpoints unless the server sets another cap; past it, a 409 with code `too_many_endpoints`.',
    params: CompanyParams,
    body: CreateWebhookBody,
    responses: { 201: { description: 'The endpoint, with its secret.', schema: WebhookEnvelope } },
    errors: [400, 409],
  }),
  listWebhooks: defineOperation({
    ...webhooksAdmin,
    operationId: 'listWebhooks',
    method: 'get',
    path: '/api/v2/companies/{uuid}/webhooks',
    summary: 'List webhook endpoints',
    description:
      'The company’s webhook endpoints, oldest first (by creation time, then in the order they were made: two made in the same millisecond come in that order).',
    params: CompanyParams,
    query: PageQuery,
    responses: {
      200: { description: 'One page of endpoints.', schema: pagedAdmin(WebhookEndpoint, 'WebhookListEnvelope', 'Webhooks retrieved successfully.') },
    },
    errors: [],
  }),
  getWebhook: defineOperation({
    ...webhooksAdmin,
    operationId: 'getWebhook',
    method: 'get',
    path: '/api/v2/companies/{uuid}/webhooks/{id}',
    summary: 'Get a webhook endpoint',
    description: 'One endpoint, with its secret.',
    params: WebhookParams,
    responses: { 200: { description: 'The endpoint.', schema: WebhookEnvelope } },
    errors: [404],
  }),
  updateWebhook: defineOperation({
    ...webhooksAdmin,
    operationId: 'updateWebhook',
    method: 'patch',
    path: '/api/v2/companies/{uuid}/webhooks/{id}',
    summary: 'Update a webhook endpoint',
    description: 'Changes the URL, event filter, description, or enables and disables the endpoint. A disabled endpoint receives nothing.',
    params: WebhookParams,
    body: UpdateWebhookBody,
    responses: { 200: { description: 'The endpoint.', schema: WebhookEnvelope } },
    errors: [400, 404],
  }),
  deleteWebhook: defineOperation({
    ...webhooksAdmin,
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/api/v2/companies/{uuid}/webhooks/{id}',
    summary: 'Delete a webhook endpoint',
    description: 'Deletes the endpoint; pending deliveries to it are dropped.',
    params: WebhookParams,
    responses: { 200: { description: 'Deleted.', schema: success(Deleted, 'Webhook deleted.', 'DeletedEnvelope') } },
    errors: [404],
  }),
  rotateWebhookSecret: defineOperation({
    ...webhooksAdmin,
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/api/v2/companies/{uuid}/webhooks/{id}/rotate-secret',
    summary: 'Rotate a webhook secret',
    description: 'Makes a new signing secret. During the grace period deliveries carry signatures by both the old and the new secret.',
    params: WebhookParams,
    body: RotateSecretBody,
    responses: { 200: { description: 'The new secret.', schema: success(RotatedSecret, 'Secret rotated.', 'RotatedSecretEnvelope') } },
    errors: [404],
  }),
  sendTestEvent: defineOperation({
    ...webhooksAdmin,
    operationId: 'sendTestEvent',
    method: 'post',
    path: '/api/v2/companies/{uuid}/webhooks/{id}/test',
    summary: 'Send a test event',
    description: 'Queues a sample event (`test: true`) to this endpoint, whatever its event filter, and answers with the delivery.',
    params: WebhookParams,
    body: TestEventBody,
    responses: { 202: { description: 'The delivery was queued.', schema: DeliveryEnvelope } },
    errors: [404],
  }),
  listWebhookDeliveries: defineOperation({
    ...webhooksAdmin,
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/api/v2/companies/{uuid}/webhooks/{id}/deliveries',
    summary: 'List deliveries',
    description: 'The delivery log of the endpoint, newest first, with every attempt (status, latency, response excerpt).',
    params: WebhookParams,
    query: DeliveryListQuery,
    responses: { 200: { description: 'One page of deliveries.', schema: pagedAdmin(Delivery, 'DeliveryListEnvelope', 'Deliveries retrieved successfully.') } },
    errors: [404],
  }),
  redeliverWebhookDelivery: defineOperation({
    ...webhooksAdmin,
    operationId: 'redeliverWebhookDelivery',
    method: 'post',
    path: '/api/v2/companies/{uuid}/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    summary: 'Redeliver',
    description: 'Queues the delivery again, now, with the same event id and payload.',
    params: DeliveryParams,
    responses: { 202: { description: 'The delivery was queued again.', schema: DeliveryEnvelope } },
    errors: [404],
  }),
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
export const operationIds = Object.keys(operations) as OperationId[];
