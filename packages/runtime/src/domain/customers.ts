/**
 * Customers: a company's customers are the people its orders name, keyed by phone number, plus any
 * imported through the admin API. How a customer is derived from its orders, recounted after an order
 * write, re-derived by a sync, and imported.
 */

import type { Store } from '../store/ports.ts';
import { iso, phoneOrdersOf } from '../store/shared.ts';
import {
  type CompanyRecord,
  type CustomerRecord,
  type CustomerSyncResult,
  exclusive,
  type OrderRecord,
  type Page,
  type PageRequest,
  type PhoneOrders,
  shared,
  type WriteContext,
} from '../store/types.ts';
import { everyPage } from './every-page.ts';

/**
 * The lock every write to a company's customers takes: shared by order writes and imports (which lock
 * the phone numbers they touch), exclusive for a sync (which touches them all).
 */
export const CUSTOMERS_LOCK = (companyUuid: string) => `customers:${companyUuid}`;
const phoneLock = (companyUuid: string, phone: string) => `customer:${companyUuid}:${phone}`;

/** A customer's display name: first name, then the last name when there is one. */
function customerName(firstName: string, lastName: string | null | undefined): string {
  return lastName ? `${firstName} ${lastName}` : firstName;
}

/** What a phone's orders say of its customer. */
type DerivedCustomer = Pick<CustomerRecord, 'name' | 'firstName' | 'lastName' | 'email' | 'source' | 'orders_count' | 'orders_amount'>;

/** A customer as a phone's orders describe it: names from the latest of them, their count and exact total, source 'orders'. Null for no orders. */
function deriveCustomer(orders: PhoneOrders | null): DerivedCustomer | null {
  if (!orders) return null;
  const { latest } = orders;
  return {
    name: customerName(latest.firstName, latest.lastName),
    firstName: latest.firstName,
    lastName: latest.lastName,
    email: latest.email,
    source: 'orders',
    orders_count: orders.count,
    orders_amount: orders.amount,
  };
}

/** One row of a customer import, as the admin API takes it. */
interface CustomerImport {
  phoneNumber: string;
  firstName: string;
  lastName?: string | undefined;
  email?: string | undefined;
}

/** The names an imported row sets on its customer. */
function importedNames(row: CustomerImport) {
  return { firstName: row.firstName, lastName: row.lastName ?? null, email: row.email ?? null, name: customerName(row.firstName, row.lastName) };
}

/** Unique phone numbers in code-unit order: the order locks are taken in. */
const sortedPhones = (phones: Iterable<string>) => [...new Set(phones)].sort();

/**
 * Inside an order write's transaction: brings the customers of `phones` in line with their orders.
 * A phone without a customer gets one; one left without orders keeps its names with counts 0 (a
 * sync removes it).
 */
export async function recountCustomers(tx: Store, write: WriteContext, companyUuid: string, phones: string[]): Promise<void> {
  const sorted = sortedPhones(phones);
  await tx.lock(sorted.map((phone) => exclusive(phoneLock(companyUuid, phone))));
  // Asked together: on PostgreSQL they go out in one round trip.
  const [found, ...ordersOfPhones] = await Promise.all([tx.getCustomers(companyUuid, sorted), ...sorted.map((phone) => tx.phoneOrders(companyUuid, phone))]);
  const known = new Map(found.map((c) => [c.phoneNumber, c]));
  const now = iso(write.now);
  const changed: CustomerRecord[] = [];
  for (const [i, phone] of sorted.entries()) {
    const derived = deriveCustomer(ordersOfPhones[i] ?? null);
    const customer = known.get(phone);
    if (customer) changed.push(derived ? { ...customer, ...derived, updated_at: now } : { ...customer, orders_count: 0, orders_amount: 0, updated_at: now });
    else if (derived) changed.push({ id: write.newId('cus'), company_uuid: companyUuid, phoneNumber: phone, ...derived, created_at: now, updated_at: now });
  }
  if (changed.length > 0) await tx.saveCustomers(changed);
}

/**
 * Re-derives every customer of the company from its orders, while its order writes and imports wait:
 * creates the missing (in the order of their first orders), updates the stale, removes 'orders'
 * customers no order names any more.
 */
