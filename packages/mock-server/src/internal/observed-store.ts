import type { Campaign, Company, Customer, Delivery, Order, Template, WebhookEndpoint, WebhookEvent } from '@engagekit/contract';
import {
  type Page,
  type PageRequest,
  presentCampaign,
  presentCustomer,
  presentDelivery,
  presentEndpoint,
  presentOrder,
  type Store,
  type TemplateRecord,
} from '@engagekit/reference-server';

/** Everything the mock holds for one company, as the API shows it; every list oldest first. */
export interface MockState {
  company: Company;
  orders: Order[];
  campaigns: Campaign[];
  customers: Customer[];
  templates: Template[];
  /** Webhook endpoints. */
  webhooks: WebhookEndpoint[];
  /** Webhook deliveries to every endpoint, with their attempts. */
  deliveries: Delivery[];
  /** Every order event emitted (the payloads webhooks carry), whether or not an endpoint received it. */
  events: WebhookEvent[];
}

/**
 * A store that remembers what it cannot list (orders, templates, events) so the mock can show the
 * whole state. Every other method is the inner store's own, so new Store methods pass through untouched.
 */
export function observeStore(inner: Store) {
  const orderKeys = new Map<string, Set<string>>();
  const templates = new Map<string, Map<string, TemplateRecord>>();
  const eventIds = new Map<string, Set<string>>();
  const remember = <V>(map: Map<string, Set<V>>, company: string, value: V) => {
    const set = map.get(company) ?? new Set<V>();
    map.set(company, set);
    set.add(value);
  };

  const store: Store = {
    ...inner,
    async upsertOrder(ctx, company, companyOrderId, fields) {
      const result = await inner.upsertOrder(ctx, company, companyOrderId, fields);
      remember(orderKeys, company.uuid, companyOrderId);
      remember(eventIds, company.uuid, result.event.id);
      return result;
    },
    async updateOrder(ctx, company, companyOrderId, fields) {
      const result = await inner.updateOrder(ctx, company, companyOrderId, fields);
      if (result) remember(eventIds, company.uuid, result.event.id);
      return result;
    },
    async upsertTemplate(template) {
      const stored = await inner.upsertTemplate(template);
      const byKey = templates.get(stored.company_uuid) ?? new Map<string, TemplateRecord>();
      templates.set(stored.company_uuid, byKey);
      byKey.set(JSON.stringify([stored.template_name, stored.phone_number]), stored);
      return stored;
    },
    async enqueueDelivery(ctx, event, endpointId) {
      const delivery = await inner.enqueueDelivery(ctx, event, endpointId);
      remember(eventIds, event.company_uuid, event.id);
      return delivery;
    },
  };

  /** The state of one company, or null when the store does not know it. */
  async function snapshot(companyUuid: string): Promise<MockState | null> {
    const company = await inner.getCompany(companyUuid);
    if (!company) return null;
    const orders = [];
    for (const key of orderKeys.get(companyUuid) ?? []) {
      const order = await inner.getOrder(companyUuid, key);
      if (order) orders.push(presentOrder(order));
    }
    const endpoints = await all((p) => inner.listEndpoints(companyUuid, p));
    const deliveries = [];
    for (const endpoint of endpoints) deliveries.push(...(await all((p) => inner.listDeliveries(companyUuid, endpoint.id, p))));
    const events = [];
    for (const id of eventIds.get(companyUuid) ?? []) {
      const event = await inner.getEvent(id);
      if (event) events.push(event.payload as unknown as WebhookEvent);
    }
    return {
      company,
      orders: oldestFirst(orders),
      campaigns: (await all((p) => inner.listCampaigns(companyUuid, p))).map(presentCampaign),
      customers: (await all((p) => inner.listCustomers(companyUuid, p))).map(presentCustomer),
      templates: oldestFirst([...(templates.get(companyUuid)?.values() ?? [])].map(({ company_uuid: _, ...t }) => t)),
      webhooks: endpoints.map(presentEndpoint),
      deliveries: oldestFirst(deliveries.map(presentDelivery)),
      events: oldestFirst(events),
    };
  }

  return { store, snapshot };
}

/** Every item of a paged store list. */
async function all<T>(list: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const got = await list({ page, limit: 100 });
    items.push(...got.items);
    if (got.items.length === 0 || items.length >= got.total) return items;
  }
}

/** Oldest first; items made in the same millisecond keep the order they were made in (the sort is stable). */
function oldestFirst<T extends { created_at: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}
