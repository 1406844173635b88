import type { Campaign, Company, Customer, Delivery, EventType, Order, Template, WebhookEndpoint } from '@engagekit/contract';

/**
 * Records as the store keeps them. Timestamps are ISO-8601 UTC strings with milliseconds
 * (`2025-01-15T10:00:00.000Z`); every list is ordered oldest first (by creation, then id).
 */
export type CompanyRecord = Company;

export interface TemplateRecord extends Template {
  company_uuid: string;
}

export interface CampaignRecord extends Omit<Campaign, 'uuid' | 'startDate'> {
  company_uuid: string;
  /** 1, 2, 3... per company in creation order; campaigns are never deleted, so page N is seq in ((N-1)*limit, N*limit]. */
  seq: number;
}

export interface OrderRecord extends Order {
  company_uuid: string;
}

export interface CustomerRecord extends Customer {
  company_uuid: string;
}

export interface EndpointRecord extends WebhookEndpoint {
  company_uuid: string;
  /** Secrets that still sign during a rotation's grace period, with when each stops. */
  previous_secrets: { secret: string; expires_at: string }[];
}

export interface EventRecord {
  id: string;
  company_uuid: string;
  type: EventType;
  /** The whole event payload `{ id, type, created_at, data: { order } }` as it will be sent. */
  payload: Record<string, unknown>;
  created_at: string;
}

export interface DeliveryRecord extends Omit<Delivery, 'attempts'> {
  company_uuid: string;
  attempts: Delivery['attempts'];
}

/** One message of a campaign run to one customer. `pending` until the channel answers. */
export interface MessageRecord {
  id: string;
  company_uuid: string;
  campaign_id: string;
  customer_id: string;
  phone_number: string;
  /** The due time the run is for (ISO): one run per campaign and due time. */
  run_key: string;
  status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed';
  error: string | null;
  provider_message_id: string | null;
  /** The template variables as rendered for this customer. */
  variables: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** Message outcomes as a funnel: `sent` includes delivered and read, `delivered` includes read. */
export interface MessageTotals {
  total: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

/** Adds `n` messages of `status` to funnel totals (`sent` includes delivered and read, `delivered` includes read). */
export function countIntoFunnel(t: MessageTotals, status: string, n: number): void {
  t.total += n;
  if (status === 'sent' || status === 'delivered' || status === 'read') t.sent += n;
  if (status === 'delivered' || status === 'read') t.delivered += n;
  if (status === 'read') t.read += n;
  if (status === 'failed') t.failed += n;
}

/** The campaign-run methods of a Store, which each store implements in a file of its own. */
export type CampaignRunMethods = Pick<
  Store,
  | 'claimDueCampaigns'
  | 'extendCampaignClaim'
  | 'finishCampaignRun'
  | 'insertMessage'
  | 'updateMessage'
  | 'listRunMessages'
  | 'messageTotals'
  | 'releaseExpiredCampaignClaims'
>;

/** What `beginIdempotent` found. */
export type IdempotentBegin = { state: 'new' } | { state: 'replay'; status: number; body: unknown } | { state: 'in_progress' } | { state: 'mismatch' };

/** One attempt of a delivery, as the log keeps it. */
export type DeliveryAttemptRecord = Delivery['attempts'][number];

/** A due delivery a dispatcher has claimed: everything it needs to send it, and the token proving the claim. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  endpoint: Pick<EndpointRecord, 'id' | 'url' | 'secret' | 'previous_secrets'>;
  /** The event payload to send, as stored. */
  payload: Record<string, unknown>;
  claimToken: string;
}

/** How an attempt ended and what happens next. */
export interface AttemptOutcome {
  attempt: DeliveryAttemptRecord;
  /** `succeeded` and `failed` end the delivery; `retry` makes it due again at `nextAttemptAt`. */
  status: 'succeeded' | 'retry' | 'failed';
  nextAttemptAt: string | null;
  /** Disables the endpoint with this reason (its receiver answered 410 Gone). */
  disableEndpoint?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** Page numbers from 1; limit 1..100. */
export interface PageRequest {
  page: number;
  limit: number;
}

/** Order fields as the API takes them (every field but the keys optional, as in updateOrder). */
export type OrderFields = Partial<Omit<Order, 'id' | 'company_id' | 'company_order_id' | 'version' | 'created_at' | 'updated_at'>>;

/** What changed in a sync. */
export interface CustomerSyncResult {
  total: number;
  created: number;
  updated: number;
  removed: number;
}

/** Things the store needs from its caller to write records: ids and the time. */
export interface WriteContext {
  /** A fresh opaque id with the given prefix (`ord`, `cus`, `evt`, `dlv`, ...). */
  newId(prefix: string): string;
  /** Now, as an ISO-8601 UTC string with milliseconds. */
  now: string;
}

/** Thrown when a write breaks a uniqueness rule; `field` names the offending input field. */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
  readonly field: 'company_id' | 'name';
  constructor(field: 'company_id' | 'name', message: string) {
    super(message);
    this.field = field;
  }
}

/**
 * Persistence for the reference server. Two implementations share one conformance suite:
 * memory (the mock) and SQL (PGlite or PostgreSQL). Every method is safe to call concurrently;
 * writes that must be atomic are atomic in both.
 */
export interface Store {
  // ---- settings: small values the server keeps (admin token hash, JWT key) ----
  getSetting(key: string): Promise<string | null>;
  /** Stores `value` unless the key has one already; returns the value that is stored (so concurrent first starts agree). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;

  // ---- companies ----
  /** Throws StoreConflictError('company_id') when the code is taken. */
  createCompany(company: CompanyRecord): Promise<CompanyRecord>;
  getCompany(uuid: string): Promise<CompanyRecord | null>;
  listCompanies(page: PageRequest): Promise<Page<CompanyRecord>>;

