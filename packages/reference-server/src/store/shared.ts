/**
 * Rules both store implementations share, so memory and SQL cannot drift apart: order defaults and
 * merging, customer naming, event payloads, webhook subscription matching, exact money sums.
 */
import type { EventType, Order } from '@engagekit/contract';
import type {
  CompanyRecord,
  CustomerRecord,
  DeliveryRecord,
  EndpointRecord,
  EventRecord,
  OrderFields,
  OrderRecord,
  PageRequest,
  Store,
  WriteContext,
} from './types.ts';

/** Every field an order write may set (the keys of `OrderFields`), in column order. */
export const orderFieldKeys = [
  'totalAmount',
  'firstName',
  'lastName',
  'phoneNumber',
  'email',
  'postalCode',
  'streetAddress1',
  'streetAddress2',
  'city',
  'state',
  'specialInstructions',
  'products',
  'billingStreetAddress1',
  'billingStreetAddress2',
  'billingCity',
  'billingState',
  'billingPostalCode',
  'companyOrderDate',
  'companyOrderDueDate',
  'companyOrderDeliveryStatus',
  'companyOrderPaymentReference',
  'companyOrderStatus',
  'companyOrderDescription',
  'company_order_other_attributes_1',
  'company_order_other_attributes_2',
] as const satisfies readonly (keyof OrderFields)[];

/** The fields a new order cannot do without (the API's mandatory addOrder fields). */
export const requiredOrderFields = ['totalAmount', 'firstName', 'phoneNumber', 'postalCode', 'streetAddress1'] as const;

/** The keys of `fields` that carry a value (`undefined` means "keep what is stored"). */
export function givenOrderKeys(fields: OrderFields): (keyof OrderFields)[] {
  return orderFieldKeys.filter((key) => fields[key] !== undefined);
}

/** Throws when a new order would lack a mandatory field; the message names them. */
export function assertCreatable(companyOrderId: string, fields: OrderFields): void {
  const missing = requiredOrderFields.filter((key) => fields[key] === undefined || fields[key] === null);
  if (missing.length > 0) throw new Error(`Cannot create order "${companyOrderId}": ${missing.join(', ')} must be given for a new order.`);
}

/**
 * A complete new order (version 1) from the given fields; absent optional fields are null, products [],
 * absent mandatory ones empty (callers check them with `assertCreatable` first).
 */
