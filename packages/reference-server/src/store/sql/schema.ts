/**
 * The one pg-core schema of the SQL store (PGlite and PostgreSQL alike). drizzle-kit generates the
 * migrations in `drizzle/` from this file: change it, then run `pnpm --filter @engagekit/reference-server db:generate`.
 *
 * Property names are the record field names of `../types.ts`, so rows map onto records without renaming.
 */
import type { Days, EventType, Scope, TemplatePayload, TemplateStatus } from '@engagekit/contract';
import type { DeliveryRecord, KeptStatusRecord, MessageRecord, OrderRecord } from '@engagekit/runtime/store';
import { getTableColumns, sql, type Table } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  type PgColumnBuilderBase,
  pgTable,
  primaryKey,
  text,
  unique,
} from 'drizzle-orm/pg-core';

/** An identifier column: text compared byte-wise (`COLLATE "C"`), the same on every server locale and in the memory store. */
const id = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * `timestamptz` kept to milliseconds; read back as an ISO-8601 UTC string with milliseconds
 * (both drivers hand it over as PostgreSQL's text form, e.g. `2025-01-15 10:00:00.123+00`).
 */
const timestamp = customType<{ data: string; driverData: string | Date }>({
  dataType: () => 'timestamp (3) with time zone',
  toDriver: (value) => value,
  fromDriver: (value) => pgTimestampToIso(value),
});

/** Converts PostgreSQL's text output of a timestamptz (or a Date) to ISO-8601 UTC with milliseconds. */
export function pgTimestampToIso(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  // `2025-01-15 10:00:00.123+00` -> `2025-01-15T10:00:00.123+00:00`, which Date parses everywhere.
  const normalized = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  const date = new Date(normalized);
  if (Number.isNaN(date.getTime())) throw new Error(`Unreadable timestamp from the database: "${value}".`);
  return date.toISOString();
}

/**
 * The order rows were made in, from a sequence of the database: lists are ordered by `created_at`, then
 * by this, so records made in one instant (a batch import, a request on a clock that stands still) come
 * back in the order they were made, whichever instance on the database made or reads them. It stays
 * inside the store: records leave it out (`recordColumns`), and an upsert keeps a row's first value.
 */
const createdSeq = () => bigint('created_seq', { mode: 'number' }).generatedAlwaysAsIdentity();

/** The columns of `table` that make up its record: every one but `created_seq`. */
export function recordColumns<T extends Table>(table: T): Omit<T['_']['columns'], 'created_seq'> {
  const { created_seq: _, ...columns } = getTableColumns(table) as Record<string, unknown>;
  return columns as Omit<T['_']['columns'], 'created_seq'>;
}

/** Money: exact `numeric` in the database, a JS number in records. */
const money = (name: string) => numeric(name, { mode: 'number' });

/** A calendar date `YYYY-MM-DD`, read back as that string. */
const day = (name: string) => date(name, { mode: 'string' });

/** Small values the server keeps (admin token hash, JWT key). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Companies (tenants); `company_id` is the code their orders carry. */
export const companies = pgTable('companies', {
  uuid: id('uuid').primaryKey(),
  company_id: text('company_id').notNull().unique('companies_company_id_unique'),
  name: text('name').notNull(),
  timezone: text('timezone').notNull(),
  created_at: timestamp('created_at').notNull(),
  created_seq: createdSeq(),
  /** The last campaign `seq` handed out; bumped with UPDATE ... RETURNING so concurrent creates get dense, distinct numbers. */
  campaign_seq: integer('campaign_seq').notNull().default(0),
});

/** The tokens issued to companies, never their text: `id` is the token's `jti`. Listed by issue time. */
export const companyTokens = pgTable(
  'company_tokens',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    scopes: jsonb('scopes').$type<Scope[]>().notNull(),
    issued_at: timestamp('issued_at').notNull(),
    expires_at: timestamp('expires_at').notNull(),
    revoked_at: timestamp('revoked_at'),
    created_seq: createdSeq(),
  },
  (t) => [index('company_tokens_company_issued_idx').on(t.company_uuid, t.issued_at, t.created_seq)],
);

/** Per company, once it revoked all its tokens: those issued at or before `valid_after` are refused, kept or not. */
export const tokenCutoffs = pgTable('company_token_cutoffs', {
  company_uuid: id('company_uuid')
    .primaryKey()
    .references(() => companies.uuid),
  valid_after: timestamp('valid_after').notNull(),
});

