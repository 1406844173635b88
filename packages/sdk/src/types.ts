/**
 * The API's resource and body types, named, from the contract's generated `paths` (no runtime code).
 * The build inlines those types into the SDK's `.d.ts`, so users need no `@engagekit/contract`.
 */
import type { components, operations, paths } from '@engagekit/contract/paths';

export type { components, operations, paths };

type Schemas = components['schemas'];
type Json<Op extends keyof operations, Status extends number> =
  operations[Op]['responses'] extends Record<Status, { content: { 'application/json': infer B } }> ? B : never;

/** A broadcast campaign. */
export type Campaign = Schemas['Campaign'];
/** The body of `campaigns.create`. */
export type CreateCampaignBody = Schemas['NewCampaign'];
/** `page` and `limit` of `campaigns.list` (page from 1, limit 1..100, default 10). */
export type CampaignListParams = Omit<operations['getCampaignData']['parameters']['query'], 'uuid'>;
/** The envelope of one page of campaigns. */
export type CampaignListResponse = Schemas['CampaignListEnvelope'];
/** Where a campaign page sits: `{ total, page, limit, totalPages }`. */
export type Pagination = Schemas['Pagination'];

/** A customer: a person the company's orders name, or one imported. */
export type Customer = Schemas['Customer'];
/** `page` and `limit` of `customers.list`. */
export type CustomerListParams = Omit<operations['getCustomers']['parameters']['query'], 'uuid'>;
/** The envelope of one page of customers. */
export type CustomerListResponse = Schemas['CustomerListEnvelope'];
/** Previous and next page numbers of a customer page. */
export type Paging = Schemas['Paging'];

/** An order as stored. */
export type Order = Json<'addOrder', 201>['data'];
/** The body of `orders.add`: inserted, or updated when `(company_id, company_order_id)` exists. */
export type AddOrderBody = Schemas['NewOrder'];
/** The body of `orders.update`: `company_id` is required and never changes; every other field is optional. */
export type UpdateOrderBody = Schemas['OrderChanges'];

/** A WhatsApp template as stored. */
export type Template = Schemas['Template'];
/** The body of `templates.submit`. */
export type SubmitTemplateBody = Schemas['TemplateSubmission'];
/** Where a template stands at WhatsApp: `submitted`, `approved`, `rejected`, `paused`, `disabled`, or `failed` (no `wam_id`). */
export type TemplateStatus = Schemas['TemplateStatus'];
/** `page` and `limit` of `templates.list`. */
export type TemplateListParams = NonNullable<operations['listTemplates']['parameters']['query']>;
/** The envelope of one page of templates. */
export type TemplateListResponse = Schemas['TemplateListEnvelope'];

/** The company report: campaigns, message outcomes, customers and orders. */
export type Report = Schemas['Report'];
/** What `agency.sync` changed. */
export type SyncResult = Schemas['SyncResult'];

/** A webhook endpoint of a company, with its current secret (`whsec_...`). */
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
/** The body of `webhookEndpoints.create`: `url`, and optionally `events`, `description`, `enabled`. */
export type CreateWebhookEndpointBody = Schemas['NewWebhookEndpoint'];
/** The body of `webhookEndpoints.update`: the fields to change. */
export type UpdateWebhookEndpointBody = Schemas['WebhookEndpointChanges'];
/** `page` and `limit` of `webhookEndpoints.list`. */
export type WebhookEndpointListParams = NonNullable<operations['listWebhooks']['parameters']['query']>;
/** The envelope of one page of webhook endpoints. */
export type WebhookEndpointListResponse = Schemas['WebhookListEnvelope'];
/** The body of `webhookEndpoints.rotateSecret`: `grace_period_s`, how long the old secret still signs. */
export type RotateSecretBody = Schemas['SecretRotation'];
/** A rotated secret: the new one, and when the previous one stops signing. */
export type RotatedSecret = Schemas['RotatedSecret'];
/** The body of `webhookEndpoints.sendTest`: the `event_type` to send. */
export type SendTestEventBody = Schemas['TestEventRequest'];
/** A webhook delivery: one event to one endpoint, with every attempt. */
export type Delivery = Schemas['Delivery'];
/** `page`, `limit` and `status` of `webhookEndpoints.deliveries`. */
export type DeliveryListParams = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
/** The envelope of one page of deliveries. */
export type DeliveryListResponse = Schemas['DeliveryListEnvelope'];
/** What `webhookEndpoints.delete` resolves to. */
export type Deleted = Schemas['Deleted'];

/** A company, as the admin API shows it. */
export type Company = Schemas['Company'];
/** The body of `companies.create`. */
export type CreateCompanyBody = Schemas['NewCompany'];
/** `page` and `limit` of `companies.list`. */
export type CompanyListParams = NonNullable<operations['listCompanies']['parameters']['query']>;
/** The envelope of one page of companies. */
export type CompanyListResponse = Schemas['CompanyListEnvelope'];
/** The body of `companies.tokens.create`: optional `scopes` and `expires_in`. */
export type CreateTokenBody = Schemas['TokenRequest'];
/** A company token (a JWT), its id and when it expires. */
export type Token = Schemas['Token'];
/** A token as the server keeps it (never its text): its id, scopes, times and `revoked_at`. */
export type IssuedToken = Schemas['IssuedToken'];
/** `page` and `limit` of `companies.tokens.list`. */
export type TokenListParams = NonNullable<operations['listTokens']['parameters']['query']>;
/** What `companies.tokens.revokeAll` resolves to: the company's new valid-after time and how many listed tokens it revoked. */
export type TokensRevoked = Schemas['TokensRevoked'];
/** The body of `companies.customers.import`. */
export type ImportCustomersBody = Schemas['CustomerImportBatch'];
/** What `companies.customers.import` imported. */
export type ImportCustomersResult = Schemas['ImportCustomersResult'];
/** What `health()` resolves to. */
export type Health = Schemas['Health'];
/** What `liveness()` resolves to. */
export type Liveness = Schemas['Liveness'];
/** What `readiness()` resolves to. */
export type Readiness = Schemas['Readiness'];

/** The error envelope of every 4xx and 5xx answer. */
export type ErrorResponse = Schemas['ErrorEnvelope'];

/** The operationIds of the contract. */
export type OperationId = keyof operations;
