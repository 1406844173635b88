import type { Campaign, Company, Customer, Delivery, EventType, Order, Template, WebhookEndpoint } from '@engagekit/contract';

/**
 * Records as the store keeps them. Timestamps are ISO-8601 UTC strings with milliseconds
 * (`2025-01-15T10:00:00.000Z`); every list is ordered oldest first: by creation time, then in the
 * order the records were made (saved), not by id, so records made in one instant keep their order.
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

/** What a company's orders that name one phone number come to: all a customer is derived from. */
export interface PhoneOrders {
  /** How many there are. */
  count: number;
  /** Their total amount, summed exactly. */
  amount: number;
  /** The most recently updated (ties: the larger id), whose names the customer takes. */
  latest: OrderRecord;
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

/** A campaign's message totals, with its runs (distinct run keys) and the last of them. */
export interface CampaignMessageTotals extends MessageTotals {
  runs: number;
  last_run_at: string | null;
}

/** A campaign as the report details it: the newest campaigns, each with its message totals and runs. */
export type CampaignSummary = Pick<CampaignRecord, 'id' | 'name' | 'status'> & { messages: CampaignMessageTotals };

/** The outcome the channel gave a message. */
export type MessageOutcome = Pick<MessageRecord, 'id' | 'status' | 'error' | 'provider_message_id'>;

/** Funnel totals of no messages, to count into. */
export const noMessages = (): MessageTotals => ({ total: 0, sent: 0, delivered: 0, read: 0, failed: 0 });

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
  | 'nextCampaignDue'
  | 'extendCampaignClaim'
  | 'finishCampaignRun'
  | 'insertMessages'
  | 'updateMessages'
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

/**
 * The dispatcher of this process, taking the deliveries this process writes so that their first
 * attempt needs no claim (see `Store.takeOnWrite`).
 */
export interface DeliveryTaker {
  claimToken: string;
  /** The end of the lease of `count` deliveries being written now; null leaves them to a later claim (it has no room). */
  leaseUntil(count: number): string | null;
  /** Once the write that leased them commits: those of them to an enabled endpoint, with what sending needs. */
  take(claimed: ClaimedDelivery[]): void;
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

/** A claim's lock mode: shared holders may hold a key together, an exclusive holder holds it alone. */
export type LockMode = 'shared' | 'exclusive';

/** One lock a transaction takes: a string key, held shared or exclusive until the transaction ends. */
export interface Lock {
  key: string;
  mode: LockMode;
}

/** A shared lock on `key`. */
export const shared = (key: string): Lock => ({ key, mode: 'shared' });

/** An exclusive lock on `key`. */
export const exclusive = (key: string): Lock => ({ key, mode: 'exclusive' });

/**
 * Persistence for the reference server: records of each aggregate got, listed and saved as they are
 * given, the outbox, and the claims several instances share. The rules (what an order write does to
 * customers, which campaigns are due, what an event fans out to) live in `domain/`, over this.
 * Two implementations share one conformance suite: memory (the mock) and SQL (PGlite or PostgreSQL).
 * Every method is safe to call concurrently.
 */
export interface Store {
  /**
   * Runs `fn` in a transaction: its writes through `tx` all land, or none do if it throws. Locks
   * taken with `tx.lock` are held until it ends.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: holds `locks`, taken in the order given (callers keep one order, so no two
   * transactions wait on each other in a cycle), until the transaction ends. The transaction's later
   * calls run with them held; the SQL store may resolve before they are (it sends the lock ahead of
   * those calls on the transaction's connection), so the locks guard the store's data, not work the
   * caller does between calls.
   */
  lock(locks: readonly Lock[]): Promise<void>;

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
  /** The company's templates, oldest first (by creation, then in the order they were made). */
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
  /**
   * The company's newest `limit` campaigns, newest first (by seq), each with its message totals, runs
   * (distinct run keys) and last run: what the report details. The totals are read from the counts
   * kept with every message write, never from the messages.
   */
  newestCampaigns(companyUuid: string, limit: number): Promise<CampaignSummary[]>;

  // ---- orders ----
  getOrder(companyUuid: string, companyOrderId: string): Promise<OrderRecord | null>;
  /**
   * Inserts the order, or replaces the one with the same (company_uuid, company_order_id) keeping its id.
   * Inside a transaction the SQL store sends it ahead, as it does `lock`: later calls see the row, and
   * a failure rejects the transaction.
   */
  saveOrder(order: OrderRecord): Promise<void>;
  /** The company's orders, oldest first (by creation, then in the order they were made). */
  listOrders(companyUuid: string, page: PageRequest): Promise<Page<OrderRecord>>;
  /** What the company's orders that name `phoneNumber` come to (see `phoneOrdersOf`); null when none does. */
  phoneOrders(companyUuid: string, phoneNumber: string): Promise<PhoneOrders | null>;
  /** How many orders the company has, and their exact total amount. */
  orderTotals(companyUuid: string): Promise<{ total: number; amount: number }>;