export function syncCustomers(store: Store, write: WriteContext, companyUuid: string): Promise<CustomerSyncResult> {
  return store.transaction(async (tx) => {
    await tx.lock([exclusive(CUSTOMERS_LOCK(companyUuid))]);
    const byPhone = new Map<string, OrderRecord[]>();
    for (const order of await everyPage((p) => tx.listOrders(companyUuid, p))) {
      const list = byPhone.get(order.phoneNumber);
      if (list) list.push(order);
      else byPhone.set(order.phoneNumber, [order]);
    }
    const current = new Map((await everyPage((p) => tx.listCustomers(companyUuid, p))).map((c) => [c.phoneNumber, c]));
    const now = iso(write.now);
    const result: CustomerSyncResult = { total: 0, created: 0, updated: 0, removed: 0 };
    const changed: CustomerRecord[] = [];
    // Phones in the order of their first orders (listed oldest first): new customers are made in that order.
    for (const phone of byPhone.keys()) {
      const derived = deriveCustomer(phoneOrdersOf(byPhone.get(phone) ?? [])) as DerivedCustomer;
      const customer = current.get(phone);
      if (!customer) {
        changed.push({ id: write.newId('cus'), company_uuid: companyUuid, phoneNumber: phone, ...derived, created_at: now, updated_at: now });
        result.created++;
      } else if ((Object.keys(derived) as (keyof DerivedCustomer)[]).some((key) => customer[key] !== derived[key])) {
        changed.push({ ...customer, ...derived, updated_at: now });
        result.updated++;
      }
    }
    const orphans = [...current.values()].filter((c) => c.source === 'orders' && !byPhone.has(c.phoneNumber)).map((c) => c.id);
    if (changed.length > 0) await tx.saveCustomers(changed);
    if (orphans.length > 0) await tx.deleteCustomers(companyUuid, orphans);
    result.removed = orphans.length;
    result.total = current.size + result.created - result.removed;
    return result;
  });
}

/** The company's customers, a page of them, oldest first. */
export function listCustomers(store: Store, company: CompanyRecord, page: PageRequest): Promise<Page<CustomerRecord>> {
  return store.listCustomers(company.uuid, page);
}

/**
 * Imports customers by phone number: a new phone becomes an 'import' customer; an existing customer
 * takes the row's names and keeps its source and counts. Within one batch the first row of a phone
 * fixes its id and its place (new customers are made in the order of the batch) and the last its
 * names; each row counts as created or updated.
 */
export function importCustomers(store: Store, write: WriteContext, companyUuid: string, rows: CustomerImport[]): Promise<{ created: number; updated: number }> {
  if (rows.length === 0) return Promise.resolve({ created: 0, updated: 0 });
  return store.transaction(async (tx) => {
    const phones = sortedPhones(rows.map((row) => row.phoneNumber));
    await tx.lock([shared(CUSTOMERS_LOCK(companyUuid)), ...phones.map((phone) => exclusive(phoneLock(companyUuid, phone)))]);
    const customers = new Map((await tx.getCustomers(companyUuid, phones)).map((c) => [c.phoneNumber, c]));
    const now = iso(write.now);
    let created = 0;
    for (const row of rows) {
      const customer = customers.get(row.phoneNumber);
      if (customer) {
        customers.set(row.phoneNumber, { ...customer, ...importedNames(row), updated_at: now });
      } else {
        const id = write.newId('cus');
        customers.set(row.phoneNumber, {
          id,
          company_uuid: companyUuid,
          phoneNumber: row.phoneNumber,
          ...importedNames(row),
          source: 'import',
          orders_count: 0,
          orders_amount: 0,
          created_at: now,
          updated_at: now,
        });
        created++;
      }
    }
    // Saved in the batch's order, so customers made in this one instant are listed in that order.
    const inBatchOrder = [...new Set(rows.map((row) => row.phoneNumber))];
    await tx.saveCustomers(inBatchOrder.map((phone) => customers.get(phone) as CustomerRecord));
    return { created, updated: rows.length - created };
  });
}
