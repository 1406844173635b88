import type { EventType } from '@engagekit/contract';
import { copy } from './copy.ts';
import { createMemoryCampaignRuns } from './memory-campaign-runs.ts';
import { createMemoryDispatch } from './memory-dispatch.ts';
import { createMemoryIdempotency } from './memory-idempotency.ts';
import {
  addDecimal,
  assertCreatable,
  compareCreated,
  type Decimal,
  decimalToNumber,
  decimalZero,
  deriveCustomer,
  endpointWants,
  importedCustomer,
  importedNames,
  iso,
  mergeOrder,
  newOrderRecord,
  orderEvent,
  pageOffset,
  pendingDelivery,
  toDecimal,
} from './shared.ts';
import { SortedList } from './sorted-list.ts';
import {
  type CampaignRecord,
  type CompanyRecord,
  type CustomerRecord,
  type DeliveryRecord,
  type EndpointRecord,
  type EventRecord,
  type OrderRecord,
  type Page,
  type Store,
  StoreConflictError,
  type TemplateRecord,
  type WriteContext,
} from './types.ts';

/** Everything kept for one company, with the indexes its reads need. */
interface CompanyState {
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
}

function page<T>(items: T[], total: number): Page<T> {
  return { items: items.map(copy), total };
}

/**
 * A `Store` in plain maps, for the in-process mock and fast tests. Every method does all its work
 * synchronously before it resolves, so concurrent calls cannot interleave inside one operation.
 * Records go in and come out as copies: a caller mutating one cannot change what is stored.
 *
 * @example
 * const store = createMemoryStore();
 * await store.createCompany({ uuid, company_id: 'ACME', name: 'Acme', timezone: 'UTC', created_at: now });
 */