/** WhatsApp templates, one per (company, template_name, phone_number). */
export const templates = pgTable(
  'templates',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    template_name: text('template_name').notNull(),
    phone_number: text('phone_number').notNull(),
    wam_id: text('wam_id'),
    status: text('status').$type<TemplateStatus>().notNull(),
    reason: text('reason'),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
    created_seq: createdSeq(),
  },
  (t) => [
    unique('templates_company_name_phone_unique').on(t.company_uuid, t.template_name, t.phone_number),
    // WhatsApp reports a template's status by its id alone (setTemplateStatus).
    index('templates_wam_id_idx').on(t.wam_id),
  ],
);

/**
 * The review WhatsApp last reported for each template id, whether or not a company submitted that id
 * yet (a review often comes first). Status null until a review came; its row is what a review and a
 * submission of the id lock, so that they take turns.
 */
export const templateReviews = pgTable('template_reviews', {
  wam_id: text('wam_id').primaryKey(),
  status: text('status').$type<TemplateStatus>(),
  reason: text('reason'),
  updated_at: timestamp('updated_at').notNull(),
});

/** Broadcast campaigns; never deleted, so `seq` stays dense per company. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    seq: integer('seq').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<'scheduled' | 'running' | 'completed' | 'paused' | 'failed' | 'cancelled'>().notNull(),
    /** Why it is paused; null unless it is. */
    pause_reason: text('pause_reason'),
    /** Why it failed; null unless it did. */
    failure_reason: text('failure_reason'),
    schedule_type: text('schedule_type').$type<'once' | 'recurring'>().notNull(),
    schedule: timestamp('schedule').notNull(),
    days: jsonb('days').$type<Days>(),
    template_payload: jsonb('template_payload').$type<TemplatePayload>().notNull(),
    endDate: day('end_date'),
    next_run_at: timestamp('next_run_at'),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
    /** The scheduler running it and until when: a run whose lease ran out (its runner died) is resumed by another. */
    claim_token: text('claim_token'),
    locked_until: timestamp('locked_until'),
  },
  (t) => [
    unique('campaigns_company_name_unique').on(t.company_uuid, t.name),
    // The scheduler's claim: due campaigns by next_run_at.
    index('campaigns_next_run_idx').on(t.next_run_at),
    // Also the index listCampaigns pages over (seq ranges within a company); no second index needed.
    unique('campaigns_company_seq_unique').on(t.company_uuid, t.seq),
  ],
);

/**
 * The columns of a table that keeps records `R`: one for each field of `R`, and `created_seq`. A table's
 * columns `satisfies` it, so a record field without its column is a type error, not a value the SQL
 * store leaves out when it writes a row by the table's columns (built-once.ts, `rowValues`).
 */
type ColumnsOf<R> = Record<keyof R | 'created_seq', PgColumnBuilderBase>;

/** Orders, one per (company, company_order_id): a column for every field of the contract's `Order`. */
export const orders = pgTable(
  'orders',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    company_id: text('company_id').notNull(),
    company_order_id: text('company_order_id').notNull(),
    totalAmount: money('total_amount').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    phoneNumber: text('phone_number').notNull(),
    email: text('email'),
    postalCode: text('postal_code').notNull(),
    streetAddress1: text('street_address_1').notNull(),
    streetAddress2: text('street_address_2'),
    city: text('city'),
    state: text('state'),
    specialInstructions: text('special_instructions'),
    products: jsonb('products').$type<OrderRecord['products']>().notNull(),
    billingStreetAddress1: text('billing_street_address_1'),
    billingStreetAddress2: text('billing_street_address_2'),
    billingCity: text('billing_city'),
    billingState: text('billing_state'),
    billingPostalCode: text('billing_postal_code'),
    companyOrderDate: day('company_order_date'),
    companyOrderDueDate: day('company_order_due_date'),
    companyOrderDeliveryStatus: text('company_order_delivery_status'),
    companyOrderPaymentReference: text('company_order_payment_reference'),
    companyOrderStatus: text('company_order_status'),
    companyOrderDescription: text('company_order_description'),
    company_order_other_attributes_1: jsonb('company_order_other_attributes_1').$type<Record<string, unknown>>(),
    company_order_other_attributes_2: jsonb('company_order_other_attributes_2').$type<Record<string, unknown>>(),
    version: integer('version').notNull(),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
    created_seq: createdSeq(),
  } satisfies ColumnsOf<OrderRecord>,
  (t) => [
    unique('orders_company_order_unique').on(t.company_uuid, t.company_order_id),
    // Customer recounts: a phone's orders within a company, the latest last.
    index('orders_company_phone_updated_idx').on(t.company_uuid, t.phoneNumber, t.updated_at, t.id),
  ],
);

