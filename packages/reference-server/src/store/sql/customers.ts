import type { CustomerPort, CustomerRecord } from '@engagekit/runtime/store';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import type { SqlConnection, StoreDatabase } from './connection.ts';
import { pageOldestFirst, replaceAllBut, stored } from './queries.ts';
import { customers, recordColumns } from './schema.ts';

/** The columns of a customer's record. */
export const customerColumns = recordColumns(customers);
const customerUpdate = replaceAllBut(customers, ['id', 'company_uuid', 'phoneNumber', 'created_at']);

/** Upserts customers by company and phone number, replacing all but their id and created_at. */
const upsertCustomers = (db: StoreDatabase, values: object[]) =>
  db
    .insert(customers)
    .values(values as never)
    .onConflictDoUpdate({ target: [customers.company_uuid, customers.phoneNumber], set: customerUpdate });

// The customer reads and write of an order write (webhooks.latency.p50; see built-once.ts).
const getCustomersStatement = builtOnce<CustomerRecord>(
  'engagekit_get_customers',
  (db) =>
    db
      .select(customerColumns)
      .from(customers)
      .where(and(eq(customers.company_uuid, sql.placeholder('companyUuid')), sql`${customers.phoneNumber} = any(${sql.placeholder('phoneNumbers')}::text[])`)),
  customerColumns,
);
const saveCustomerStatement = builtOnce('engagekit_save_customer', (db) => upsertCustomers(db, [placeholders(customerColumns)]));
// A report's customer count, built once (server.rss; see built-once.ts).
const customerCountStatement = builtOnce<{ n: number }>(
  'engagekit_count_customers',
  (db) =>
    db
      .select({ n: count() })
      .from(customers)
      .where(eq(customers.company_uuid, sql.placeholder('companyUuid'))),
  { n: Number },
);

/** The SQL store's customers on `conn` (the pool, or one transaction). */
export function createSqlCustomers(conn: SqlConnection): CustomerPort {
  const { db } = conn;
  return {
    async getCustomers(companyUuid, phoneNumbers) {
      if (phoneNumbers.length === 0) return [];
      return getCustomersStatement(conn, { companyUuid, phoneNumbers });
    },
    listCustomers: (companyUuid, page) => pageOldestFirst(db, customers, customerColumns, eq(customers.company_uuid, companyUuid), page),
    async countCustomers(companyUuid) {
      const [row] = await customerCountStatement(conn, { companyUuid });
      return row?.n ?? 0;
    },
    async saveCustomers(records) {
      if (records.length === 0) return;
      // One customer (an order write's usual case) by the statement built once; many (a sync) in one insert.
      const [record] = records;
      if (records.length === 1 && record) {
        await saveCustomerStatement(conn, rowValues(customerColumns, stored(record)));
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
