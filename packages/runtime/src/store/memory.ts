import { addDecimal, type Decimal, decimalToNumber, decimalZero, toDecimal } from '../money.ts';
import { cloneGraph, copy, frozen } from './copy.ts';
import { createMemoryCampaignRuns } from './memory-campaign-runs.ts';
import { createMemoryDispatch } from './memory-dispatch.ts';
import { createMemoryIdempotency } from './memory-idempotency.ts';
import { compareCreatedAt, iso, pageOffset, phoneOrdersOf, type WriteLease } from './shared.ts';
import { SortedList } from './sorted-list.ts';
import {
  type CampaignRecord,
  type ClaimedDelivery,
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

/** Everything a memory store held at one moment: from `snapshot()`, for `restore()`. Opaque. */
export interface MemorySnapshot {
  readonly data: unknown;
}

/** The memory store: a Store that can also copy all it holds and go back to such a copy at once. */
export interface MemoryStore extends Store {
  /** A copy of everything held now. Take it between calls: it refuses while a transaction runs. */
  snapshot(): MemorySnapshot;
  /** Puts back what a snapshot held (it can be restored again). Like `snapshot()`, it refuses while a transaction runs. */
  restore(snapshot: MemorySnapshot): void;
}

/** Puts `source`'s contents into `target`'s containers (maps, sets, sorted lists, and objects of them), keeping the containers. */
function refill(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) {
    const into = target[key];
    const from = source[key];
    if (into instanceof Map) {
      into.clear();
      for (const [k, v] of from as Map<unknown, unknown>) into.set(k, v);
    } else if (into instanceof Set) {
      into.clear();
      for (const v of from as Set<unknown>) into.add(v);
    } else if (into instanceof SortedList) {
      into.refillFrom(from as SortedList<never>);
    } else {
      refill(into as Record<string, unknown>, from as Record<string, unknown>);
    }
  }
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
export function createMemoryStore(): MemoryStore {
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

  /** Every container of what the store holds (records and indexes): what a snapshot copies. */
  const held = {
    settings,
    companies,
    companyCodes,
    companyList,
    states,
    templates,
    endpoints,
    events,
    deliveries,
    deliveriesByEndpoint,
    dispatch: dispatch.state,
    idempotency: idempotency.state,
    runs: runs.state,
  };

  /** While a transaction runs: how to undo each of its writes, should it throw, and what to do once it commits. */
  let journal: (() => void)[] | undefined;
  let commitHooks: (() => void)[] = [];
  const undoable = (undo: () => void) => journal?.push(undo);
  /** Runs `f` once the transaction commits (at once outside one: each call is its own). */
  const committed = (f: () => void) => (journal ? commitHooks.push(f) : f());

  /** Adds a pending delivery; what sending it needs when it is leased to the taker (see the dispatch's `queued`). */
  function addDelivery(delivery: DeliveryRecord, lease: WriteLease | null): ClaimedDelivery | null {
    deliveries.set(delivery.id, delivery);
    const list = deliveriesByEndpoint.get(delivery.endpoint_id) ?? new SortedList<DeliveryRecord>();
    deliveriesByEndpoint.set(delivery.endpoint_id, list);
    list.insert(delivery);
    return dispatch.queued(delivery, lease);
  }

  function removeDelivery(delivery: DeliveryRecord): void {
    deliveries.delete(delivery.id);
    deliveriesByEndpoint.get(delivery.endpoint_id)?.remove(delivery);
    dispatch.forget(delivery.id);
  }

  /** Adds a customer; with the `seq` its removal gave, back at its place in the list. */
  function addCustomer(state: CompanyState, customer: CustomerRecord, seq?: number): void {
    state.customers.set(customer.phoneNumber, customer);
    state.customerList.insert(customer, seq);
  }

  /** Removes a customer; its place in the list, for `addCustomer` to put it back (an undo). */
  function removeCustomer(state: CompanyState, customer: CustomerRecord): number | undefined {
    state.customers.delete(customer.phoneNumber);
    return state.customerList.remove(customer);
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

  /**
   * Puts `order` in place of whatever order has its key (or removes that one, with `order` null); keeps
   * the indexes and the total. A replaced order keeps its place in the map, which is the order orders
   * were made in (listOrders' tie-break).
   */
  function putOrder(state: CompanyState, companyOrderId: string, order: OrderRecord | null): OrderRecord | null {
    const previous = state.orders.get(companyOrderId) ?? null;
    if (previous) {
      state.orderAmount = addDecimal(state.orderAmount, toDecimal(previous.totalAmount), -1);
      indexPhone(state, previous.phoneNumber, companyOrderId, false);
      if (!order) state.orders.delete(companyOrderId);
    }
    if (order) {
      state.orderAmount = addDecimal(state.orderAmount, toDecimal(order.totalAmount));
      indexPhone(state, order.phoneNumber, companyOrderId, true);
      state.orders.set(companyOrderId, order);
    }
    return previous;
  }

  const core: Omit<Store, 'transaction' | 'lock'> = {
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
      // The map holds templates in the order they were made (an update keeps a key's place).
      return [...templates.values()]
        .filter((t) => t.company_uuid === companyUuid)
        .sort(compareCreatedAt)
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
    async newestCampaigns(companyUuid, limit) {
      const all = states.get(companyUuid)?.campaigns ?? [];
      return all
        .slice(-limit)
        .reverse()
        .map(({ id, name, status }) => ({ id, name, status, messages: runs.campaignTotals(companyUuid, id) }));
    },

    async getOrder(companyUuid, companyOrderId) {
      const order = states.get(companyUuid)?.orders.get(companyOrderId);
      return order ? copy(order) : null;
    },
    async saveOrder(order) {
      const state = requireState(order.company_uuid);
      const existing = state.orders.get(order.company_order_id);
      const record = { ...copy(order), id: existing?.id ?? order.id, created_at: iso(order.created_at), updated_at: iso(order.updated_at) };
      const previous = putOrder(state, order.company_order_id, record);
      undoable(() => putOrder(state, order.company_order_id, previous));
    },
    async listOrders(companyUuid, request) {
      const all = [...(states.get(companyUuid)?.orders.values() ?? [])].sort(compareCreatedAt);
      return page(all.slice(pageOffset(request), pageOffset(request) + request.limit), all.length);
    },
    async phoneOrders(companyUuid, phoneNumber) {
      const state = states.get(companyUuid);
      const orders = phoneOrdersOf([...(state?.ordersByPhone.get(phoneNumber) ?? [])].map((id) => state?.orders.get(id) as OrderRecord));
      return orders && { ...orders, latest: copy(orders.latest) };
    },
    async orderTotals(companyUuid) {
      const state = states.get(companyUuid);
      return state ? { total: state.orders.size, amount: decimalToNumber(state.orderAmount) } : { total: 0, amount: 0 };
    },

    async getCustomers(companyUuid, phoneNumbers) {
      const state = states.get(companyUuid);
      return phoneNumbers.flatMap((phone) => {
        const customer = state?.customers.get(phone);
        return customer ? [copy(customer)] : [];
      });
    },
    async listCustomers(companyUuid, request) {
      const list = states.get(companyUuid)?.customerList;
      return list ? page(list.slice(pageOffset(request), request.limit), list.size) : { items: [], total: 0 };
    },
    async countCustomers(companyUuid) {
      return states.get(companyUuid)?.customerList.size ?? 0;
    },
    async saveCustomers(records) {
      for (const record of records) {
        const state = requireState(record.company_uuid);
        const existing = state.customers.get(record.phoneNumber);
        if (existing) {
          const before = copy(existing);
          // In place: the list keeps it where its (unchanged) created_at and id put it.
          Object.assign(existing, copy(record), { id: existing.id, created_at: existing.created_at, updated_at: iso(record.updated_at) });
          undoable(() => Object.assign(existing, before));
        } else {
          const customer = { ...copy(record), created_at: iso(record.created_at), updated_at: iso(record.updated_at) };
          addCustomer(state, customer);
          undoable(() => removeCustomer(state, customer));
        }
      }
    },
    async deleteCustomers(companyUuid, ids) {
      const state = states.get(companyUuid);
      if (!state) return;
      const doomed = new Set(ids);
      for (const customer of [...state.customers.values()]) {
        if (!doomed.has(customer.id)) continue;
        const seq = removeCustomer(state, customer);
        undoable(() => addCustomer(state, customer, seq));
      }
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
    async allEndpoints(companyUuid) {
      return (states.get(companyUuid)?.endpointList.items ?? []).map(copy);
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

    async appendEvent(event, pending) {
      requireState(event.company_uuid);
      if (!events.has(event.id)) {
        // Never changed once written: frozen, and shared by snapshots (see `frozen`).
        events.set(event.id, frozen({ ...copy(event), created_at: iso(event.created_at) }));
        undoable(() => events.delete(event.id));
      }
      const lease = dispatch.lease(pending.length);
      const claimed: ClaimedDelivery[] = [];
      for (const record of pending) {
        requireState(record.company_uuid);
        const delivery = { ...copy(record), created_at: iso(record.created_at) };
        const leased = addDelivery(delivery, lease);
        if (leased) claimed.push(leased);
        undoable(() => removeDelivery(delivery));
      }
      committed(() => dispatch.handOver(claimed));
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
      const all = [...events.values()].filter((e) => e.company_uuid === companyUuid).sort(compareCreatedAt);
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

  // Transactions run one at a time, and other calls wait while one runs: no call sees half of one.
  // A transaction that throws has its writes undone (the journal), so none of them stays.
  let queue: Promise<unknown> = Promise.resolve();
  let running: Promise<void> | undefined;
  const inTransaction: Store = {
    ...core,
    transaction: (fn) => fn(inTransaction),
    // Transactions already take turns: a lock would hold nothing more.
    lock: async () => {},
  };
  const outside = Object.fromEntries(
    Object.entries(core).map(([name, method]) => [
      name,
      (...args: unknown[]) => (running ? running.then(() => outside[name]?.(...args)) : (method as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return {
    ...(outside as unknown as Omit<Store, 'transaction' | 'lock'>),
    transaction(fn) {
      const result = queue.then(async () => {
        let end: () => void = () => {};
        running = new Promise((resolve) => {
          end = resolve;
        });
        journal = [];
        commitHooks = [];
        let hooks: (() => void)[] = [];
        try {
          const result = await fn(inTransaction);
          hooks = commitHooks;
          return result;
        } catch (error) {
          for (const undo of journal.reverse()) undo();
          throw error;
        } finally {
          journal = undefined;
          commitHooks = [];
          running = undefined;
          end();
          for (const hook of hooks) hook();
        }
      });
      queue = result.catch(() => {});
      return result;
    },
    async lock() {
      throw new Error('Store.lock holds locks for a transaction: call it on the store transaction(fn) gives fn.');
    },
    snapshot() {
      if (running) throw new Error('snapshot() while a transaction runs: take it between calls.');
      return { data: cloneGraph(held) };
    },
    restore(snapshot) {
      if (running) throw new Error('restore() while a transaction runs: restore between calls.');
      // A copy of the copy, so the snapshot stays as it was for the next restore.
      refill(held, cloneGraph(snapshot.data) as Record<string, unknown>);
    },
  };
}
