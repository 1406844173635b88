/**
 * The SQL store's order and customer writes: the parts that must stay correct when several server
 * instances write to one PostgreSQL at once.
 *
 * Locking, always in this order so no two transactions wait on each other in a cycle:
 *   1. a per-company advisory lock: shared by order writes and imports, exclusive for a sync;
 *   2. a per-order advisory lock (upsertOrder/updateOrder), so the order's previous phone number is known;
 *   3. customer rows, FOR UPDATE, by phone number in sorted order.
 * A customer is recounted only after its row lock is held; under READ COMMITTED that statement then
 * sees every order committed by the transactions that held the lock before.
 */
import type { EventType } from '@engagekit/contract';
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { assertCreatable, customerName, endpointWants, givenOrderKeys, importedCustomer, iso, newOrderRecord, orderEvent, pendingDelivery } from '../shared.ts';
import type { CompanyRecord, CustomerRecord, CustomerSyncResult, EventRecord, OrderFields, OrderRecord, Store, WriteContext } from '../types.ts';
import { DELIVERIES_CHANNEL } from './dispatch.ts';
import { customers, deliveries, events, orders, type Schema, webhookEndpoints } from './schema.ts';

/** A drizzle database or transaction over the store's schema, whichever driver is underneath. */
export type SqlDatabase = PgDatabase<PgQueryResultHKT, Schema>;

/** Takes a transaction-scoped advisory lock on a string key (released at commit or rollback). */
export async function advisoryLock(tx: SqlDatabase, key: string, mode: 'shared' | 'exclusive'): Promise<void> {
  await tx.execute(
    mode === 'shared' ? sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))` : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`,
  );
}

const companyKey = (companyUuid: string) => `engagekit:customers:${companyUuid}`;
const orderKey = (companyUuid: string, companyOrderId: string) => `engagekit:order:${companyUuid}:${companyOrderId}`;

/** What a phone's orders say its customer is; null when no order names the phone. */
async function deriveCustomer(tx: SqlDatabase, companyUuid: string, phone: string) {
  // Window aggregates run over every order of the phone before LIMIT keeps the latest one's names.
  const [row] = await tx
    .select({
      firstName: orders.firstName,
      lastName: orders.lastName,
      email: orders.email,
      orders_count: sql<number>`count(*) over ()`.mapWith(Number),
      orders_amount: sql<string>`(sum(${orders.totalAmount}) over ())::text`.mapWith(Number),
    })
    .from(orders)
    .where(and(eq(orders.company_uuid, companyUuid), eq(orders.phoneNumber, phone)))
    .orderBy(desc(orders.updated_at), desc(orders.id))
    .limit(1);
  return row ? { ...row, name: customerName(row.firstName, row.lastName), source: 'orders' as const } : null;
}

/** Brings one phone's customer in line with its orders (counts 0 when none is left; sync removes it). */
async function recountCustomer(tx: SqlDatabase, ctx: WriteContext, companyUuid: string, phone: string): Promise<void> {
  const now = iso(ctx.now);
  const lockCustomer = () =>
    tx
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.company_uuid, companyUuid), eq(customers.phoneNumber, phone)))
      .for('update');
  let [customer] = await lockCustomer();
  let derived = await deriveCustomer(tx, companyUuid, phone);
  if (!customer) {
    if (!derived) return;
    const inserted = await tx
      .insert(customers)
      .values({ id: ctx.newId('cus'), company_uuid: companyUuid, phoneNumber: phone, ...derived, created_at: now, updated_at: now })
      .onConflictDoNothing()
      .returning({ id: customers.id });
    if (inserted.length > 0) return;
    // Another transaction created it meanwhile: wait for its lock, then count again with its orders in view.
    [customer] = await lockCustomer();
    derived = await deriveCustomer(tx, companyUuid, phone);
    if (!customer) throw new Error(`Customer ${phone} vanished while its orders were being written; retry.`);
  }
  await tx
    .update(customers)
    .set(derived ? { ...derived, updated_at: now } : { orders_count: 0, orders_amount: 0, updated_at: now })
    .where(eq(customers.id, customer.id));
}

