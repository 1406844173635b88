import type { Campaign, Company, Customer, Delivery, EventType, IssuedToken, Order, Template, WebhookEndpoint } from '@engagekit/contract';

/**
 * Records as the store keeps them. Timestamps are ISO-8601 UTC strings with milliseconds
 * (`2025-01-15T10:00:00.000Z`); every list is ordered oldest first: by creation time, then in the
 * order the records were made (saved), not by id, so records made in one instant keep their order.
 */
export type CompanyRecord = Company;

/** A company token as kept (its id is the token's `jti`; its text is never kept). */
export interface TokenRecord extends IssuedToken {
  company_uuid: string;
}

/** What refuses a company's tokens: a time before which none was issued that holds, and tokens revoked one by one. */
export interface TokenRevocations {
  /** Tokens issued (`iat`) at or before this time are refused; null when the company never revoked them all. */
  valid_after: string | null;
  /** Ids of the company's tokens revoked one by one that have not expired yet. */
  revoked_ids: string[];
}

export interface TemplateRecord extends Template {
  company_uuid: string;
}

/** The review WhatsApp last reported for a template id, whether or not a company submitted that id yet. */
export interface TemplateReview {
  /** Null before any review came (or when every one kept the status, as FLAGGED does). */
  status: TemplateRecord['status'] | null;
  reason: string | null;
}

export interface CampaignRecord extends Omit<Campaign, 'uuid' | 'startDate'> {
  company_uuid: string;
  /** 1, 2, 3... per company in creation order; campaigns are never deleted, so page N is seq in ((N-1)*limit, N*limit]. */
  seq: number;
}

/** What a change of a campaign's status writes: the status, and the fields that go with it. */
export interface CampaignStatusPatch
  extends Pick<CampaignRecord, 'status'>,
    Partial<Pick<CampaignRecord, 'pause_reason' | 'failure_reason' | 'next_run_at' | 'endDate'>> {}

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
  /**
   * The W3C `traceparent` of the request that queued it, when the server traces (`RuntimeObserver.traceContext`):
   * the delivery's span links to that trace. Absent otherwise.
   */
  trace_context?: string | null;
}

/**
 * One chunk of a campaign's run: the customers of the company whose id is after `after_id` and up to
 * `through_id` (every one after `after_id` when null: the last chunk takes customers who came since the
 * run was planned too). `done` once each of them has a message of the run.
 */
export interface RunChunk {
  id: string;
  company_uuid: string;
  campaign_id: string;
  run_key: string;
  /** Its place in the run, from 1: chunks are claimed in this order across campaigns, so runs due together start together. */
  seq: number;
  after_id: string | null;
  through_id: string | null;
  done: boolean;
}

/** A chunk an instance claimed, with its campaign as it stood then. */
export interface ClaimedChunk extends RunChunk {
  campaign: CampaignRecord;
  /** True when another instance, whose lease ran out, held it before this claim (a take-over). */
  taken_over?: boolean;
}

/**
 * One message of a campaign run to one customer. `pending` once recorded, before it is sent; `sending`
 * while a channel that hands messages to a provider outside the process (WhatsApp) has it in flight;
 * then its outcome.
 */