/** Customers: one per (company, phone number), derived from orders or imported. */
export const customers = pgTable(
  'customers',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    phoneNumber: text('phone_number').notNull(),
    name: text('name').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    email: text('email'),
    source: text('source').$type<'orders' | 'import'>().notNull(),
    orders_count: integer('orders_count').notNull(),
    orders_amount: money('orders_amount').notNull(),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
    created_seq: createdSeq(),
  },
  (t) => [
    unique('customers_company_phone_unique').on(t.company_uuid, t.phoneNumber),
    index('customers_company_created_idx').on(t.company_uuid, t.created_at, t.created_seq),
    // A campaign run's chunks: a company's customers by key.
    index('customers_company_id_idx').on(t.company_uuid, t.id),
  ],
);

/** The outbox: one row per event, written in the transaction of the change it reports. */
export const events = pgTable(
  'events',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    type: text('type').$type<EventType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    created_at: timestamp('created_at').notNull(),
    created_seq: createdSeq(),
  },
  // The company's events oldest first (listEvents).
  (t) => [index('events_company_created_idx').on(t.company_uuid, t.created_at, t.created_seq)],
);

/** Webhook endpoints of a company, with the secrets still valid during a rotation. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    url: text('url').notNull(),
    description: text('description').notNull(),
    events: jsonb('events').$type<EventType[]>().notNull(),
    enabled: boolean('enabled').notNull(),
    disabled_reason: text('disabled_reason'),
    secret: text('secret').notNull(),
    previous_secrets: jsonb('previous_secrets').$type<{ secret: string; expires_at: string }[]>().notNull(),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
    created_seq: createdSeq(),
  },
  (t) => [index('webhook_endpoints_company_created_idx').on(t.company_uuid, t.created_at, t.created_seq)],
);

/**
 * One delivery of one event to one endpoint. No foreign key to the endpoint: deleting an endpoint
 * removes its pending deliveries but keeps the finished ones as history.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    endpoint_id: id('endpoint_id').notNull(),
    event_id: id('event_id')
      .notNull()
      .references(() => events.id),
    event_type: text('event_type').notNull(),
    status: text('status').$type<DeliveryRecord['status']>().notNull(),
    attempt_count: integer('attempt_count').notNull(),
    next_attempt_at: timestamp('next_attempt_at'),
    attempts: jsonb('attempts').$type<DeliveryRecord['attempts']>().notNull(),
    created_at: timestamp('created_at').notNull(),
    created_seq: createdSeq(),
    /** The dispatcher holding it and until when: a claim whose lease ran out (its holder died) is due again. */
    claim_token: text('claim_token'),
    locked_until: timestamp('locked_until'),
    /** The W3C traceparent of the request that queued it, when the server traces: the delivery's span links to it. */
    trace_context: text('trace_context'),
  },
  (t) => [
    // The dispatcher claims due work: WHERE status = 'pending' AND next_attempt_at <= now.
    index('deliveries_status_next_idx').on(t.status, t.next_attempt_at),
    // The lease renewal: an instance's pending deliveries.
    index('deliveries_claim_idx').on(t.claim_token).where(sql`${t.status} = 'pending'`),
    // An endpoint's delivery log, newest first.
    index('deliveries_endpoint_created_idx').on(t.endpoint_id, t.created_at, t.created_seq),
  ],
);

/** One message a campaign run sends to one customer: at most one per (campaign, run, customer). */
export const messages = pgTable(
  'messages',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid')
      .notNull()
      .references(() => companies.uuid),
    campaign_id: id('campaign_id').notNull(),
    customer_id: id('customer_id').notNull(),
    phone_number: text('phone_number').notNull(),
    status: text('status').$type<MessageRecord['status']>().notNull(),
    error: text('error'),
    error_code: integer('error_code'),
    run_key: text('run_key').notNull(),
    provider_message_id: text('provider_message_id'),
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at'),
    created_at: timestamp('created_at').notNull(),
    updated_at: timestamp('updated_at').notNull(),
  },
  (t) => [
    // A resumed run never messages a customer twice.
    unique('messages_run_customer_unique').on(t.campaign_id, t.run_key, t.customer_id),
    // The report: counts by status per company and per campaign.
    index('messages_company_campaign_status_idx').on(t.company_uuid, t.campaign_id, t.status),
    // A provider's statuses find their message by the provider's id.
    index('messages_provider_message_id_idx').on(t.provider_message_id),
  ],
);