  // ---- templates ----
  /** Inserts or updates the template keyed by (company_uuid, template_name, phone_number); keeps id and created_at on update. */
  upsertTemplate(template: TemplateRecord): Promise<TemplateRecord>;
  /** The company's templates, oldest first (by creation, then id). */
  listTemplates(companyUuid: string): Promise<TemplateRecord[]>;

  // ---- campaigns ----
  /** Assigns `seq`; throws StoreConflictError('name') when the company has a campaign of that name (a database constraint, not a read-then-write). */
  createCampaign(campaign: Omit<CampaignRecord, 'seq'>): Promise<CampaignRecord>;
  getCampaign(companyUuid: string, id: string): Promise<CampaignRecord | null>;
  listCampaigns(companyUuid: string, page: PageRequest): Promise<Page<CampaignRecord>>;
  /** Applies the given fields; returns the updated record, or null when unknown. */
  updateCampaign(
    companyUuid: string,
    id: string,
    patch: Partial<Pick<CampaignRecord, 'status' | 'endDate' | 'next_run_at'>>,
    now: string,
  ): Promise<CampaignRecord | null>;
  countCampaignsByStatus(companyUuid: string): Promise<Record<string, number>>;

  // ---- orders (each change also writes its customer and its outbox event, atomically) ----
  /**
   * Inserts the order, or merges the given fields into the existing one with the same
   * (company_uuid, company_order_id): fields absent from `fields` keep their values. Atomic under
   * concurrency: two simultaneous calls with the same key leave one order, one `created: true`.
   * In the same transaction: upserts the customer of the order's phone number (and recounts the
   * customer of its old number when the phone changed), writes an `order.created` or `order.updated`
   * event with the order snapshot, and a pending delivery for every enabled endpoint of the company
   * subscribed to that event type.
   */
  upsertOrder(
    ctx: WriteContext,
    company: CompanyRecord,
    companyOrderId: string,
    fields: OrderFields,
  ): Promise<{ order: OrderRecord; created: boolean; event: EventRecord }>;
  /** Merges `fields` into an existing order (same side effects as upsertOrder); null when it does not exist. */
  updateOrder(
    ctx: WriteContext,
    company: CompanyRecord,
    companyOrderId: string,
    fields: OrderFields,
  ): Promise<{ order: OrderRecord; event: EventRecord } | null>;
  getOrder(companyUuid: string, companyOrderId: string): Promise<OrderRecord | null>;
  /** The company's orders, oldest first (by creation, then id). */
  listOrders(companyUuid: string, page: PageRequest): Promise<Page<OrderRecord>>;
  orderTotals(companyUuid: string): Promise<{ total: number; amount: number }>;

  // ---- customers ----
  listCustomers(companyUuid: string, page: PageRequest): Promise<Page<CustomerRecord>>;
  /** Upserts imported customers by phone number (an existing customer keeps source 'orders' and its counts). */
  importCustomers(
    ctx: WriteContext,
    companyUuid: string,
    customers: { phoneNumber: string; firstName: string; lastName?: string; email?: string }[],
  ): Promise<{ created: number; updated: number }>;
  /** Re-derives customers from orders: names and counts from the orders of each phone number; 'orders' customers with no order left are removed. */
  syncCustomers(ctx: WriteContext, companyUuid: string): Promise<CustomerSyncResult>;

  // ---- webhook endpoints ----
  createEndpoint(endpoint: EndpointRecord): Promise<EndpointRecord>;
  getEndpoint(companyUuid: string, id: string): Promise<EndpointRecord | null>;
  listEndpoints(companyUuid: string, page: PageRequest): Promise<Page<EndpointRecord>>;
  updateEndpoint(
    companyUuid: string,
    id: string,
    patch: Partial<Pick<EndpointRecord, 'url' | 'events' | 'description' | 'enabled' | 'disabled_reason' | 'secret' | 'previous_secrets'>>,
    now: string,
  ): Promise<EndpointRecord | null>;
  /** Deletes the endpoint and its pending deliveries; false when unknown. */
  deleteEndpoint(companyUuid: string, id: string): Promise<boolean>;

