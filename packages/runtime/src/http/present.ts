/**
 * Stored records as the API shows them: each is the contract's output schema's fields, taken from the
 * record by the schema's own keys, so a field added to the contract (and stored) is shown with no
 * change here. A stored record also carries fields of the store's own (`company_uuid`, a campaign's
 * `seq`, an endpoint's previous secrets), which are never shown.
 */
import { Campaign, Customer, Delivery, IssuedToken, Template, WebhookEndpoint } from '@engagekit/contract';
import { orderSnapshot } from '../domain/orders.ts';
import { schemaFields as fields, shaped as pick } from '../shape.ts';
import type { CampaignRecord, CustomerRecord, DeliveryRecord, EndpointRecord, TemplateRecord, TokenRecord } from '../store/types.ts';

const CAMPAIGN = fields(Campaign);
const CUSTOMER = fields(Customer);
const TEMPLATE = fields(Template);
const ENDPOINT = fields(WebhookEndpoint);
const DELIVERY = fields(Delivery);
const TOKEN = fields(IssuedToken);

/** A campaign, with the fields the API derives: `uuid` (its company's) and `startDate` (its schedule's day). */
export function presentCampaign(r: CampaignRecord): Campaign {
  return pick({ ...r, uuid: r.company_uuid, startDate: r.schedule.slice(0, 10) }, CAMPAIGN);
}

/** An order: the snapshot its webhooks carry. */
export const presentOrder = orderSnapshot;
export const presentCustomer = (r: CustomerRecord): Customer => pick(r, CUSTOMER);
export const presentTemplate = (r: TemplateRecord): Template => pick(r, TEMPLATE);
export const presentEndpoint = (r: EndpointRecord): WebhookEndpoint => pick(r, ENDPOINT);
export const presentDelivery = (r: DeliveryRecord): Delivery => pick(r, DELIVERY);
/** A kept token: its id, scopes and times, never its company. */
export const presentToken = (r: TokenRecord): IssuedToken => pick(r, TOKEN);

/** `{ total, page, limit, totalPages }`: the pagination of admin lists and getCampaignData. */
export function pagination(total: number, page: number, limit: number) {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/** `{ before, after }`: getCustomers' previous and next page numbers, null at either end. */
export function paging(total: number, page: number, limit: number) {
  const last = Math.max(1, Math.ceil(total / limit));
  return { before: page > 1 ? Math.min(page - 1, last) : null, after: page < last ? page + 1 : null };
}
