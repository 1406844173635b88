/**
 * The store's ports, one per aggregate. Each store (memory, SQL) implements each port in a file of its
 * own, and `Store` is all of them with the transaction around them. Records are got, listed and saved
 * as they are given: the rules (what an order write does to customers, what an event fans out to) live
 * in `domain/`, the only caller. The few a store carries out inside its own statements (which campaigns
 * are due, where a run's chunks end, the order chunks and deliveries are claimed in) are the domain's
 * too, written once in `rules/`, which a store may import. Every method is safe to call concurrently.
 */
import type {
  AttemptOutcome,
  CampaignRecord,
  CampaignStatusPatch,
  CampaignSummary,
  ClaimedChunk,
  ClaimedDelivery,
  CompanyRecord,
  CustomerRecord,
  DeliveryRecord,
  DeliveryTaker,
  EndpointRecord,
  EventRecord,
  IdempotentBegin,
  KeptStatusRecord,
  Lock,
  MessageDeferral,
  MessageOutcome,
  MessageRecord,
  MessageTotals,
  OrderRecord,
  Page,
  PageRequest,
  PhoneOrders,
  RunChunk,
  StatusesWritten,
  StatusWrite,
  TemplateRecord,
  TemplateReview,
  TokenRecord,
  TokenRevocations,
} from './types.ts';

/** Small values a deployment keeps (the admin token's hash, the JWT key). */
export interface SettingsPort {
  /**
   * Resolves once the database answers a trivial query, which goes ahead of the reads waiting for it
   * where the store keeps a line of its own (PGlite's thread): the health check's (server.health.pglite.p99).
   */
  ping(): Promise<void>;
  getSetting(key: string): Promise<string | null>;
  /** Stores `value` unless the key has one already; returns the value that is stored (so concurrent first starts agree). */
  putSettingIfAbsent(key: string, value: string): Promise<string>;
}

/** Companies. */
export interface CompanyPort {
  /** Throws StoreConflictError('company_id') when the code is taken. */
  createCompany(company: CompanyRecord): Promise<CompanyRecord>;
  getCompany(uuid: string): Promise<CompanyRecord | null>;
  listCompanies(page: PageRequest): Promise<Page<CompanyRecord>>;
}

/**
 * A company's tokens: those issued (their ids, scopes and times, never their text) and what revokes
 * them. Whether a token is revoked is decided in `domain/tokens.ts` from `tokenRevocations`.
 */
export interface TokenPort {
  /** Keeps an issued token (its company exists). */
  saveToken(token: TokenRecord): Promise<void>;
  /** The company's tokens, oldest first (by issue time, then in the order they were kept). */
  listTokens(companyUuid: string, page: PageRequest): Promise<Page<TokenRecord>>;
  /** Marks the company's token `id` revoked at `at` unless it was already; the token as it is then, or null when the company has none of that id. */
  revokeToken(companyUuid: string, id: string, at: string): Promise<TokenRecord | null>;
  /**
   * Refuses every token of the company issued until `at`: its valid-after time becomes `at` (never
   * earlier than it was), and its kept tokens issued at or before `at` and not yet revoked are marked revoked
   * at `at`. Resolves to the valid-after time now kept and how many kept tokens it marked.
   */
  revokeCompanyTokens(companyUuid: string, at: string): Promise<{ valid_after: string; revoked: number }>;
  /** The company's valid-after time, and the ids of its tokens revoked one by one that expire after `now`. */
  tokenRevocations(companyUuid: string, now: string): Promise<TokenRevocations>;
}

/** Orders, and the outbox their changes write in the same transaction: one write port. */
export interface OrderPort {
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
  /**
   * Records an event (a second append of the same id is ignored) and pending deliveries of it. Once
   * they are committed, the taker (`takeOnWrite`) gets those it leased, and `onDeliveriesQueued`
   * listeners hear of the others. Inside a transaction the SQL store sends it ahead, as it does `lock`.
   */
  appendEvent(event: EventRecord, deliveries: readonly DeliveryRecord[]): Promise<void>;
  getEvent(id: string): Promise<EventRecord | null>;
  /** The company's events (order changes and test events, whether or not an endpoint got them), oldest first. */
  listEvents(companyUuid: string, page: PageRequest): Promise<Page<EventRecord>>;
}