  // ---- deliveries ----
  /** Inserts an event and a pending delivery of it to one endpoint (test events, redelivery). */
  enqueueDelivery(ctx: WriteContext, event: EventRecord, endpointId: string): Promise<DeliveryRecord>;
  getDelivery(companyUuid: string, endpointId: string, id: string): Promise<DeliveryRecord | null>;
  getEvent(id: string): Promise<EventRecord | null>;
  /** The company's events (order changes and test events, whether or not an endpoint got them), oldest first. */
  listEvents(companyUuid: string, page: PageRequest): Promise<Page<EventRecord>>;
  /** Newest first. */
  listDeliveries(companyUuid: string, endpointId: string, page: PageRequest & { status?: DeliveryRecord['status'] }): Promise<Page<DeliveryRecord>>;

  // ---- idempotency keys (a retried write answers as the first one did) ----
  /**
   * Claims (scope, key) for a request, or says what became of an earlier one with the same key:
   * `new` (go ahead, then finish or abandon it), `replay` (answer its stored status and body),
   * `in_progress` (it has not finished), or `mismatch` (the key came with another request).
   * Keys older than a day are forgotten.
   */
  beginIdempotent(scope: string, key: string, requestHash: string, now: string): Promise<IdempotentBegin>;
  /** Stores the answer of a request begun with `beginIdempotent`. */
  finishIdempotent(scope: string, key: string, status: number, body: unknown): Promise<void>;
  /** Forgets a begun request that failed without an answer worth keeping, so a retry runs it again. */
  abandonIdempotent(scope: string, key: string): Promise<void>;

  // ---- campaign runs (the scheduler; several instances may share one database) ----
  /**
   * Claims up to `limit` campaigns due to run: status scheduled or running, `next_run_at <= now`, not
   * held by a live lease. Sets them `running`, leased to `claimToken` until `leaseUntil`. Concurrent
   * claimers never get the same campaign; a run whose runner died is claimed again when its lease runs out.
   */
  claimDueCampaigns(claim: { now: string; leaseUntil: string; claimToken: string; limit: number }): Promise<CampaignRecord[]>;
  /** Extends the lease of a campaign still held under `claimToken`; false when the claim was lost. */
  extendCampaignClaim(id: string, claimToken: string, leaseUntil: string): Promise<boolean>;
  /**
   * Ends a run held under `claimToken`: sets status, next_run_at and endDate and releases the lease.
   * False (nothing written) when the claim was lost.
   */
  finishCampaignRun(id: string, claimToken: string, patch: Pick<CampaignRecord, 'status' | 'next_run_at' | 'endDate'>, now: string): Promise<boolean>;
  /** Records a message unless the run already has one for that customer; true when it was inserted. */
  insertMessage(message: MessageRecord): Promise<boolean>;
  /** Sets a message's outcome. */
  updateMessage(id: string, patch: Pick<MessageRecord, 'status' | 'error' | 'provider_message_id'>, now: string): Promise<void>;
  /** The messages of one run (to resume it). */
  listRunMessages(campaignId: string, runKey: string): Promise<MessageRecord[]>;
  /** Message outcome totals of the company, and per campaign with its runs (distinct run keys) and last run. */
  messageTotals(companyUuid: string): Promise<{ company: MessageTotals; campaigns: Map<string, MessageTotals & { runs: number; last_run_at: string | null }> }>;
  /** Releases leases that ran out (a runner died) so the campaigns show `scheduled` again; returns how many. Sync calls it. */
  releaseExpiredCampaignClaims(companyUuid: string, now: string): Promise<number>;

  // ---- dispatch (the webhook dispatcher; several instances may share one database) ----
  /**
   * Claims up to `limit` due deliveries: pending, `next_attempt_at <= now`, not claimed by a live
   * lease, to an enabled endpoint; oldest due first. Claimed rows carry `claimToken` and are leased
   * until `leaseUntil`: if the claimer dies, they are due again when the lease runs out. Concurrent
   * claimers never get the same delivery (SKIP LOCKED on PostgreSQL).
   */
  claimDeliveries(claim: { now: string; leaseUntil: string; claimToken: string; limit: number }): Promise<ClaimedDelivery[]>;
  /** Extends the lease of deliveries still held under `claimToken` (slow receivers). */
  extendClaims(ids: string[], claimToken: string, leaseUntil: string): Promise<void>;
  /**
   * Records attempts and their outcomes, several in one write; gives the ids it recorded. An attempt
   * whose claim was lost to another dispatcher is left out (nothing written for it).
   */
  finishAttempts(finished: { id: string; claimToken: string; outcome: AttemptOutcome }[], now: string): Promise<Set<string>>;
  /** When the earliest pending delivery falls due (null when none is pending), for the dispatcher's sleep. */
  nextDeliveryDue(): Promise<string | null>;
  /**
   * Calls `listener` soon after deliveries are queued by this process and, on PostgreSQL, by any
   * process on the same database (LISTEN/NOTIFY), so dispatchers wake without polling. Returns an unsubscribe function.
   */
  onDeliveriesQueued(listener: () => void): Promise<() => Promise<void>>;

  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