/**
 * Writes the outbox event and one pending delivery per enabled endpoint of the company subscribed to
 * its type; returns how many deliveries it queued (and, when any, notifies the other processes at commit).
 */
async function writeEvent(tx: SqlDatabase, ctx: WriteContext, event: EventRecord): Promise<number> {
  await tx.insert(events).values(event);
  const candidates = await tx
    .select({ id: webhookEndpoints.id, enabled: webhookEndpoints.enabled, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.company_uuid, event.company_uuid), eq(webhookEndpoints.enabled, true)))
    .orderBy(webhookEndpoints.created_at, webhookEndpoints.id);
  const rows = candidates.filter((endpoint) => endpointWants(endpoint, event.type)).map((endpoint) => pendingDelivery(ctx, event, endpoint.id));
  if (rows.length > 0) {
    await tx.insert(deliveries).values(rows);
    await tx.execute(sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`);
  }
  return rows.length;
}

/**
 * Inserts or merges an order in one transaction with its customers, its event and its deliveries.
 * With `mayCreate` false (updateOrder) an unknown order leaves everything untouched and gives null.
 */
export async function writeOrder(
  db: SqlDatabase,
  ctx: WriteContext,
  company: CompanyRecord,
  companyOrderId: string,
  fields: OrderFields,
  mayCreate: boolean,
): Promise<{ order: OrderRecord; created: boolean; event: EventRecord; queued: number } | null> {
  return db.transaction(async (tx) => {
    await advisoryLock(tx, companyKey(company.uuid), 'shared');
    await advisoryLock(tx, orderKey(company.uuid, companyOrderId), 'exclusive');
    const [existing] = await tx
      .select({ id: orders.id, phoneNumber: orders.phoneNumber })
      .from(orders)
      .where(and(eq(orders.company_uuid, company.uuid), eq(orders.company_order_id, companyOrderId)));
    if (!existing && !mayCreate) return null;
    if (!existing) assertCreatable(companyOrderId, fields);

    // One statement decides insert or update, even for a writer that skipped the locks above; the
    // DO UPDATE sets only the given fields. (xmax = 0) is true exactly when the row was inserted.
    const draft = newOrderRecord(existing?.id ?? ctx.newId('ord'), company, companyOrderId, fields, ctx.now);
    const set: Record<string, SQL> = { version: sql`${orders.version} + 1`, updated_at: sql`excluded.updated_at` };
    for (const key of givenOrderKeys(fields)) set[key] = sql`excluded.${sql.identifier(orders[key].name)}`;
    const [row] = await tx
      .insert(orders)
      .values(draft)
      .onConflictDoUpdate({ target: [orders.company_uuid, orders.company_order_id], set })
      .returning({ ...getTableColumns(orders), inserted: sql<boolean>`(${orders}.xmax = 0)` });
    if (!row) throw new Error(`Order "${companyOrderId}" was neither inserted nor updated.`);
    const { inserted: created, ...order } = row;

    const phones = new Set([order.phoneNumber, ...(existing ? [existing.phoneNumber] : [])]);
    for (const phone of [...phones].sort()) await recountCustomer(tx, ctx, company.uuid, phone);

    const type: EventType = created ? 'order.created' : 'order.updated';
    const event = orderEvent(ctx, order, type);
    const queued = await writeEvent(tx, ctx, event);
    return { order, created, event, queued };
  });
}

/** `Store.importCustomers` on SQL: one upsert statement for the whole batch. */
export async function importCustomers(db: SqlDatabase, ...[ctx, companyUuid, input]: Parameters<Store['importCustomers']>) {
  if (input.length === 0) return { created: 0, updated: 0 };
  return db.transaction(async (tx) => {
    await advisoryLock(tx, companyKey(companyUuid), 'shared');
    const now = iso(ctx.now);
    const phones = [...new Set(input.map((row) => row.phoneNumber))];
    const known = new Map(
      (
        await tx
          .select({ id: customers.id, phone: customers.phoneNumber })
          .from(customers)
          .where(and(eq(customers.company_uuid, companyUuid), inArray(customers.phoneNumber, phones)))
      ).map((row) => [row.phone, row.id]),
    );
    // One row per phone (ON CONFLICT cannot touch a row twice): the first mention fixes the id, the last one the names.
    const rows = new Map<string, typeof customers.$inferInsert>();
    for (const row of input) {
      const id = rows.get(row.phoneNumber)?.id ?? known.get(row.phoneNumber) ?? ctx.newId('cus');
      rows.set(row.phoneNumber, importedCustomer(id, companyUuid, row, now));
    }
    const written = await tx
      .insert(customers)
      // Rows in phone order: the customer row locks are then taken in the order order writes take them (no deadlock).
      .values([...rows.values()].sort((a, b) => (a.phoneNumber < b.phoneNumber ? -1 : a.phoneNumber > b.phoneNumber ? 1 : 0)))
      .onConflictDoUpdate({
        target: [customers.company_uuid, customers.phoneNumber],
        // Source and counts stay: an 'orders' customer remains one.
        set: {
          name: sql`excluded.name`,
          firstName: sql`excluded.first_name`,
          lastName: sql`excluded.last_name`,
          email: sql`excluded.email`,
          updated_at: sql`excluded.updated_at`,
        },
      })
      .returning({ inserted: sql<boolean>`(${customers}.xmax = 0)` });
    const created = written.filter((row) => row.inserted).length;
    return { created, updated: input.length - created };
  });
}

/** `Store.syncCustomers` on SQL: re-derives every customer of the company while order writes wait. */
export async function syncCustomers(db: SqlDatabase, ctx: WriteContext, companyUuid: string): Promise<CustomerSyncResult> {
  return db.transaction(async (tx) => {
    await advisoryLock(tx, companyKey(companyUuid), 'exclusive');
    const now = iso(ctx.now);
    const derivedRows = await tx
      .selectDistinctOn([orders.phoneNumber], {
        phoneNumber: orders.phoneNumber,
        firstName: orders.firstName,
        lastName: orders.lastName,
        email: orders.email,
        orders_count: sql<number>`count(*) over (partition by ${orders.phoneNumber})`.mapWith(Number),
        orders_amount: sql<string>`(sum(${orders.totalAmount}) over (partition by ${orders.phoneNumber}))::text`.mapWith(Number),
      })
      .from(orders)
      .where(eq(orders.company_uuid, companyUuid))
      .orderBy(orders.phoneNumber, desc(orders.updated_at), desc(orders.id));
    const current = new Map<string, CustomerRecord>(
      (await tx.select().from(customers).where(eq(customers.company_uuid, companyUuid)).for('update')).map((row) => [row.phoneNumber, row]),
    );
    const result: CustomerSyncResult = { total: 0, created: 0, updated: 0, removed: 0 };
    const toCreate: (typeof customers.$inferInsert)[] = [];
    // Sorted like the memory store, so both hand out ids in the same order.
    derivedRows.sort((a, b) => (a.phoneNumber < b.phoneNumber ? -1 : a.phoneNumber > b.phoneNumber ? 1 : 0));
    for (const { phoneNumber, ...counts } of derivedRows) {
      const derived = { ...counts, name: customerName(counts.firstName, counts.lastName), source: 'orders' as const };
      const customer = current.get(phoneNumber);
      if (!customer) {
        toCreate.push({ id: ctx.newId('cus'), company_uuid: companyUuid, phoneNumber, ...derived, created_at: now, updated_at: now });
        result.created++;
      } else if ((Object.keys(derived) as (keyof typeof derived)[]).some((key) => customer[key] !== derived[key])) {
        await tx
          .update(customers)
          .set({ ...derived, updated_at: now })
          .where(eq(customers.id, customer.id));
        result.updated++;
      }
    }
    if (toCreate.length > 0) await tx.insert(customers).values(toCreate);
    const named = new Set(derivedRows.map((row) => row.phoneNumber));
    const orphans = [...current.values()].filter((customer) => customer.source === 'orders' && !named.has(customer.phoneNumber)).map((customer) => customer.id);
    if (orphans.length > 0) await tx.delete(customers).where(inArray(customers.id, orphans));
    result.removed = orphans.length;
    result.total = current.size + result.created - result.removed;
    return result;
  });
}
