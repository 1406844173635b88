/** The SQL store's orders, and the outbox their changes write in the same transaction (outbox.ts). */
import type { OrderPort, OrderRecord } from '@engagekit/runtime/store';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import type { SqlConnection } from './connection.ts';
import { appendEvent, type Outbox } from './outbox.ts';
import { pageOldestFirst, replaceAllBut, stored } from './queries.ts';
import { events, orders, recordColumns } from './schema.ts';

/** The columns of an order's record. */
export const orderColumns = recordColumns(orders);
const eventColumns = recordColumns(events);
const orderUpdate = replaceAllBut(orders, ['id', 'company_uuid', 'company_order_id', 'created_at']);

// The statements of an order write (webhooks.latency.p50; see built-once.ts).
const getOrderStatement = builtOnce<OrderRecord>(
  'engagekit_get_order',
  (db) =>
    db
      .select(orderColumns)
      .from(orders)
      .where(and(eq(orders.company_uuid, sql.placeholder('companyUuid')), eq(orders.company_order_id, sql.placeholder('companyOrderId')))),
  orderColumns,
);
const saveOrderStatement = builtOnce('engagekit_save_order', (db) =>
  db
    .insert(orders)
    .values(placeholders(orderColumns) as never)
    .onConflictDoUpdate({ target: [orders.company_uuid, orders.company_order_id], set: orderUpdate }),
);
/** A company's orders of one phone number. */
const ofPhone = and(eq(orders.company_uuid, sql.placeholder('companyUuid')), eq(orders.phoneNumber, sql.placeholder('phoneNumber')));
const phoneTotalsStatement = builtOnce<{ count: number; amount: number }>(
  'engagekit_phone_totals',
  (db) =>
    db
      .select({ count: sql`count(*)`, amount: sql`sum(${orders.totalAmount})::text` })
      .from(orders)
      .where(ofPhone),
  { count: Number, amount: Number },
);
const latestPhoneOrderStatement = builtOnce<OrderRecord>(
  'engagekit_latest_phone_order',
  (db) => db.select(orderColumns).from(orders).where(ofPhone).orderBy(desc(orders.updated_at), desc(orders.id)).limit(1),
  orderColumns,
);
// A report's order totals, built once (server.rss; see built-once.ts).
const orderTotalsStatement = builtOnce<{ total: number; amount: number }>(
  'engagekit_order_totals',
  (db) =>
    db
      .select({ total: count(), amount: sql`coalesce(sum(${orders.totalAmount}), 0)::text` })
      .from(orders)
      .where(eq(orders.company_uuid, sql.placeholder('companyUuid'))),
  { total: Number, amount: Number },
);

/**
 * The SQL store's orders and outbox on `conn` (the pool, or one transaction); `outbox` hears of the
 * deliveries appended events queue.
 */
export function createSqlOrders(conn: SqlConnection, outbox: Outbox): OrderPort {
  const { db } = conn;
  return {
    async getOrder(companyUuid, companyOrderId) {
      const [row] = await getOrderStatement(conn, { companyUuid, companyOrderId });
      return row ?? null;
    },
    async saveOrder(order) {
      await saveOrderStatement(conn, rowValues(orderColumns, stored(order)));
    },
    listOrders: (companyUuid, page) => pageOldestFirst(db, orders, orderColumns, eq(orders.company_uuid, companyUuid), page),
    async phoneOrders(companyUuid, phoneNumber) {
      // The count and exact total, and the latest order (the phone's index ends in updated_at and id), asked together.
      const [[totals], [latest]] = await Promise.all([
        phoneTotalsStatement(conn, { companyUuid, phoneNumber }),
        latestPhoneOrderStatement(conn, { companyUuid, phoneNumber }),
      ]);
      return latest && totals ? { count: totals.count, amount: totals.amount, latest } : null;
    },
    async orderTotals(companyUuid) {
      const [row] = await orderTotalsStatement(conn, { companyUuid });
      return { total: row?.total ?? 0, amount: row?.amount ?? 0 };
    },
    appendEvent: (event, pending) => appendEvent(conn, outbox, event, pending),
    async getEvent(id) {
      const [row] = await db.select(eventColumns).from(events).where(eq(events.id, id));
      return row ?? null;
    },
    listEvents: (companyUuid, page) => pageOldestFirst(db, events, eventColumns, eq(events.company_uuid, companyUuid), page),
  };
}
