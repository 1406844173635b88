/**
 * The peer of the server.*.vs-hono-drizzle rows: what a team writes for itself on the reference
 * server's tables. Hono on @hono/node-server, drizzle over a node-postgres pool (its default size, 10,
 * as the reference server's), no auth, validation, idempotency, envelope or logging:
 *
 * - GET /agency/getCampaign/:id?uuid=: one select by company and id, the row as JSON.
 * - POST /api/order/addOrder: in one transaction, the order inserted, its customer upserted by phone
 *   number, an `order.created` event with the order in the outbox, and a pending delivery of it to each
 *   enabled endpoint of the company the event's type goes to (read in the transaction); 201 with the order.
 *   The company's uuid is looked up by the body's `company_id` once and kept.
 *
 * Prints its URL when ready.
 */
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Hono } from 'hono';
import pg from 'pg';
import { campaigns, companies, customers, deliveries, events, orders, webhookEndpoints } from '../packages/reference-server/src/store/sql/schema.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const db = drizzle(pool);

/** The order columns an addOrder body may set: every column but the keys, the version and the times. */
const ORDER_FIELDS = Object.keys(getTableColumns(orders)).filter(
  (k) => !['id', 'company_uuid', 'company_id', 'company_order_id', 'version', 'created_at', 'updated_at', 'created_seq'].includes(k),
);

/** Company uuids by company_id, looked up once each. */
const companyUuids = new Map<string, string>();
async function companyUuid(companyId: string): Promise<string | undefined> {
  const known = companyUuids.get(companyId);
  if (known) return known;
  const [row] = await db.select({ uuid: companies.uuid }).from(companies).where(eq(companies.company_id, companyId));
  if (row) companyUuids.set(companyId, row.uuid);
  return row?.uuid;
}

const app = new Hono();

app.get('/agency/getCampaign/:id', async (c) => {
  const [campaign] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.company_uuid, c.req.query('uuid') ?? ''), eq(campaigns.id, c.req.param('id'))));
  return campaign ? c.json(campaign) : c.notFound();
});

app.post('/api/order/addOrder', async (c) => {
  const body = await c.req.json<Record<string, unknown>>();
  const uuid = await companyUuid(String(body.company_id));
  if (!uuid) return c.notFound();
  const now = new Date().toISOString();
  const order: Record<string, unknown> = {
    id: `ord_${randomUUID()}`,
    company_uuid: uuid,
    company_id: body.company_id,
    company_order_id: body.company_order_id,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  for (const key of ORDER_FIELDS) order[key] = body[key] ?? (key === 'products' ? [] : null);
  const o = order as typeof orders.$inferInsert;
  await db.transaction(async (tx) => {
    await tx.insert(orders).values(o);
    const name = o.lastName ? `${o.firstName} ${o.lastName}` : o.firstName;
    await tx
      .insert(customers)
      .values({
        id: `cus_${randomUUID()}`,
        company_uuid: uuid,
        phoneNumber: o.phoneNumber,
        name,
        firstName: o.firstName,
        lastName: o.lastName,
        email: o.email,
        source: 'orders',
        orders_count: 1,
        orders_amount: o.totalAmount,
        created_at: now,
        updated_at: now,
      })
      .onConflictDoUpdate({
        target: [customers.company_uuid, customers.phoneNumber],
        set: {
          name: sql`excluded.name`,
          firstName: sql`excluded.first_name`,
          lastName: sql`excluded.last_name`,
          email: sql`excluded.email`,
          source: 'orders',
          orders_count: sql`${customers.orders_count} + 1`,
          orders_amount: sql`${customers.orders_amount} + excluded.orders_amount`,
          updated_at: now,
        },
      });
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.company_uuid, uuid), eq(webhookEndpoints.enabled, true)));
    const eventId = `evt_${randomUUID()}`;
    const { company_uuid: _, ...snapshot } = order;
    await tx.insert(events).values({
      id: eventId,
      company_uuid: uuid,
      type: 'order.created',
      payload: { id: eventId, type: 'order.created', created_at: now, data: { order: snapshot } },
      created_at: now,
    });
    const targets = endpoints.filter((e) => e.events.length === 0 || e.events.includes('order.created'));
    if (targets.length > 0) {
      await tx.insert(deliveries).values(
        targets.map((e) => ({
          id: `dlv_${randomUUID()}`,
          company_uuid: uuid,
          endpoint_id: e.id,
          event_id: eventId,
          event_type: 'order.created',
          status: 'pending' as const,
          attempt_count: 0,
          next_attempt_at: now,
          attempts: [],
          created_at: now,
        })),
      );
    }
  });
  return c.json(order, 201);
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
