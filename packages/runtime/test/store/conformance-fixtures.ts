/** Builders for the store conformance suite: deterministic ids and time, and records with sensible defaults. */
import type { Store } from '../../src/store/ports.ts';
import type { CampaignRecord, CompanyRecord, EndpointRecord, EventRecord, OrderFields, TemplateRecord, WriteContext } from '../../src/store/types.ts';

/** A write context with ids `prefix_0001`, `prefix_0002`... and a clock that moves only when told. */
export function writer(start = '2025-01-15T10:00:00.000Z') {
  let counter = 0;
  let time = Date.parse(start);
  const ctx: WriteContext = {
    newId: (prefix) => `${prefix}_${String(++counter).padStart(4, '0')}`,
    get now() {
      return new Date(time).toISOString();
    },
  };
  return {
    ctx,
    /** Moves the clock forward (one second by default) and returns the new now. */
    tick(ms = 1000): string {
      time += ms;
      return ctx.now;
    },
    /** A context that hands out the given ids first (to make id order differ from creation order). */
    withIds(...ids: string[]): WriteContext {
      return { newId: (prefix) => ids.shift() ?? ctx.newId(prefix), now: ctx.now };
    },
  };
}

/** 0, 1, ..., n - 1. */
export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A company with a stable uuid derived from `n`. */
export function company(n: number, overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return {
    uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    company_id: `CO${n}`,
    name: `Company ${n}`,
    timezone: 'UTC',
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Creates `company(n)` in the store and returns it. */
export async function seedCompany(store: Store, n = 1, overrides: Partial<CompanyRecord> = {}): Promise<CompanyRecord> {
  return store.createCompany(company(n, overrides));
}

/** The mandatory fields of a new order, plus any others. */
export function orderFields(overrides: OrderFields = {}): OrderFields {
  return { totalAmount: 100, firstName: 'Ann', lastName: 'Lee', phoneNumber: '+15550000001', postalCode: '56789', streetAddress1: '1 Main St', ...overrides };
}

/** A campaign for `createCampaign`. */
export function campaign(companyUuid: string, name: string, now: string, overrides: Partial<CampaignRecord> = {}): Omit<CampaignRecord, 'seq'> {
  return {
    id: `cmp_${companyUuid.slice(-4)}_${name}`,
    company_uuid: companyUuid,
    name,
    status: 'scheduled',
    pause_reason: null,
    failure_reason: null,
    schedule_type: 'once',
    schedule: '2025-02-01T09:00:00.000Z',
    days: null,
    template_payload: {
      template_name: 'promo',
      language: 'en',
      header_variable: [],
      body_variable: ['first_name'],
      variables: { first_name: '{{customer.firstName}}' },
    },
    endDate: null,
    next_run_at: '2025-02-01T09:00:00.000Z',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A template for `upsertTemplate`. */
export function template(companyUuid: string, id: string, now: string, overrides: Partial<TemplateRecord> = {}): TemplateRecord {
  return {
    id,
    company_uuid: companyUuid,
    template_name: 'welcome',
    phone_number: '6363978748',
    wam_id: 'wam-1',
    status: 'submitted',
    reason: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A webhook endpoint for `createEndpoint` (enabled, every event type unless told otherwise). */
export function endpoint(companyUuid: string, id: string, now: string, overrides: Partial<EndpointRecord> = {}): EndpointRecord {
  return {
    id,
    company_uuid: companyUuid,
    url: `https://hooks.example.com/${id}`,
    description: '',
    events: [],
    enabled: true,
    disabled_reason: null,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previous_secrets: [],
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** Every delivery of an endpoint (up to 100), newest first. */
export async function deliveriesOf(store: Store, companyUuid: string, endpointId: string) {
  return store.listDeliveries(companyUuid, endpointId, { page: 1, limit: 100 });
}

/** An event of `co` for the outbox. */
export const event = (co: CompanyRecord, id: string, now: string): EventRecord => ({
  id,
  company_uuid: co.uuid,
  type: 'order.created',
  created_at: now,
  payload: { id, type: 'order.created', created_at: now, data: { order: { id: 'ord_1' } } },
});
