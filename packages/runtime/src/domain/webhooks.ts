/**
 * Webhooks: which endpoints an event goes to, and the outbox writes that queue its deliveries. The
 * dispatcher (webhooks/dispatcher.ts) sends what is queued here.
 */
import type { EventType, Order } from '@engagekit/contract';
import { iso } from '../store/shared.ts';
import type { CompanyRecord, DeliveryRecord, EndpointRecord, EventRecord, Store, WriteContext } from '../store/types.ts';

/** Whether an endpoint receives events of `type`: enabled, and subscribed (an empty list means every type). */
export function endpointWants(endpoint: Pick<EndpointRecord, 'enabled' | 'events'>, type: EventType): boolean {
  return endpoint.enabled && (endpoint.events.length === 0 || endpoint.events.includes(type));
}

/** A new pending delivery of `event` to one endpoint, due now. */
export function pendingDelivery(write: WriteContext, event: EventRecord, endpointId: string): DeliveryRecord {
  const now = iso(write.now);
  return {
    id: write.newId('dlv'),
    company_uuid: event.company_uuid,
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    attempts: [],
    created_at: now,
  };
}

/**
 * Inside the transaction of the change it reports: appends the event to the outbox and queues one
 * delivery for every enabled endpoint of the company subscribed to its type. `endpoints` are the
 * company's (`tx.allEndpoints`), read in the same transaction. Returns how many.
 */
export async function publishEvent(tx: Store, write: WriteContext, event: EventRecord, endpoints: EndpointRecord[]): Promise<number> {
  const deliveries = endpoints.filter((e) => endpointWants(e, event.type)).map((e) => pendingDelivery(write, event, e.id));
  await tx.appendEvent(event, deliveries);
  return deliveries.length;
}

/** Queues one delivery of an event to one endpoint (a test event, a redelivery), recording the event if it is new. */
export async function deliverTo(store: Store, write: WriteContext, event: EventRecord, endpointId: string): Promise<DeliveryRecord> {
  const delivery = pendingDelivery(write, event, endpointId);
  await store.appendEvent(event, [delivery]);
  return delivery;
}

/** A test event of `type` for the company: a sample order that exists nowhere, marked `test: true`. */
export function testEvent(write: WriteContext, company: CompanyRecord, type: EventType): EventRecord {
  const id = write.newId('evt');
  const now = iso(write.now);
  const order: Order = {
    id: 'ord_test',
    company_id: company.company_id,
    company_order_id: 'TEST-ORDER',
    totalAmount: 1500.75,
    firstName: 'Test',
    lastName: 'Customer',
    phoneNumber: '+10000000000',
    email: null,
    postalCode: '56789',
    streetAddress1: '123 Main Street',
    streetAddress2: null,
    city: null,
    state: null,
    specialInstructions: null,
    products: [{ product_id: '101', quantity: 1, price: 1500.75 }],
    billingStreetAddress1: null,
    billingStreetAddress2: null,
    billingCity: null,
    billingState: null,
    billingPostalCode: null,
    companyOrderDate: now.slice(0, 10),
    companyOrderDueDate: null,
    companyOrderDeliveryStatus: 'Pending',
    companyOrderPaymentReference: null,
    companyOrderStatus: 'Processing',
    companyOrderDescription: 'A test event: no such order exists.',
    company_order_other_attributes_1: null,
    company_order_other_attributes_2: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  return { id, company_uuid: company.uuid, type, payload: { id, type, created_at: now, data: { order }, test: true }, created_at: now };
}