export function newOrderRecord(id: string, company: CompanyRecord, companyOrderId: string, fields: OrderFields, now: string): OrderRecord {
  const at = iso(now);
  return {
    id,
    company_uuid: company.uuid,
    company_id: company.company_id,
    company_order_id: companyOrderId,
    totalAmount: fields.totalAmount ?? 0,
    firstName: fields.firstName ?? '',
    lastName: fields.lastName ?? null,
    phoneNumber: fields.phoneNumber ?? '',
    email: fields.email ?? null,
    postalCode: fields.postalCode ?? '',
    streetAddress1: fields.streetAddress1 ?? '',
    streetAddress2: fields.streetAddress2 ?? null,
    city: fields.city ?? null,
    state: fields.state ?? null,
    specialInstructions: fields.specialInstructions ?? null,
    products: fields.products ?? [],
    billingStreetAddress1: fields.billingStreetAddress1 ?? null,
    billingStreetAddress2: fields.billingStreetAddress2 ?? null,
    billingCity: fields.billingCity ?? null,
    billingState: fields.billingState ?? null,
    billingPostalCode: fields.billingPostalCode ?? null,
    companyOrderDate: fields.companyOrderDate ?? null,
    companyOrderDueDate: fields.companyOrderDueDate ?? null,
    companyOrderDeliveryStatus: fields.companyOrderDeliveryStatus ?? null,
    companyOrderPaymentReference: fields.companyOrderPaymentReference ?? null,
    companyOrderStatus: fields.companyOrderStatus ?? null,
    companyOrderDescription: fields.companyOrderDescription ?? null,
    company_order_other_attributes_1: fields.company_order_other_attributes_1 ?? null,
    company_order_other_attributes_2: fields.company_order_other_attributes_2 ?? null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** `existing` with the given fields merged in, `version` + 1 and `updated_at` = now. */
export function mergeOrder(existing: OrderRecord, fields: OrderFields, now: string): OrderRecord {
  const merged: OrderRecord = { ...existing, version: existing.version + 1, updated_at: iso(now) };
  for (const key of givenOrderKeys(fields)) Object.assign(merged, { [key]: fields[key] });
  return merged;
}

/** The order as webhooks carry it: the contract's `Order`, without the store's `company_uuid`. */
export function orderSnapshot(order: OrderRecord): Order {
  const { company_uuid: _companyUuid, ...snapshot } = order;
  return snapshot;
}

/** The outbox event of an order change: `{ id, type, created_at, data: { order } }`. */
export function orderEvent(ctx: WriteContext, order: OrderRecord, type: EventType): EventRecord {
  const id = ctx.newId('evt');
  const createdAt = iso(ctx.now);
  return {
    id,
    company_uuid: order.company_uuid,
    type,
    created_at: createdAt,
    payload: { id, type, created_at: createdAt, data: { order: orderSnapshot(order) } },
  };
}

/** A new pending delivery of `event` to one endpoint, due now. */
export function pendingDelivery(ctx: WriteContext, event: EventRecord, endpointId: string): DeliveryRecord {
  const now = iso(ctx.now);
  return {
    id: ctx.newId('dlv'),
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

/** Whether an endpoint receives events of `type`: enabled, and subscribed (an empty list means every type). */
export function endpointWants(endpoint: Pick<EndpointRecord, 'enabled' | 'events'>, type: EventType): boolean {
  return endpoint.enabled && (endpoint.events.length === 0 || endpoint.events.includes(type));
}

/** A customer's display name: first name, then the last name when there is one. */
export function customerName(firstName: string, lastName: string | null | undefined): string {
  return lastName ? `${firstName} ${lastName}` : firstName;
}

/** One row of a customer import, as `Store.importCustomers` takes it. */
export type CustomerImport = Parameters<Store['importCustomers']>[2][number];

/** The names an imported row sets on its customer. */
export function importedNames(row: CustomerImport) {
  return { firstName: row.firstName, lastName: row.lastName ?? null, email: row.email ?? null, name: customerName(row.firstName, row.lastName) };
}

/** A customer first known from an import: its names, source 'import', no orders yet. */
export function importedCustomer(id: string, companyUuid: string, row: CustomerImport, now: string): CustomerRecord {
  return {
    id,
    company_uuid: companyUuid,
    phoneNumber: row.phoneNumber,
    ...importedNames(row),
    source: 'import',
    orders_count: 0,
    orders_amount: 0,
    created_at: now,
    updated_at: now,
  };
}

/**
 * A customer as a phone's orders describe it: names from the most recently updated order (ties: the
 * larger id), count and exact amount of them all, source 'orders'. Null for no orders.
 */
export function deriveCustomer(phoneOrders: readonly OrderRecord[]) {
  let latest = phoneOrders[0];
  if (!latest) return null;
  for (const order of phoneOrders) {
    if (order.updated_at > latest.updated_at || (order.updated_at === latest.updated_at && order.id > latest.id)) latest = order;
  }
  return {
    name: customerName(latest.firstName, latest.lastName),
    firstName: latest.firstName,
    lastName: latest.lastName,
    email: latest.email,
    source: 'orders' as const,
    orders_count: phoneOrders.length,
    orders_amount: sumAmounts(phoneOrders.map((order) => order.totalAmount)),
  };
}

/** A timestamp as ISO-8601 UTC with milliseconds (`2025-01-15T10:00:00.000Z`), whatever offset it came with. */
export function iso(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid timestamp: "${value}".`);
  return date.toISOString();
}

/** The number of rows a page skips. */
export function pageOffset(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}

/** Oldest first: by `created_at`, then by id (compared as code units, like the SQL store's `COLLATE "C"`). */
export function compareCreated(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * An exact decimal: `digits / 10^scale`. Money is summed this way so the memory store reaches the
 * same totals as PostgreSQL's `numeric` (0.1 + 0.2 is 0.3 in both, not 0.30000000000000004).
 */
export interface Decimal {
  digits: bigint;
  scale: number;
}

/** Zero as a Decimal. */
export const decimalZero: Decimal = { digits: 0n, scale: 0 };

/** The exact decimal a number prints as (its shortest round-trip form, which is what the SQL store writes). */
export function toDecimal(value: number): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new Error(`Not a finite amount: ${value}.`);
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  let digits = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: sign ? -digits : digits, scale };
}

/** a + b (or a - b with `sign` -1), exactly. */
export function addDecimal(a: Decimal, b: Decimal, sign: 1 | -1 = 1): Decimal {
  const scale = Math.max(a.scale, b.scale);
  const digits = a.digits * 10n ** BigInt(scale - a.scale) + BigInt(sign) * b.digits * 10n ** BigInt(scale - b.scale);
  return { digits, scale };
}

/** The nearest number to a Decimal (correctly rounded, as `Number()` of PostgreSQL's text output). */
export function decimalToNumber(value: Decimal): number {
  const negative = value.digits < 0n;
  const text = (negative ? -value.digits : value.digits).toString().padStart(value.scale + 1, '0');
  const cut = text.length - value.scale;
  return Number(`${negative ? '-' : ''}${text.slice(0, cut)}.${text.slice(cut) || '0'}`);
}

/** The exact sum of amounts, as a number. */
export function sumAmounts(amounts: Iterable<number>): number {
  let total = decimalZero;
  for (const amount of amounts) total = addDecimal(total, toDecimal(amount));
  return decimalToNumber(total);
}
