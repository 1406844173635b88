/**
 * Webhooks: which endpoints an event goes to, and the outbox writes that queue its deliveries. The
 * dispatcher (webhooks/dispatcher.ts) sends what is queued here.
 */
import type { EventType } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';
import { iso } from '../store/shared.ts';
import type { DeliveryRecord, EndpointRecord, EventRecord, WriteContext } from '../store/types.ts';

/** Whether an endpoint receives events of `type`: enabled, and subscribed (an empty list means every type). */
function endpointWants(endpoint: Pick<EndpointRecord, 'enabled' | 'events'>, type: EventType): boolean {
  return endpoint.enabled && (endpoint.events.length === 0 || endpoint.events.includes(type));
}

/** A new pending delivery of `event` to one endpoint, due now. */
export function pendingDelivery(write: WriteContext, event: EventRecord, endpointId: string): DeliveryRecord {
  const now = iso(write.now);
  const trace = write.traceContext?.() ?? null;
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
    ...(trace !== null && { trace_context: trace }),
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

/** When the next pending delivery falls due after `after`; null when none is waiting. */
export async function nextDeliveryDue(store: Store, after: Date): Promise<Date | null> {
  const at = await store.nextDeliveryDue(after.toISOString());
  return at === null ? null : new Date(at);
}
