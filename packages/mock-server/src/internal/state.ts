import type { Campaign, Company, Customer, Delivery, Order, Template, WebhookEndpoint, WebhookEvent } from '@engagekit/contract';
import {
  canonicalUuid,
  type Page,
  type PageRequest,
  presentCampaign,
  presentCustomer,
  presentDelivery,
  presentEndpoint,
  presentOrder,
  type Store,
} from '@engagekit/runtime';

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

/** The state of one company as the store holds it, or null when the store does not know the company. */
export async function companyState(store: Store, given: string): Promise<MockState | null> {
  const companyUuid = canonicalUuid(given);
  const company = await store.getCompany(companyUuid);
  if (!company) return null;
  const endpoints = await all((p) => store.listEndpoints(companyUuid, p));
  const deliveries = [];
  for (const endpoint of endpoints) deliveries.push(...(await all((p) => store.listDeliveries(companyUuid, endpoint.id, p))));
  return {
    company,
    orders: (await all((p) => store.listOrders(companyUuid, p))).map(presentOrder),
    campaigns: (await all((p) => store.listCampaigns(companyUuid, p))).map(presentCampaign),
    customers: (await all((p) => store.listCustomers(companyUuid, p))).map(presentCustomer),
    templates: (await store.listTemplates(companyUuid)).map(({ company_uuid: _, ...template }) => template),
    webhooks: endpoints.map(presentEndpoint),
    // Listed newest first per endpoint: oldest first across them (the sort is stable for equal times).
    deliveries: deliveries.map(presentDelivery).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0)),
    events: (await all((p) => store.listEvents(companyUuid, p))).map((event) => event.payload as unknown as WebhookEvent),
  };
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