/** Customers: the people a company's orders name, and those imported. */
export interface CustomerPort {
  /** The company's customers with these phone numbers (in no particular order). */
  getCustomers(companyUuid: string, phoneNumbers: string[]): Promise<CustomerRecord[]>;
  /** The company's customers, oldest first (by creation, then in the order they were saved: a batch keeps its order). */
  listCustomers(companyUuid: string, page: PageRequest): Promise<Page<CustomerRecord>>;
  /** How many customers the company has: the total of `listCustomers`, without a page. */
  countCustomers(companyUuid: string): Promise<number>;
  /** Inserts each customer, or replaces the one with the same (company_uuid, phoneNumber) keeping its id and created_at; sent ahead as `saveOrder` is. */
  saveCustomers(customers: CustomerRecord[]): Promise<void>;
  deleteCustomers(companyUuid: string, ids: string[]): Promise<void>;
}

/** WhatsApp templates, one per (company, template_name, phone_number), with their status at WhatsApp. */
export interface TemplatePort {
  /** Inserts or updates the template keyed by (company_uuid, template_name, phone_number); keeps id and created_at on update. */
  upsertTemplate(template: TemplateRecord): Promise<TemplateRecord>;
  /** The company's templates, oldest first (by creation, then in the order they were made). */
  listTemplates(companyUuid: string, page: PageRequest): Promise<Page<TemplateRecord>>;
  /**
   * Keeps the review for this `wam_id` (its status, unless `status` is null, which keeps the one kept;
   * and the reason), then sets the status (unless null, which keeps each one's), the reason and
   * `updated_at` of every template with this `wam_id`, whichever company submitted it; resolves to how
   * many templates it changed. The review is kept even when none has the id yet (see `templateReview`).
   * Inside a transaction, the review's row stays locked until it ends.
   */
  setTemplateStatus(wamId: string, status: TemplateRecord['status'] | null, reason: string | null, now: string): Promise<number>;
  /**
   * The review WhatsApp last reported for this `wam_id` (status null before any), holding it until the
   * transaction ends, so that a review arriving meanwhile waits and then sees the template written.
   */
  templateReview(wamId: string, now: string): Promise<TemplateReview>;
}

/** Campaigns. */
export interface CampaignPort {
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
  /**
   * Applies `patch` only when the campaign's status is one of `from`, in one conditional write (never
   * a read, then a write: a status another writer set meanwhile is not overwritten). The updated
   * record, or null when the company has no such campaign or its status is none of `from`.
   */
  updateCampaignIf(
    companyUuid: string,
    id: string,
    from: readonly CampaignRecord['status'][],
    patch: CampaignStatusPatch,
    now: string,
  ): Promise<CampaignRecord | null>;
  countCampaignsByStatus(companyUuid: string): Promise<Record<string, number>>;
  /**
   * The company's newest `limit` campaigns, newest first (by seq), each with its message totals, runs
   * (distinct run keys) and last run: what the report details. The totals are read from the counts
   * kept with every message write, never from the messages.
   */
  newestCampaigns(companyUuid: string, limit: number): Promise<CampaignSummary[]>;
}

/**
 * Campaign runs, shared by every instance on one database: a due campaign's run is planned as chunks
 * of its company's customers, found by key, and any instance claims chunks under a lease (see
 * `LeasePort`), so a big run is sent by all and a dead instance's chunks are taken over within seconds.
 * A customer gets one message a run: a message is recorded before it is sent, once per run and customer.
 */