export interface MessageRecord {
  id: string;
  company_uuid: string;
  campaign_id: string;
  customer_id: string;
  phone_number: string;
  /** The due time the run is for (ISO): one run per campaign and due time. */
  run_key: string;
  status: 'pending' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed';
  /** Why it failed: the provider's error title, or what went wrong before the provider had it. */
  error: string | null;
  /** A failure's provider error code (WhatsApp's); null when the provider gave none. */
  error_code: number | null;
  provider_message_id: string | null;
  /** The template variables as rendered for this customer. */
  variables: Record<string, string>;
  /** How many sends the provider refused for now (a retry each): 0 until one is. */
  attempts: number;
  /** When a message waiting to be sent again is due (ISO); null for any other (one waiting for its campaign's resume is due then). */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * A message handed back to wait, `pending` again: a send the provider refused for now, due again at
 * `next_attempt_at`, or one its campaign's pause stopped (`next_attempt_at` null: sent on the resume).
 */
export interface MessageDeferral {
  id: string;
  attempts: number;
  next_attempt_at: string | null;
  /** The refusal: its title and the provider's code. */
  error: string | null;
  error_code: number | null;
}

/** Message outcomes as a funnel: `sent` includes delivered and read, `delivered` includes read. */
export interface MessageTotals {
  total: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

/** Failed messages of one provider error code (null: failures without one). */
export interface FailuresOfCode {
  code: number | null;
  count: number;
}

/** A campaign's message totals, with its runs (distinct run keys), the last of them, and its failures by code. */
export interface CampaignMessageTotals extends MessageTotals {
  runs: number;
  last_run_at: string | null;
  /** The most frequent failure codes, most frequent first (ties: by code, null last), at most `FAILURE_CODES_SHOWN`. */
  failed_by_code: FailuresOfCode[];
}

/** How many failure codes a campaign's totals show. */
export const FAILURE_CODES_SHOWN = 20;

/** Failure counts by code (the key: the code as text, '' for none), as the report shows them. */
export function topFailureCodes(counts: Iterable<[string, number]>): FailuresOfCode[] {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([code, count]) => ({ code: code === '' ? null : Number(code), count }))
    .sort((a, b) => b.count - a.count || (a.code ?? Number.POSITIVE_INFINITY) - (b.code ?? Number.POSITIVE_INFINITY))
    .slice(0, FAILURE_CODES_SHOWN);
}

/** A campaign as the report details it: the newest campaigns, each with its message totals and runs. */
export type CampaignSummary = Pick<CampaignRecord, 'id' | 'name' | 'status'> & { messages: CampaignMessageTotals };

/** The outcome the channel gave a message; it moves the message only forward (`rules/message-status.ts`). */
export type MessageOutcome = Pick<MessageRecord, 'id' | 'status' | 'error' | 'error_code' | 'provider_message_id'>;

/**
 * A provider's later status for a message: the message is the one with `message_id` when that one has
 * no provider id yet or this one, else the one with `provider_message_id`. It moves the message only
 * forward (`rules/message-status.ts`).
 */
export interface StatusWrite extends Pick<MessageRecord, 'error' | 'error_code'> {
  message_id: string | null;
  provider_message_id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
}

/** What a write of provider statuses found (`CampaignRunPort.applyStatuses`). */
export interface StatusesWritten {
  /** For each status given, whether it found its message (a repeat finds it and changes nothing). */
  found: boolean[];
  /**
   * Of the statuses given, those whose message already held them before the write, by the provider's
   * word (`repeats` in rules/message-status.ts): the same status received again.
   */
  repeated: number;
}

/** A status kept because no message had its provider id yet; applied once one does, dropped when it expires. */
export interface KeptStatusRecord extends StatusWrite {
  id: string;
  /** When the provider says it happened. */
  at: string;
  received_at: string;
}

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

/** What `beginIdempotent` found. */
export type IdempotentBegin =
  | { state: 'new' }
  | { state: 'replay'; status: number; body: unknown }
  /** Another request holds the key until `until` (when its instance's lease ends, unless renewed). */
  | { state: 'in_progress'; until: string }
  | { state: 'mismatch' };

/** One attempt of a delivery, as the log keeps it. */
export type DeliveryAttemptRecord = Delivery['attempts'][number];

/** A due delivery a dispatcher has claimed: everything it needs to send it, and the token proving the claim. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  endpoint: Pick<EndpointRecord, 'id' | 'url' | 'secret' | 'previous_secrets'>;
  /** The event payload to send, as stored. */
  payload: Record<string, unknown>;
  claimToken: string;
  /** True when another claimer, whose lease ran out, held it before this claim (a take-over: its instance died, or stopped, holding it). */
  taken_over?: boolean;
}

/**
 * The dispatcher of this process, taking the deliveries this process writes so that their first
 * attempt needs no claim (see `Store.takeOnWrite`).
 */
export interface DeliveryTaker {
  claimToken: string;
  /** The end of the lease of `deliveries` being written now; null leaves them to a later claim (it has no room for them). */
  leaseUntil(deliveries: readonly DeliveryRecord[]): string | null;
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
  /** The trace of the request that writes, as a W3C `traceparent`, when the server traces; kept with the deliveries it queues. */
  traceContext?: () => string | null;
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
 * Whether `e` is a StoreConflictError, by name as well: the CommonJS builds of the runtime's two entries
 * (`@engagekit/runtime` and `/store`) each carry the class, since they bundle jose whole.
 */
export const isStoreConflict = (e: unknown): e is StoreConflictError => e instanceof Error && e.name === 'StoreConflictError';

/**
 * Thrown by a store when its database is unavailable: it refuses connections, or every connection
 * stayed busy past the store's bounded wait. The API answers 503 `database_unavailable` with
 * `Retry-After`, never 500. Told apart by its name too, as two copies of the runtime may be loaded.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** Seconds a caller should wait before trying again. */
  readonly retryAfterS: number;
  constructor(message: string, opts: { retryAfterS?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.retryAfterS = opts.retryAfterS ?? 1;
  }
}

/** Whether `e` is a StoreUnavailableError (by name: a copy of the class from another install counts). */
export const isStoreUnavailable = (e: unknown): e is StoreUnavailableError => e instanceof Error && e.name === 'StoreUnavailableError';

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