  // ---- customers ----
  /** The company's customers with these phone numbers (in no particular order). */
  getCustomers(companyUuid: string, phoneNumbers: string[]): Promise<CustomerRecord[]>;
  /** The company's customers, oldest first (by creation, then in the order they were saved: a batch keeps its order). */
  listCustomers(companyUuid: string, page: PageRequest): Promise<Page<CustomerRecord>>;
  /** How many customers the company has: the total of `listCustomers`, without a page. */
  countCustomers(companyUuid: string): Promise<number>;
  /** Inserts each customer, or replaces the one with the same (company_uuid, phoneNumber) keeping its id and created_at; sent ahead as `saveOrder` is. */
  saveCustomers(customers: CustomerRecord[]): Promise<void>;
  deleteCustomers(companyUuid: string, ids: string[]): Promise<void>;

  // ---- webhook endpoints ----
  createEndpoint(endpoint: EndpointRecord): Promise<EndpointRecord>;
  getEndpoint(companyUuid: string, id: string): Promise<EndpointRecord | null>;
  listEndpoints(companyUuid: string, page: PageRequest): Promise<Page<EndpointRecord>>;
  /** Every endpoint of the company, oldest first. */
  allEndpoints(companyUuid: string): Promise<EndpointRecord[]>;
  updateEndpoint(
    companyUuid: string,
    id: string,
    patch: Partial<Pick<EndpointRecord, 'url' | 'events' | 'description' | 'enabled' | 'disabled_reason' | 'secret' | 'previous_secrets'>>,
    now: string,
  ): Promise<EndpointRecord | null>;
  /** Deletes the endpoint and its pending deliveries; false when unknown. */
  deleteEndpoint(companyUuid: string, id: string): Promise<boolean>;

  // ---- the outbox: events and their deliveries ----
  /**
   * Records an event (a second append of the same id is ignored) and pending deliveries of it. Once
   * they are committed, the taker (`takeOnWrite`) gets those it leased, and `onDeliveriesQueued`
   * listeners hear of the others. Inside a transaction the SQL store sends it ahead, as it does `lock`.
   */
  appendEvent(event: EventRecord, deliveries: readonly DeliveryRecord[]): Promise<void>;
  getEvent(id: string): Promise<EventRecord | null>;
  /** The company's events (order changes and test events, whether or not an endpoint got them), oldest first. */
  listEvents(companyUuid: string, page: PageRequest): Promise<Page<EventRecord>>;
  getDelivery(companyUuid: string, endpointId: string, id: string): Promise<DeliveryRecord | null>;
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
   * Claims up to `limit` campaigns with a status in `statuses` and `next_run_at <= now` that no live
   * lease holds, earliest due first. Sets them `running`, leased to `claimToken` until `leaseUntil`.
   * Concurrent claimers never get the same campaign; one whose runner died is claimed again when its
   * lease runs out. (Which campaigns are due is the domain's rule: domain/campaigns.ts.)
   */
  claimDueCampaigns(claim: { statuses: readonly string[]; now: string; leaseUntil: string; claimToken: string; limit: number }): Promise<CampaignRecord[]>;
  /** The earliest `next_run_at` later than `after` of a campaign with a status in `statuses`; null when there is none. */
  nextCampaignDue(statuses: readonly string[], after: string): Promise<string | null>;
  /** Extends the lease of a campaign still held under `claimToken`; false when the claim was lost. */
  extendCampaignClaim(id: string, claimToken: string, leaseUntil: string): Promise<boolean>;
  /**
   * Ends a run held under `claimToken`: sets status, next_run_at and endDate and releases the lease.
   * False (nothing written) when the claim was lost.
   */
  finishCampaignRun(id: string, claimToken: string, patch: Pick<CampaignRecord, 'status' | 'next_run_at' | 'endDate'>, now: string): Promise<boolean>;
  /**
   * Records messages, in one write with their counts and runs, each unless its run already has one for
   * that customer; gives the ids it inserted.
   */
  insertMessages(messages: MessageRecord[]): Promise<Set<string>>;
  /** Sets messages' outcomes, in one write with their counts. */
  updateMessages(outcomes: MessageOutcome[], now: string): Promise<void>;
  /** The messages of one run (to resume it). */
  listRunMessages(campaignId: string, runKey: string): Promise<MessageRecord[]>;
  /** Message outcome totals of the company, read from the counts kept with every message write, never from the messages. */
  messageTotals(companyUuid: string): Promise<MessageTotals>;
  /** Releases the company's leases that ran out (a runner died) on campaigns still `running`, setting them to `status`; returns how many. */
  releaseExpiredCampaignClaims(companyUuid: string, now: string, status: CampaignRecord['status']): Promise<number>;

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
  /** When the earliest pending delivery (due later than `after`, when given) falls due; null when none is pending. */
  nextDeliveryDue(after?: string): Promise<string | null>;
  /**
   * Calls `listener` soon after deliveries are queued by this process and, on PostgreSQL, by any
   * process on the same database (LISTEN/NOTIFY), so dispatchers wake without polling. Returns an unsubscribe function.
   */
  onDeliveriesQueued(listener: () => void): Promise<() => Promise<void>>;
  /**
   * Makes `taker` the dispatcher the deliveries this process writes are leased to, by the write itself:
   * once it commits they are handed over, and no listener hears of them. That takes the claim's round
   * trip off the way from a committed order to its webhook (the webhooks.latency.p50 row). With several
   * takers, the first with room gets them. Returns what stops it taking; what was leased to it then
   * lapses with the lease, as a claim does.
   */
  takeOnWrite(taker: DeliveryTaker): () => void;

  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