export interface CampaignRunPort {
  /**
   * Starts the runs of up to `limit` due campaigns (`scheduled`, `next_run_at <= now`, earliest first),
   * each in one transaction that concurrent starters skip: plans its chunks (the company's customers by
   * id, `chunkSize` to a chunk, the last one open-ended) and sets it `running`. Returns those started.
   */
  startDueRuns(start: { now: string; limit: number; chunkSize: number; newId: (prefix: string) => string }): Promise<CampaignRecord[]>;
  /** The earliest `next_run_at` later than `after` of a `scheduled` campaign; null when there is none. */
  nextCampaignDue(after: string): Promise<string | null>;
  /**
   * Claims up to `limit` chunks not done that no live lease holds, of campaigns that are `running`
   * (`sendsChunks`), leased to `claimToken` until `leaseUntil`, each with its campaign: of the earliest runs first, and of those the first chunk of
   * each run before the second of any (runs due together start together). Concurrent claimers never get the same chunk.
   */
  claimChunks(claim: { now: string; leaseUntil: string; claimToken: string; limit: number }): Promise<ClaimedChunk[]>;
  /** The customers of a chunk, by id: those with an id after `after_id` and up to `through_id` (every one after, when null). */
  chunkCustomers(chunk: RunChunk): Promise<CustomerRecord[]>;
  /**
   * Whether the chunk's lease is still `claimToken`'s at `now` and its campaign still `running`
   * (`sendsChunks`): checked before each slice of sends.
   */
  holdsChunk(chunkId: string, claimToken: string, now: string): Promise<boolean>;
  /** Marks a chunk held under `claimToken` done; false (nothing written) when the claim was lost. */
  finishChunk(chunkId: string, claimToken: string): Promise<boolean>;
  /** Hands a chunk held under `claimToken` back undone (a shutdown, a pause): any instance may claim it at once, or from `until` (its messages' next attempt). */
  releaseChunk(chunkId: string, claimToken: string, until?: string): Promise<void>;
  /** Whether the run has been planned: it has chunks, done or not. */
  runPlanned(campaignId: string, runKey: string): Promise<boolean>;
  /** How many chunks of the run are not done. */
  pendingChunks(campaignId: string, runKey: string): Promise<number>;
  /** Marks every chunk of the campaign not done as done, its claim cleared (a cancelled campaign's: out of every claim's way for good); resolves to how many. */
  closeChunks(campaignId: string): Promise<number>;
  /** How many messages of the run were sent (delivered and read included) and how many failed. */
  runTotals(campaignId: string, runKey: string): Promise<{ sent: number; failed: number }>;
  /** The company's `running` campaigns. */
  runningCampaigns(companyUuid: string): Promise<CampaignRecord[]>;
  /**
   * Ends the campaign's run of `runKey`: sets status, next_run_at and endDate. False (nothing written)
   * when the campaign is not on that run any more (another instance ended it).
   */
  finishRun(
    campaignId: string,
    runKey: string,
    patch: Pick<CampaignRecord, 'status' | 'failure_reason' | 'next_run_at' | 'endDate'>,
    now: string,
  ): Promise<boolean>;
  /**
   * Records messages, in one write with their counts and runs, each unless its run already has one for
   * that customer; gives the ids it inserted.
   */
  insertMessages(messages: MessageRecord[]): Promise<Set<string>>;
  /** Sets messages' outcomes where they move them forward (`advances`, `rules/message-status.ts`), in one write with their counts. */
  updateMessages(outcomes: MessageOutcome[], now: string): Promise<void>;
  /**
   * Puts messages still `sending` back to `pending` (or leaves `pending` ones not handed over yet), with
   * their attempts, next attempt and the refusal or the wait, in one write with their counts.
   */
  deferMessages(deferrals: MessageDeferral[], now: string): Promise<void>;
  /**
   * Applies a provider's statuses where they move their messages forward (`advances`), in one write
   * with their counts; several for one message count as the one that moves it furthest. Says, for each,
   * whether it found its message (a duplicate finds it and changes nothing), and how many its message
   * held already before the write (`repeats`).
   */
  applyStatuses(statuses: StatusWrite[], now: string): Promise<StatusesWritten>;
  /** The messages of one run to these customers (to resume a chunk). */
  listRunMessages(campaignId: string, runKey: string, customerIds: readonly string[]): Promise<MessageRecord[]>;
  /** Message outcome totals of the company, read from the counts kept with every message write, never from the messages. */
  messageTotals(companyUuid: string): Promise<MessageTotals>;
}

/**
 * Leases: how an instance holds what it works on (deliveries it sends, chunks it runs, idempotency
 * keys of requests it answers). Each is claimed under the instance's token until a time; the instance
 * renews all of them together while it lives (runtime/leases.ts), and once its leases run out any
 * instance takes them over.
 */
export interface LeasePort {
  /** Extends every lease held under `claimToken` that has not ended its work to `leaseUntil`. */
  renewLeases(claimToken: string, leaseUntil: string): Promise<void>;
}

/** Webhook endpoints and the log of their deliveries. */
export interface WebhookPort {
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
  getDelivery(companyUuid: string, endpointId: string, id: string): Promise<DeliveryRecord | null>;
  /** Newest first. */
  listDeliveries(companyUuid: string, endpointId: string, page: PageRequest & { status?: DeliveryRecord['status'] }): Promise<Page<DeliveryRecord>>;
}

/** Dispatch: due deliveries claimed under a lease by the webhook dispatchers (several instances may share one database). */
export interface DispatchPort {
  /**
   * Claims up to `limit` due deliveries: pending, `next_attempt_at <= now`, not claimed by a live
   * lease, to an enabled endpoint. Claimed rows carry `claimToken` and are leased until `leaseUntil`:
   * if the claimer dies, they are due again when the lease runs out. Concurrent claimers never get the
   * same delivery (SKIP LOCKED on PostgreSQL).
   *
   * The order goes round the due endpoints (`fairClaimOrder` in rules/webhook-claims.ts is the rule,
   * which the SQL store's statement follows with window functions): each endpoint's due deliveries are
   * ranked oldest due first (`next_attempt_at`, then id), and the claim takes every endpoint's first,
   * then every endpoint's second..., oldest due first within a round. An endpoint gets at most
   * `perEndpoint`, and a company at most `perCompany`, minus those of theirs that any claimer holds under
   * a live lease, so one endpoint's or one company's backlog cannot fill a claimer's window.
   */
  claimDeliveries(claim: {
    now: string;
    leaseUntil: string;
    claimToken: string;
    limit: number;
    perEndpoint: number;
    perCompany: number;
  }): Promise<ClaimedDelivery[]>;
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
}