/**
 * The chunks of a campaign's run: the company's customers with an id after `after_id` and up to
 * `through_id` (every one after, when null), claimed by an instance under its lease until it is done.
 */
export const campaignChunks = pgTable(
  'campaign_chunks',
  {
    id: id('id').primaryKey(),
    company_uuid: id('company_uuid').notNull(),
    campaign_id: id('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    run_key: text('run_key').notNull(),
    seq: integer('seq').notNull(),
    after_id: id('after_id'),
    through_id: id('through_id'),
    done: boolean('done').notNull().default(false),
    claim_token: text('claim_token'),
    claim_until: timestamp('claim_until'),
  },
  (t) => [
    // A run is planned once: a second start of the same run adds nothing.
    unique('campaign_chunks_run_seq_unique').on(t.campaign_id, t.run_key, t.seq),
    // The claim: chunks not done, earliest runs first, the first chunk of each run before the second of any.
    index('campaign_chunks_open_idx').on(t.run_key, t.seq, t.campaign_id).where(sql`NOT ${t.done}`),
    // The lease renewal: an instance's chunks.
    index('campaign_chunks_claim_idx').on(t.claim_token).where(sql`NOT ${t.done}`),
  ],
);

/**
 * Messages by campaign, status and (for failures) the provider's error code, kept with every message
 * write, so the report reads a few rows instead of every message.
 */
export const messageCounts = pgTable(
  'message_counts',
  {
    company_uuid: id('company_uuid').notNull(),
    campaign_id: id('campaign_id').notNull(),
    status: text('status').$type<MessageRecord['status']>().notNull(),
    /** A failure's provider error code as text; '' for the other statuses and for failures without one. */
    code: text('code').notNull().default(''),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaign_id, t.status, t.code] }), index('message_counts_company_idx').on(t.company_uuid)],
);

/** A provider's statuses that found no message yet (`KeptStatusPort`): applied once one has their provider id, dropped when they expire. */
export const keptStatuses = pgTable(
  'kept_statuses',
  {
    id: id('id').primaryKey(),
    message_id: id('message_id'),
    provider_message_id: text('provider_message_id').notNull(),
    status: text('status').$type<KeptStatusRecord['status']>().notNull(),
    error: text('error'),
    error_code: integer('error_code'),
    at: timestamp('at').notNull(),
    received_at: timestamp('received_at').notNull(),
  },
  (t) => [index('kept_statuses_provider_message_id_idx').on(t.provider_message_id), index('kept_statuses_received_at_idx').on(t.received_at, t.id)],
);

/** The send slots of each provider number (`SendPacePort`): when each was last used, in ms since the epoch. */
export const sendSlots = pgTable(
  'send_slots',
  {
    key: text('key').notNull(),
    slot: integer('slot').notNull(),
    used_at: bigint('used_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.slot] })],
);

/**
 * The pair rate: each provider number's last turn to each recipient (ms since the epoch). A turn older
 * than the gap says nothing, and is forgotten a few at a time (`takePairTurns`).
 */
export const pairTurns = pgTable(
  'pair_turns',
  {
    key: text('key').notNull(),
    recipient: text('recipient').notNull(),
    last_at: bigint('last_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.recipient] }), index('pair_turns_key_last_at').on(t.key, t.last_at)],
);

/** The runs (due times) each campaign has had, kept with the first message of each run. */
export const campaignRuns = pgTable(
  'campaign_runs',
  {
    company_uuid: id('company_uuid').notNull(),
    campaign_id: id('campaign_id').notNull(),
    run_key: text('run_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.campaign_id, t.run_key] }), index('campaign_runs_company_idx').on(t.company_uuid)],
);

/** Idempotency keys of writes: the request they came with and, once it finished, its answer. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    request_hash: text('request_hash').notNull(),
    status: integer('status'),
    body: jsonb('body'),
    created_at: timestamp('created_at').notNull(),
    /** The instance answering it and until when: a key whose instance died is taken over once this has passed. */
    claim_token: text('claim_token'),
    claim_until: timestamp('claim_until'),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.created_at),
    index('idempotency_keys_claim_idx').on(t.claim_token).where(sql`${t.status} IS NULL`),
  ],
);

/** Every table, for drizzle's `schema` option and for tests that empty the database. */
export const schema = {
  settings,
  companies,
  templates,
  templateReviews,
  campaigns,
  orders,
  customers,
  events,
  webhookEndpoints,
  deliveries,
  messages,
  messageCounts,
  keptStatuses,
  campaignRuns,
  campaignChunks,
  idempotencyKeys,
};
export type Schema = typeof schema;
