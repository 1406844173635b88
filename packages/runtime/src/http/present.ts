import type { Campaign, Customer, Delivery, Order, WebhookEndpoint } from '@engagekit/contract';
import type { CampaignRecord, CustomerRecord, DeliveryRecord, EndpointRecord, OrderRecord } from '../store/types.ts';

/** Stored records as the API shows them. */
export function presentCampaign(r: CampaignRecord): Campaign {
  return {
    id: r.id,
    uuid: r.company_uuid,
    name: r.name,
    status: r.status,
    schedule_type: r.schedule_type,
    schedule: r.schedule,
    days: r.days,
    template_payload: r.template_payload,
    startDate: r.schedule.slice(0, 10),
    endDate: r.endDate,
    next_run_at: r.next_run_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function presentOrder(r: OrderRecord): Order {
  const { company_uuid: _, ...order } = r;
  return order;
}

export function presentCustomer(r: CustomerRecord): Customer {
  const { company_uuid: _, ...customer } = r;
  return customer;
}

export function presentEndpoint(r: EndpointRecord): WebhookEndpoint {
  const { company_uuid: _, previous_secrets: __, ...endpoint } = r;
  return endpoint;
}

export function presentDelivery(r: DeliveryRecord): Delivery {
  const { company_uuid: _, ...delivery } = r;
  return delivery;
}

/** `{ total, page, limit, totalPages }`. */
export function pagination(total: number, page: number, limit: number) {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}
