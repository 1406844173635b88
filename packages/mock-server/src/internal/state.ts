import type { Campaign, Company, Customer, Delivery, Order, Template, WebhookEndpoint, WebhookEvent } from '@engagekit/contract';
import {
  canonicalUuid,
  companyHoldings,
  presentCampaign,
  presentCustomer,
  presentDelivery,
  presentEndpoint,
  presentOrder,
  presentTemplate,
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

/** The state of one company as the store holds it (the runtime's `companyHoldings`, presented), or null when the store does not know the company. */
export async function companyState(store: Store, given: string): Promise<MockState | null> {
  const held = await companyHoldings(store, canonicalUuid(given));
  if (!held) return null;
  return {
    company: held.company,
    orders: held.orders.map(presentOrder),
    campaigns: held.campaigns.map(presentCampaign),
    customers: held.customers.map(presentCustomer),
    templates: held.templates.map(presentTemplate),
    webhooks: held.endpoints.map(presentEndpoint),
    deliveries: held.deliveries.map(presentDelivery),
    events: held.events.map((event) => event.payload as unknown as WebhookEvent),
  };
}