export function createMemoryStore(): Store {
  const settings = new Map<string, string>();
  const companies = new Map<string, CompanyRecord>();
  const companyCodes = new Set<string>();
  /** Sort keys of the companies (`id` is the uuid), oldest first. */
  const companyList = new SortedList<{ id: string; created_at: string }>();
  const states = new Map<string, CompanyState>();
  const templates = new Map<string, TemplateRecord>();
  const endpoints = new Map<string, EndpointRecord>();
  const events = new Map<string, EventRecord>();
  const deliveries = new Map<string, DeliveryRecord>();
  const deliveriesByEndpoint = new Map<string, SortedList<DeliveryRecord>>();
  const dispatch = createMemoryDispatch({ deliveries, endpoints, events });
  const idempotency = createMemoryIdempotency();
  const runs = createMemoryCampaignRuns({
    campaigns: function* () {
      for (const state of states.values()) yield* state.campaigns;
    },
    campaignById: (id) => {
      for (const state of states.values()) {
        const c = state.campaignsById.get(id);
        if (c) return c;
      }
      return undefined;
    },
    setStatus: (campaign, status) => {
      const state = states.get(campaign.company_uuid);
      if (!state || campaign.status === status) return;
      bumpStatus(state, campaign.status, -1);
      bumpStatus(state, status, 1);
      campaign.status = status;
    },
  });

  function requireState(companyUuid: string): CompanyState {
    const state = states.get(companyUuid);
    if (!state) throw new Error(`Unknown company "${companyUuid}": create it before writing its records.`);
    return state;
  }

  function bumpStatus(state: CompanyState, status: string, by: 1 | -1): void {
    const count = (state.campaignsByStatus.get(status) ?? 0) + by;
    if (count === 0) state.campaignsByStatus.delete(status);
    else state.campaignsByStatus.set(status, count);
  }

  function addDelivery(ctx: WriteContext, event: EventRecord, endpointId: string): DeliveryRecord {
    const delivery = pendingDelivery(ctx, event, endpointId);
    deliveries.set(delivery.id, delivery);
    const list = deliveriesByEndpoint.get(endpointId) ?? new SortedList<DeliveryRecord>();
    deliveriesByEndpoint.set(endpointId, list);
    list.insert(delivery);
    dispatch.queued(delivery);
    return delivery;
  }

  function derive(state: CompanyState, phone: string) {
    const ids = state.ordersByPhone.get(phone);
    return ids ? deriveCustomer([...ids].map((id) => state.orders.get(id) as OrderRecord)) : null;
  }

  function addCustomer(state: CompanyState, customer: CustomerRecord): void {
    state.customers.set(customer.phoneNumber, customer);
    state.customerList.insert(customer);
  }

  /** Brings a phone's customer in line with its orders after an order change (counts 0 when none is left). */
  function recountCustomer(ctx: WriteContext, state: CompanyState, companyUuid: string, phone: string): void {
    const derived = derive(state, phone);
    const customer = state.customers.get(phone);
    const now = iso(ctx.now);
    if (!derived) {
      if (customer) Object.assign(customer, { orders_count: 0, orders_amount: 0, updated_at: now });
      return;
    }
    if (customer) Object.assign(customer, derived, { updated_at: now });
    else addCustomer(state, { id: ctx.newId('cus'), company_uuid: companyUuid, phoneNumber: phone, ...derived, created_at: now, updated_at: now });
  }

  function indexPhone(state: CompanyState, phone: string, companyOrderId: string, add: boolean): void {
    const ids = state.ordersByPhone.get(phone);
    if (add) {
      if (ids) ids.add(companyOrderId);
      else state.ordersByPhone.set(phone, new Set([companyOrderId]));
    } else if (ids) {
      ids.delete(companyOrderId);
      if (ids.size === 0) state.ordersByPhone.delete(phone);
    }
  }

  /** The one order write: insert or merge, then customers, outbox event and deliveries. */
  function writeOrder(ctx: WriteContext, company: CompanyRecord, companyOrderId: string, fields: Parameters<Store['upsertOrder']>[3], mayCreate: boolean) {
    const state = requireState(company.uuid);
    const existing = state.orders.get(companyOrderId);
    if (!existing && !mayCreate) return null;
    let order: OrderRecord;
    const phones = new Set<string>();
    if (existing) {
      order = mergeOrder(existing, fields, ctx.now);
      state.orderAmount = addDecimal(addDecimal(state.orderAmount, toDecimal(existing.totalAmount), -1), toDecimal(order.totalAmount));
      indexPhone(state, existing.phoneNumber, companyOrderId, false);
      phones.add(existing.phoneNumber);
    } else {
      assertCreatable(companyOrderId, fields);
      order = newOrderRecord(ctx.newId('ord'), company, companyOrderId, fields, ctx.now);
      state.orderAmount = addDecimal(state.orderAmount, toDecimal(order.totalAmount));
    }
    order = copy(order);
    state.orders.set(companyOrderId, order);
    indexPhone(state, order.phoneNumber, companyOrderId, true);
    phones.add(order.phoneNumber);
    // Same order as the SQL store (which locks customers by phone): ids come out identical.
    for (const phone of [...phones].sort()) recountCustomer(ctx, state, company.uuid, phone);
    const type: EventType = existing ? 'order.updated' : 'order.created';
    const event = orderEvent(ctx, order, type);
    events.set(event.id, event);
    for (const endpoint of state.endpointList.items) if (endpointWants(endpoint, type)) addDelivery(ctx, event, endpoint.id);
    return { order: copy(order), created: !existing, event: copy(event) };
  }

  return {
    async getSetting(key) {
      return settings.get(key) ?? null;
    },
    async putSettingIfAbsent(key, value) {
      if (!settings.has(key)) settings.set(key, value);
      return settings.get(key) as string;
    },

    async createCompany(company) {
      if (companyCodes.has(company.company_id)) throw new StoreConflictError('company_id', `A company with company_id "${company.company_id}" exists already.`);
      if (companies.has(company.uuid)) throw new Error(`A company with uuid "${company.uuid}" exists already.`);
      const record = { ...copy(company), created_at: iso(company.created_at) };
      companies.set(record.uuid, record);
      companyCodes.add(record.company_id);
      companyList.insert({ id: record.uuid, created_at: record.created_at });
      states.set(record.uuid, {
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
      });
      return copy(record);
    },
    async getCompany(uuid) {
      const company = companies.get(uuid);
      return company ? copy(company) : null;
    },
    async listCompanies(request) {
      const items = companyList.slice(pageOffset(request), request.limit).map((entry) => companies.get(entry.id) as CompanyRecord);
      return page(items, companyList.size);
    },

    async upsertTemplate(template) {
      requireState(template.company_uuid);
      const key = JSON.stringify([template.company_uuid, template.template_name, template.phone_number]);
      const existing = templates.get(key);
      const record: TemplateRecord = { ...copy(template), created_at: iso(template.created_at), updated_at: iso(template.updated_at) };
      if (existing) Object.assign(record, { id: existing.id, created_at: existing.created_at });
      templates.set(key, record);
      return copy(record);
    },

    async listTemplates(companyUuid) {
      return [...templates.values()]
        .filter((t) => t.company_uuid === companyUuid)
        .sort(compareCreated)
        .map(copy);
    },

    async createCampaign(campaign) {
      const state = requireState(campaign.company_uuid);
      if (state.campaignNames.has(campaign.name)) throw new StoreConflictError('name', `A campaign named "${campaign.name}" exists already.`);
      const record: CampaignRecord = {
        ...copy(campaign),
        schedule: iso(campaign.schedule),
        next_run_at: campaign.next_run_at === null ? null : iso(campaign.next_run_at),
        created_at: iso(campaign.created_at),
        updated_at: iso(campaign.updated_at),
        seq: state.campaigns.length + 1,
      };
      state.campaigns.push(record);
      state.campaignsById.set(record.id, record);
      state.campaignNames.add(record.name);
      bumpStatus(state, record.status, 1);
      return copy(record);
    },
    async getCampaign(companyUuid, id) {
      const campaign = states.get(companyUuid)?.campaignsById.get(id);
      return campaign ? copy(campaign) : null;
    },
    async listCampaigns(companyUuid, request) {
      const all = states.get(companyUuid)?.campaigns ?? [];
      // seq in ((page-1)*limit, page*limit]: the same window the SQL store reads from its index.
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async updateCampaign(companyUuid, id, patch, now) {
      const state = states.get(companyUuid);
      const campaign = state?.campaignsById.get(id);
      if (!state || !campaign) return null;
      if (patch.status !== undefined && patch.status !== campaign.status) {
        bumpStatus(state, campaign.status, -1);
        bumpStatus(state, patch.status, 1);
        campaign.status = patch.status;
      }
      if (patch.endDate !== undefined) campaign.endDate = patch.endDate;
      if (patch.next_run_at !== undefined) campaign.next_run_at = patch.next_run_at === null ? null : iso(patch.next_run_at);
      campaign.updated_at = iso(now);
      return copy(campaign);
    },
    async countCampaignsByStatus(companyUuid) {
      return Object.fromEntries(states.get(companyUuid)?.campaignsByStatus ?? []);
    },

    async upsertOrder(ctx, company, companyOrderId, fields) {
      return writeOrder(ctx, company, companyOrderId, fields, true) as NonNullable<ReturnType<typeof writeOrder>>;
    },
    async updateOrder(ctx, company, companyOrderId, fields) {
      const result = writeOrder(ctx, company, companyOrderId, fields, false);
      return result && { order: result.order, event: result.event };
    },
    async getOrder(companyUuid, companyOrderId) {
      const order = states.get(companyUuid)?.orders.get(companyOrderId);
      return order ? copy(order) : null;
    },
    async listOrders(companyUuid, request) {
      const all = [...(states.get(companyUuid)?.orders.values() ?? [])].sort(compareCreated);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async orderTotals(companyUuid) {
      const state = states.get(companyUuid);
      return state ? { total: state.orders.size, amount: decimalToNumber(state.orderAmount) } : { total: 0, amount: 0 };
    },

    async listCustomers(companyUuid, request) {
      const list = states.get(companyUuid)?.customerList;
      return list ? page(list.slice(pageOffset(request), request.limit), list.size) : { items: [], total: 0 };
    },
    async importCustomers(ctx, companyUuid, input) {
      const state = requireState(companyUuid);
      const now = iso(ctx.now);
      let created = 0;
      let updated = 0;
      for (const row of input) {
        const existing = state.customers.get(row.phoneNumber);
        if (existing) {
          Object.assign(existing, importedNames(row), { updated_at: now });
          updated++;
        } else {
          addCustomer(state, importedCustomer(ctx.newId('cus'), companyUuid, row, now));
          created++;
        }
      }
      return { created, updated };
    },
    async syncCustomers(ctx, companyUuid) {
      const state = states.get(companyUuid);
      if (!state) return { total: 0, created: 0, updated: 0, removed: 0 };
      const now = iso(ctx.now);
      const result = { total: 0, created: 0, updated: 0, removed: 0 };
      for (const phone of [...state.ordersByPhone.keys()].sort()) {
        const derived = derive(state, phone);
        if (!derived) continue;
        const customer = state.customers.get(phone);
        if (!customer) {
          addCustomer(state, { id: ctx.newId('cus'), company_uuid: companyUuid, phoneNumber: phone, ...derived, created_at: now, updated_at: now });
          result.created++;
        } else if ((Object.keys(derived) as (keyof typeof derived)[]).some((key) => customer[key] !== derived[key])) {
          Object.assign(customer, derived, { updated_at: now });
          result.updated++;
        }
      }
      for (const customer of [...state.customers.values()]) {
        if (customer.source === 'orders' && !state.ordersByPhone.has(customer.phoneNumber)) {
          state.customers.delete(customer.phoneNumber);
          state.customerList.remove(customer);
          result.removed++;
        }
      }
      result.total = state.customers.size;
      return result;
    },

    async createEndpoint(endpoint) {
      const state = requireState(endpoint.company_uuid);
      if (endpoints.has(endpoint.id)) throw new Error(`A webhook endpoint with id "${endpoint.id}" exists already.`);
      const record: EndpointRecord = { ...copy(endpoint), created_at: iso(endpoint.created_at), updated_at: iso(endpoint.updated_at) };
      endpoints.set(record.id, record);
      state.endpointList.insert(record);
      return copy(record);
    },
    async getEndpoint(companyUuid, id) {
      const endpoint = endpoints.get(id);
      return endpoint && endpoint.company_uuid === companyUuid ? copy(endpoint) : null;
    },
    async listEndpoints(companyUuid, request) {
      const list = states.get(companyUuid)?.endpointList;
      return list ? page(list.slice(pageOffset(request), request.limit), list.size) : { items: [], total: 0 };
    },
    async updateEndpoint(companyUuid, id, patch, now) {
      const endpoint = endpoints.get(id);
      if (!endpoint || endpoint.company_uuid !== companyUuid) return null;
      for (const [key, value] of Object.entries(copy(patch))) if (value !== undefined) Object.assign(endpoint, { [key]: value });
      endpoint.updated_at = iso(now);
      return copy(endpoint);
    },
    async deleteEndpoint(companyUuid, id) {
      const endpoint = endpoints.get(id);
      if (!endpoint || endpoint.company_uuid !== companyUuid) return false;
      endpoints.delete(id);
      states.get(companyUuid)?.endpointList.remove(endpoint);
      const list = deliveriesByEndpoint.get(id);
      for (const delivery of [...(list?.items ?? [])]) {
        if (delivery.status !== 'pending') continue;
        deliveries.delete(delivery.id);
        dispatch.forget(delivery.id);
        list?.remove(delivery);
      }
      return true;
    },

    async enqueueDelivery(ctx, event, endpointId) {
      requireState(event.company_uuid);
      if (!events.has(event.id)) events.set(event.id, { ...copy(event), created_at: iso(event.created_at) });
      return copy(addDelivery(ctx, event, endpointId));
    },
    async getDelivery(companyUuid, endpointId, id) {
      const delivery = deliveries.get(id);
      return delivery && delivery.company_uuid === companyUuid && delivery.endpoint_id === endpointId ? copy(delivery) : null;
    },
    async getEvent(id) {
      const event = events.get(id);
      return event ? copy(event) : null;
    },
    async listEvents(companyUuid, request) {
      const all = [...events.values()].filter((e) => e.company_uuid === companyUuid).sort(compareCreated);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async listDeliveries(companyUuid, endpointId, request) {
      const all = deliveriesByEndpoint.get(endpointId)?.items ?? [];
      const matching: DeliveryRecord[] = [];
      // Newest first: walk the oldest-first list backwards.
      for (let i = all.length - 1; i >= 0; i--) {
        const delivery = all[i] as DeliveryRecord;
        if (delivery.company_uuid === companyUuid && (request.status === undefined || delivery.status === request.status)) matching.push(delivery);
      }
      return page(matching.slice(pageOffset(request), pageOffset(request) + request.limit), matching.length);
    },

    ...dispatch.methods,
    ...runs.methods,
    ...idempotency.methods,

    async close() {
      dispatch.clear();
      idempotency.clear();
      runs.clear();
      settings.clear();
      companies.clear();
      companyCodes.clear();
      states.clear();
      templates.clear();
      endpoints.clear();
      events.clear();
      deliveries.clear();
      deliveriesByEndpoint.clear();
    },
  };
}
