/** The SQL store's order and customer persistence, and the transaction-scoped locks the domain takes. */
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { iso } from '../shared.ts';
import type { Lock, Store } from '../types.ts';
import { customers, orders, type Schema } from './schema.ts';

/** A drizzle database or transaction over the store's schema, whichever driver is underneath. */
export type SqlDatabase = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * Takes transaction-scoped advisory locks on string keys (released at commit or rollback), all in
 * one statement: a row per lock, in the order given (the ordinality keeps it, and the select list is
 * evaluated row by row), so each waits only for its own key.
 */
export async function advisoryLocks(tx: SqlDatabase, locks: readonly Lock[]): Promise<void> {
  if (locks.length === 0) return;
  await tx.execute(sql`
    SELECT CASE WHEN l.shared THEN pg_advisory_xact_lock_shared(hashtextextended(l.key, 0))
                ELSE pg_advisory_xact_lock(hashtextextended(l.key, 0)) END
      FROM unnest(${sql.param(locks.map((l) => l.key))}::text[], ${sql.param(locks.map((l) => l.mode === 'shared'))}::boolean[])
           WITH ORDINALITY AS l(key, shared, n)
     ORDER BY l.n`);
}

/** `SET column = excluded.column` for every column of `table` but `keep`: an upsert that replaces the row but those. */
function replaceAllBut<T extends typeof orders | typeof customers>(table: T, keep: string[]): Record<string, SQL> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table))
      .filter(([key]) => !keep.includes(key))
      .map(([key, column]) => [key, sql`excluded.${sql.identifier(column.name)}`]),
  );
}

const orderUpdate = replaceAllBut(orders, ['id', 'company_uuid', 'company_order_id', 'created_at']);
const customerUpdate = replaceAllBut(customers, ['id', 'company_uuid', 'phoneNumber', 'created_at']);

/** The order and customer methods of the SQL store over `db` (a pool or a transaction). */
export function sqlOrders(db: SqlDatabase): Pick<Store, 'getOrder' | 'saveOrder' | 'phoneOrders' | 'getCustomers' | 'saveCustomers' | 'deleteCustomers'> {
  return {
    async getOrder(companyUuid, companyOrderId) {
      const [row] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.company_uuid, companyUuid), eq(orders.company_order_id, companyOrderId)));
      return row ?? null;
    },
    async saveOrder(order) {
      await db
        .insert(orders)
        .values({ ...order, created_at: iso(order.created_at), updated_at: iso(order.updated_at) })
        .onConflictDoUpdate({ target: [orders.company_uuid, orders.company_order_id], set: orderUpdate });
    },
    async phoneOrders(companyUuid, phoneNumber) {
      // The latest order, with the count and exact total of them all beside it (window sums, taken before the limit).
      const [row] = await db
        .select({
          ...getTableColumns(orders),
          count: sql<number>`count(*) over ()`.mapWith(Number),
          amount: sql<string>`(sum(${orders.totalAmount}) over ())::text`.mapWith(Number),
        })
        .from(orders)
        .where(and(eq(orders.company_uuid, companyUuid), eq(orders.phoneNumber, phoneNumber)))
        .orderBy(desc(orders.updated_at), desc(orders.id))
        .limit(1);
      if (!row) return null;
      const { count, amount, ...latest } = row;
      return { count, amount, latest };
    },
    async getCustomers(companyUuid, phoneNumbers) {
      if (phoneNumbers.length === 0) return [];
      return db
        .select()
        .from(customers)
        .where(and(eq(customers.company_uuid, companyUuid), inArray(customers.phoneNumber, phoneNumbers)));
    },
    async saveCustomers(records) {
      if (records.length === 0) return;
      await db
        .insert(customers)
        .values(records.map((r) => ({ ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) })))
        .onConflictDoUpdate({ target: [customers.company_uuid, customers.phoneNumber], set: customerUpdate });
    },
    async deleteCustomers(companyUuid, ids) {
      if (ids.length === 0) return;
      await db.delete(customers).where(and(eq(customers.company_uuid, companyUuid), inArray(customers.id, ids)));
    },
  };
}
