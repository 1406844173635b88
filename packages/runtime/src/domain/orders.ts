/**
 * Orders: how an order is created and merged, and what an order write does, in one transaction: the
 * order, the customers of its phone numbers, its outbox event and the deliveries of that event.
 */
import { type EventType, Order, orderFieldNames, requiredOrderFieldNames } from '@engagekit/contract';
import { schemaFields, shaped } from '../shape.ts';
import type { Store } from '../store/ports.ts';
import { iso } from '../store/shared.ts';
import { type CompanyRecord, type EventRecord, exclusive, type OrderFields, type OrderRecord, shared, type WriteContext } from '../store/types.ts';
import { CUSTOMERS_LOCK, recountCustomers } from './customers.ts';
import { publishEvent } from './webhooks.ts';

/** Every field an order write may set (the keys of `OrderFields`): the contract's. */
const orderFieldKeys: readonly (keyof OrderFields)[] = orderFieldNames;

/** The fields a new order cannot do without: the contract's mandatory addOrder fields. */
const requiredOrderFields: readonly (keyof OrderFields)[] = requiredOrderFieldNames;

/** Throws when a new order would lack a mandatory field; the message names them. */
function assertCreatable(companyOrderId: string, fields: OrderFields): void {
  const missing = requiredOrderFields.filter((key) => fields[key] === undefined || fields[key] === null);
  if (missing.length > 0) throw new Error(`Cannot create order "${companyOrderId}": ${missing.join(', ')} must be given for a new order.`);
}

/** A complete new order (version 1) from the given fields; an absent field is null, absent products []. */
export function newOrderRecord(id: string, company: CompanyRecord, companyOrderId: string, fields: OrderFields, now: string): OrderRecord {
  const at = iso(now);
  const order: Record<string, unknown> = { id, company_uuid: company.uuid, company_id: company.company_id, company_order_id: companyOrderId };
  for (const key of orderFieldKeys) order[key] = fields[key] ?? (key === 'products' ? [] : null);
  return { ...order, version: 1, created_at: at, updated_at: at } as OrderRecord;
}

/** `existing` with the given fields merged in (`undefined` keeps a field, `null` clears it), `version` + 1 and `updated_at` = now. */
function mergeOrder(existing: OrderRecord, fields: OrderFields, now: string): OrderRecord {
  const merged: OrderRecord = { ...existing, version: existing.version + 1, updated_at: iso(now) };
  for (const key of orderFieldKeys) if (fields[key] !== undefined) Object.assign(merged, { [key]: fields[key] });
  return merged;
}

const ORDER_FIELDS = schemaFields(Order);

/** The order as the API shows it and webhooks carry it: the contract's `Order` fields of the record. */
export function orderSnapshot(order: OrderRecord): Order {
  return shaped(order, ORDER_FIELDS);
}

/** The outbox event of an order change: `{ id, type, created_at, data: { order } }`. */
function orderEvent(write: WriteContext, order: OrderRecord, type: EventType): EventRecord {
  const id = write.newId('evt');
  const createdAt = iso(write.now);
  return {
    id,
    company_uuid: order.company_uuid,
    type,
    created_at: createdAt,
    payload: { id, type, created_at: createdAt, data: { order: orderSnapshot(order) } },
  };
}

/** What an order write did. */
interface OrderWrite {
  order: OrderRecord;
  created: boolean;
  event: EventRecord;
}

/**
 * The one order write, in one transaction: the order inserted (`mayCreate`) or merged, the customers
 * of its phone numbers (before and after) recounted, and an `order.created` or `order.updated` event
 * with the order's snapshot, fanned out to the subscribed endpoints. Null when the order does not
 * exist and may not be created. Writes to one order, and to one company's customers, take turns.
 */
async function writeOrder(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  companyOrderId: string,
  fields: OrderFields,
  mayCreate: boolean,
): Promise<OrderWrite | null> {
  return store.transaction(async (tx) => {
    await tx.lock([shared(CUSTOMERS_LOCK(company.uuid)), exclusive(`order:${company.uuid}:${companyOrderId}`)]);
    const existing = await tx.getOrder(company.uuid, companyOrderId);
    if (!existing && !mayCreate) return null;
    if (!existing) assertCreatable(companyOrderId, fields);
    const order = existing ? mergeOrder(existing, fields, write.now) : newOrderRecord(write.newId('ord'), company, companyOrderId, fields, write.now);
    await tx.saveOrder(order);
    // The endpoints the event goes to are read beside the customers' reads (one round trip on PostgreSQL).
    const [, endpoints] = await Promise.all([
      recountCustomers(tx, write, company.uuid, [order.phoneNumber, ...(existing ? [existing.phoneNumber] : [])]),
      tx.allEndpoints(company.uuid),
    ]);
    const event = orderEvent(write, order, existing ? 'order.updated' : 'order.created');
    await publishEvent(tx, write, event, endpoints);
    return { order, created: !existing, event };
  });
}

/**
 * addOrder: inserts the order, or merges the given fields into the company's order with the same
 * `company_order_id`. Two simultaneous calls with one key leave one order and one `created: true`.
 */
export function upsertOrder(store: Store, write: WriteContext, company: CompanyRecord, companyOrderId: string, fields: OrderFields): Promise<OrderWrite> {
  return writeOrder(store, write, company, companyOrderId, fields, true) as Promise<OrderWrite>;
}

/** updateOrder: merges the given fields into an existing order; null (and nothing written) when it does not exist. */
export function updateOrder(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  companyOrderId: string,
  fields: OrderFields,
): Promise<OrderWrite | null> {
  return writeOrder(store, write, company, companyOrderId, fields, false);
}
