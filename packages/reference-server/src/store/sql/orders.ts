/** The SQL store's order and customer persistence, and the transaction-scoped locks the domain takes. */

import type { CustomerRecord, Lock, OrderRecord, Store } from '@engagekit/runtime/store';
import { iso } from '@engagekit/runtime/store';
import { and, type Column, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import { customers, orders, recordColumns, type Schema } from './schema.ts';

/** A drizzle database or transaction over the store's schema, whichever driver is underneath. */
export type SqlDatabase = PgDatabase<PgQueryResultHKT, Schema>;

const advisoryLocksStatement = builtOnce((db) =>
  db.execute(sql`
    SELECT CASE WHEN l.shared THEN pg_advisory_xact_lock_shared(hashtextextended(l.key, 0))
                ELSE pg_advisory_xact_lock(hashtextextended(l.key, 0)) END
      FROM unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('shared')}::boolean[])
           WITH ORDINALITY AS l(key, shared, n)
     ORDER BY l.n`),
);

/**
 * Takes transaction-scoped advisory locks on string keys (released at commit or rollback), all in
 * one statement: a row per lock, in the order given (the ordinality keeps it, and the select list is
 * evaluated row by row), so each waits only for its own key. Built once (webhooks.latency.p50: building
 * it took 16-22 µs of CPU an order write; see built-once.ts).
 */
export async function advisoryLocks(tx: SqlDatabase, locks: readonly Lock[]): Promise<void> {
  if (locks.length === 0) return;
  await advisoryLocksStatement(tx, { keys: locks.map((l) => l.key), shared: locks.map((l) => l.mode === 'shared') });
}

/** `SET column = excluded.column` for every record column of `table` but `keep`: an upsert that replaces the row but those (and its `created_seq`). */
function replaceAllBut<T extends typeof orders | typeof customers>(table: T, keep: string[]): Record<string, SQL> {
  return Object.fromEntries(
    Object.entries(recordColumns(table) as Record<string, Column>)
      .filter(([key]) => !keep.includes(key))
      .map(([key, column]) => [key, sql`excluded.${sql.identifier(column.name)}`]),
  );
}

const orderUpdate = replaceAllBut(orders, ['id', 'company_uuid', 'company_order_id', 'created_at']);
const customerUpdate = replaceAllBut(customers, ['id', 'company_uuid', 'phoneNumber', 'created_at']);

/** The columns of an order's and of a customer's record. */
export const orderColumns = recordColumns(orders);
export const customerColumns = recordColumns(customers);

/** A record as its row stores it: the timestamps as ISO-8601 text. */
const stored = <T extends { created_at: string; updated_at: string }>(record: T): T => ({
  ...record,
  created_at: iso(record.created_at),
  updated_at: iso(record.updated_at),
});

// The statements of an order write (webhooks.latency.p50; see built-once.ts).
const getOrderStatement = builtOnce<OrderRecord>(
  (db) =>
    db
      .select(orderColumns)
      .from(orders)
      .where(and(eq(orders.company_uuid, sql.placeholder('companyUuid')), eq(orders.company_order_id, sql.placeholder('companyOrderId')))),
  orderColumns,
);
/** Upserts customers by company and phone number, replacing all but their id and created_at. */
const upsertCustomers = (db: SqlDatabase, values: object[]) =>
  db
    .insert(customers)
    .values(values as never)
    .onConflictDoUpdate({ target: [customers.company_uuid, customers.phoneNumber], set: customerUpdate });
/** A company's orders of one phone number. */
const ofPhone = and(eq(orders.company_uuid, sql.placeholder('companyUuid')), eq(orders.phoneNumber, sql.placeholder('phoneNumber')));
const saveOrderStatement = builtOnce((db) =>
  db
    .insert(orders)
    .values(placeholders(orderColumns) as never)
    .onConflictDoUpdate({ target: [orders.company_uuid, orders.company_order_id], set: orderUpdate }),
);
const phoneTotalsFields = {
  count: sql<number>`count(*)`.mapWith(Number),
  amount: sql<string>`sum(${orders.totalAmount})::text`.mapWith(Number),
};
const phoneTotalsStatement = builtOnce<{ count: number; amount: number }>((db) => db.select(phoneTotalsFields).from(orders).where(ofPhone), phoneTotalsFields);
const latestPhoneOrderStatement = builtOnce<OrderRecord>(
  (db) => db.select(orderColumns).from(orders).where(ofPhone).orderBy(desc(orders.updated_at), desc(orders.id)).limit(1),
  orderColumns,
);
const getCustomersStatement = builtOnce<CustomerRecord>(
  (db) =>
    db
      .select(customerColumns)
      .from(customers)
      .where(and(eq(customers.company_uuid, sql.placeholder('companyUuid')), sql`${customers.phoneNumber} = any(${sql.placeholder('phoneNumbers')}::text[])`)),
  customerColumns,
);
const saveCustomerStatement = builtOnce((db) => upsertCustomers(db, [placeholders(customerColumns)]));

/** The order and customer methods of the SQL store over `db` (a pool or a transaction). */
export function sqlOrders(db: SqlDatabase): Pick<Store, 'getOrder' | 'saveOrder' | 'phoneOrders' | 'getCustomers' | 'saveCustomers' | 'deleteCustomers'> {
  return {
    async getOrder(companyUuid, companyOrderId) {
      const [row] = await getOrderStatement(db, { companyUuid, companyOrderId });
      return row ?? null;
    },
    async saveOrder(order) {
      await saveOrderStatement(db, rowValues(orderColumns, stored(order)));
    },
    async phoneOrders(companyUuid, phoneNumber) {
      // The count and exact total, and the latest order (the phone's index ends in updated_at and id), asked together.
      const [[totals], [latest]] = await Promise.all([
        phoneTotalsStatement(db, { companyUuid, phoneNumber }),
        latestPhoneOrderStatement(db, { companyUuid, phoneNumber }),
      ]);
      return latest && totals ? { count: totals.count, amount: totals.amount, latest } : null;
    },
    async getCustomers(companyUuid, phoneNumbers) {
      if (phoneNumbers.length === 0) return [];
      return getCustomersStatement(db, { companyUuid, phoneNumbers });
    },
    async saveCustomers(records) {
      if (records.length === 0) return;
      // One customer (an order write's usual case) by the statement built once; many (a sync) in one insert.
      const [record] = records;
      if (records.length === 1 && record) {
        await saveCustomerStatement(db, rowValues(customerColumns, stored(record)));
        return;
      }
      await upsertCustomers(db, records.map(stored));
    },
    async deleteCustomers(companyUuid, ids) {
      if (ids.length === 0) return;
      await db.delete(customers).where(and(eq(customers.company_uuid, companyUuid), inArray(customers.id, ids)));
    },
  };
}