/** Idempotency keys: a retried write answers as the first one did. */
export interface IdempotencyPort {
  /**
   * Claims (scope, key) for a request, leased to `claimToken` until `leaseUntil` (renewed while it
   * runs), or says what became of an earlier one with the same key: `new` (go ahead, then finish or
   * abandon it; also when the earlier one's lease ran out without an answer: its instance died),
   * `replay` (answer its stored status and body), `in_progress` (its instance still works on it), or
   * `mismatch` (the key came with another request). Keys older than a day are forgotten.
   */
  beginIdempotent(scope: string, key: string, requestHash: string, claim: { now: string; claimToken: string; leaseUntil: string }): Promise<IdempotentBegin>;
  /** Stores the answer of a request begun with `beginIdempotent` (in the transaction of the request's writes, so they land together). */
  finishIdempotent(scope: string, key: string, status: number, body: unknown): Promise<void>;
  /** Forgets a begun request that failed without an answer worth keeping, so a retry runs it again. */
  abandonIdempotent(scope: string, key: string): Promise<void>;
}

/**
 * A provider's statuses that found no message yet: a status can arrive before the answer of the send
 * that names its provider id is stored (or belong to another app on the same phone number).
 */
export interface KeptStatusPort {
  /** Keeps these statuses. */
  keepStatuses(statuses: KeptStatusRecord[]): Promise<void>;
  /** Up to `limit` kept statuses whose provider id now names a message, oldest received first. */
  matchedKeptStatuses(limit: number): Promise<KeptStatusRecord[]>;
  /** Forgets these kept statuses (applied). */
  dropKeptStatuses(ids: string[]): Promise<void>;
  /** Forgets kept statuses received before `before`; returns how many. */
  expireKeptStatuses(before: string): Promise<number>;
}

/** What taking send slots came to. */
export interface SendSlotsTaken {
  /** The slots taken (0 to `wanted` of them). */
  slots: number[];
  /** When the next slot of the key frees, ISO-8601: the earliest last use of those not held, plus the window; `now` when every slot is held (a stamp may free one any moment). */
  nextFreeAt: string;
}

/** A slot's last use: when its send was answered (ISO-8601). */
export interface SlotStamp {
  slot: number;
  at: string;
}

/**
 * The pace of sends through one provider number, shared by every instance on the store: the number
 * has `limit` slots, and a slot is used again only a window after its last use, so that no window
 * holds more than `limit` sends (a sliding window, as WhatsApp counts throughput).
 */
export interface SendPacePort {
  /**
   * Takes up to `wanted` of `key`'s `limit` slots last used at least `windowMs` before `now`, and holds
   * them as used `holdMs` after `now` (a send in flight) until `stampSendSlots` says when they were.
   */
  takeSendSlots(key: string, wanted: number, limit: number, windowMs: number, now: string, holdMs?: number): Promise<SendSlotsTaken>;
  /** Records each stamp's `at` as the last use of its slot of `key`: the time its send was answered, when the provider had counted it. */
  stampSendSlots(key: string, stamps: readonly SlotStamp[]): Promise<void>;
  /**
   * The pair rate: takes a turn of `key` (the provider number) to each of `recipients` (distinct) whose
   * last turn was at least `gapMs` before `at`, recording `at` as its new one. Resolves to those left
   * waiting, each with when its turn comes (ISO-8601).
   */
  takePairTurns(key: string, recipients: string[], gapMs: number, at: string): Promise<Map<string, string>>;
  /** Forgets the last turns of `key` to `recipients` that are still the ones taken at `at` (their sends were refused). */
  returnPairTurns(key: string, recipients: string[], at: string): Promise<void>;
}

/**
 * Persistence for the runtime: every port, and the transaction around them. Two implementations share
 * one conformance suite: memory (the mock) and SQL (PGlite or PostgreSQL).
 */
export interface Store
  extends SettingsPort,
    CompanyPort,
    TokenPort,
    OrderPort,
    CustomerPort,
    TemplatePort,
    CampaignPort,
    CampaignRunPort,
    KeptStatusPort,
    SendPacePort,
    WebhookPort,
    DispatchPort,
    IdempotencyPort,
    LeasePort {
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

  /** Releases connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
