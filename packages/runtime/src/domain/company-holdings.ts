/**
 * Everything the store holds for one company, whole: what a test double shows of a company (the mock's
 * `state()`), read through the domain's lists rather than the store's.
 */

import type { Store } from '../store/ports.ts';
import { compareCreatedAt } from '../store/shared.ts';
import type {
  CampaignRecord,
  CompanyRecord,
  CustomerRecord,
  DeliveryRecord,
  EndpointRecord,
  EventRecord,
  OrderRecord,
  TemplateRecord,
} from '../store/types.ts';
import { listCampaigns } from './campaigns.ts';
import { listCustomers } from './customers.ts';
import { everyPage } from './every-page.ts';
import { listTemplates } from './templates.ts';
import { listDeliveries, listEndpoints } from './webhook-endpoints.ts';

/** Every record of one company, each list oldest first. */
export interface CompanyHoldings {
  company: CompanyRecord;
  orders: OrderRecord[];
  campaigns: CampaignRecord[];
  customers: CustomerRecord[];
  templates: TemplateRecord[];
  endpoints: EndpointRecord[];
  /** The deliveries to every endpoint of the company, with their attempts. */
  deliveries: DeliveryRecord[];
  /** Every order event, whether or not an endpoint received it. */
  events: EventRecord[];
}

/** Everything the store holds for the company `companyUuid` (canonical), or null when it does not know the company. */
export async function companyHoldings(store: Store, companyUuid: string): Promise<CompanyHoldings | null> {
  const company = await store.getCompany(companyUuid);
  if (!company) return null;
  const endpoints = await everyPage((p) => listEndpoints(store, company, p));
  const deliveries: DeliveryRecord[] = [];
  for (const endpoint of endpoints) deliveries.push(...(await everyPage((p) => listDeliveries(store, endpoint, p))));
  return {
    company,
    orders: await everyPage((p) => store.listOrders(company.uuid, p)),
    campaigns: await everyPage((p) => listCampaigns(store, company, p)),
    customers: await everyPage((p) => listCustomers(store, company, p)),
    templates: await everyPage((p) => listTemplates(store, company, p)),
    endpoints,
    // An endpoint lists its deliveries newest first: oldest first across them (the sort is stable for equal times).
    deliveries: deliveries.sort(compareCreatedAt),
    events: await everyPage((p) => store.listEvents(company.uuid, p)),
  };
}
