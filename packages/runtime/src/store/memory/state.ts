/**
 * What the memory store holds, shared by its ports: the records, the indexes their reads need, and the
 * journal of the transaction that is running. Each port of the memory store is a file of its own over
 * this state (store.ts puts them together).
 */
import { type Decimal, decimalZero } from '../../money.ts';
import { copy } from '../copy.ts';
import { SortedList } from '../sorted-list.ts';
import type {
  CampaignRecord,
  CompanyRecord,
  CustomerRecord,
  DeliveryRecord,
  EndpointRecord,
  EventRecord,
  KeptStatusRecord,
  OrderRecord,
  Page,
  TemplateRecord,
  TemplateReview,
  TokenRecord,
} from '../types.ts';
import type { createMemoryCampaignRuns } from './campaign-runs.ts';
import type { createMemoryDispatch } from './dispatch.ts';
import type { createMemoryIdempotency } from './idempotency.ts';
import type { createMemorySendPace } from './send-pace.ts';
import type { MemoryJournal } from './transaction-journal.ts';

/** Everything kept for one company, with the indexes its reads need. */
export interface CompanyState {
  /** By seq - 1 (seqs are dense from 1). */
  campaigns: CampaignRecord[];
  campaignsById: Map<string, CampaignRecord>;
  campaignNames: Set<string>;
  campaignsByStatus: Map<string, number>;
  /** By company_order_id. */
  orders: Map<string, OrderRecord>;
  /** Phone number -> company_order_ids of the orders naming it. */
  ordersByPhone: Map<string, Set<string>>;
  orderAmount: Decimal;
  /** By phone number. */
  customers: Map<string, CustomerRecord>;
  customerList: SortedList<CustomerRecord>;
  endpointList: SortedList<EndpointRecord>;
  /** The tokens kept, by issue time, then in the order they were kept. */
  tokens: TokenRecord[];
  /** Tokens issued at or before this time are refused (null: never set). */
  tokensValidAfter: string | null;
}

/** A company's state before it has any record. */
export function newCompanyState(): CompanyState {
  return {
    campaigns: [],
    campaignsById: new Map(),
    campaignNames: new Set(),
    campaignsByStatus: new Map(),
    orders: new Map(),
    ordersByPhone: new Map(),
    orderAmount: decimalZero,
    customers: new Map(),
    customerList: new SortedList(),
    endpointList: new SortedList(),
    tokens: [],
    tokensValidAfter: null,
  };
}

/** The records of every aggregate the memory store keeps (what a snapshot copies, with the parts' own state). */
export interface MemoryRecords {
  settings: Map<string, string>;
  companies: Map<string, CompanyRecord>;
  companyCodes: Set<string>;
  /** Sort keys of the companies (`id` is the uuid), oldest first. */
  companyList: SortedList<{ id: string; created_at: string }>;
  states: Map<string, CompanyState>;
  templates: Map<string, TemplateRecord>;
  /** The review WhatsApp last reported for each template id, submitted or not yet. */
  templateReviews: Map<string, TemplateReview & { updated_at: string }>;
  endpoints: Map<string, EndpointRecord>;
  events: Map<string, EventRecord>;
  deliveries: Map<string, DeliveryRecord>;
  deliveriesByEndpoint: Map<string, SortedList<DeliveryRecord>>;
  /** Provider statuses that found no message yet, by id, in the order kept. */
  keptStatuses: Map<string, KeptStatusRecord>;
}

/** The memory store's state: its records, the parts with state of their own, and the running transaction's journal. */
export interface MemoryState extends MemoryRecords {
  dispatch: ReturnType<typeof createMemoryDispatch>;
  runs: ReturnType<typeof createMemoryCampaignRuns>;
  idempotency: ReturnType<typeof createMemoryIdempotency>;
  pace: ReturnType<typeof createMemorySendPace>;
  tx: MemoryJournal;
}

/** Empty records. */
export function newMemoryRecords(): MemoryRecords {
  return {
    settings: new Map(),
    companies: new Map(),
    companyCodes: new Set(),
    companyList: new SortedList(),
    states: new Map(),
    templates: new Map(),
    templateReviews: new Map(),
    endpoints: new Map(),
    events: new Map(),
    deliveries: new Map(),
    deliveriesByEndpoint: new Map(),
    keptStatuses: new Map(),
  };
}

/** The state of a company that must exist before its records are written. */
export function requireState(state: MemoryState, companyUuid: string): CompanyState {
  const company = state.states.get(companyUuid);
  if (!company) throw new Error(`Unknown company "${companyUuid}": create it before writing its records.`);
  return company;
}

/** Counts a campaign into (1) or out of (-1) its status's count. */
export function bumpStatus(company: CompanyState, status: string, by: 1 | -1): void {
  const count = (company.campaignsByStatus.get(status) ?? 0) + by;
  if (count === 0) company.campaignsByStatus.delete(status);
  else company.campaignsByStatus.set(status, count);
}

/** A page of copies. */
export function page<T>(items: T[], total: number): Page<T> {
  return { items: items.map(copy), total };
}
