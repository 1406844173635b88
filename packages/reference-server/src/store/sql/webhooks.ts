import { type DeliveryRecord, type EndpointRecord, iso, pageOffset, type WebhookPort } from '@engagekit/runtime/store';
import { and, desc, eq, sql } from 'drizzle-orm';
import { builtOnce } from './built-once.ts';
import type { SqlConnection } from './connection.ts';
import { deliveryColumns } from './dispatch.ts';
import { countRows, definedOnly, pageOldestFirst } from './queries.ts';
import { deliveries, recordColumns, webhookEndpoints } from './schema.ts';

const endpointColumns = recordColumns(webhookEndpoints);

/** The company's endpoints, read in every order write (webhooks.latency.p50; see built-once.ts). */
const allEndpointsStatement = builtOnce<EndpointRecord>(
  'engagekit_all_endpoints',
  (db) =>
    db
      .select(endpointColumns)
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.company_uuid, sql.placeholder('companyUuid')))
      .orderBy(webhookEndpoints.created_at, webhookEndpoints.created_seq),
  endpointColumns,
);

/** Deletes the endpoint and its pending deliveries, in a transaction of its own (a savepoint inside one); false when unknown. */
function deleteEndpoint({ db }: SqlConnection, companyUuid: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)))
      .returning({ id: webhookEndpoints.id });
    if (deleted.length === 0) return false;
    // Finished deliveries stay as history; pending ones would go nowhere.
    await tx.delete(deliveries).where(and(eq(deliveries.endpoint_id, id), eq(deliveries.status, 'pending')));
    return true;
  });
}

/** The SQL store's webhook endpoints and delivery log on `conn` (the pool, or one transaction). */
export function createSqlWebhooks(conn: SqlConnection): WebhookPort {
  const { db } = conn;
  return {
    async createEndpoint(endpoint) {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ ...endpoint, created_at: iso(endpoint.created_at), updated_at: iso(endpoint.updated_at) })
        .returning(endpointColumns);
      if (!row) throw new Error('The webhook endpoint was not inserted.');
      return row;
    },
    async getEndpoint(companyUuid, id) {
      const [row] = await db
        .select(endpointColumns)
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)));
      return row ?? null;
    },
    listEndpoints: (companyUuid, page) => pageOldestFirst(db, webhookEndpoints, endpointColumns, eq(webhookEndpoints.company_uuid, companyUuid), page),
    allEndpoints: (companyUuid) => allEndpointsStatement(conn, { companyUuid }),
    async updateEndpoint(companyUuid, id, patch, now) {
      const changes: Partial<EndpointRecord> = definedOnly(patch);
      const [row] = await db
        .update(webhookEndpoints)
        .set({ ...changes, updated_at: iso(now) })
        .where(and(eq(webhookEndpoints.company_uuid, companyUuid), eq(webhookEndpoints.id, id)))
        .returning(endpointColumns);
      return row ?? null;
    },
    deleteEndpoint: (companyUuid, id) => deleteEndpoint(conn, companyUuid, id),
    async getDelivery(companyUuid, endpointId, id) {
      const [row] = await db
        .select(deliveryColumns)
        .from(deliveries)
        .where(and(eq(deliveries.company_uuid, companyUuid), eq(deliveries.endpoint_id, endpointId), eq(deliveries.id, id)));
      return row ?? null;
    },
    async listDeliveries(companyUuid, endpointId, page) {
      const where = and(
        eq(deliveries.company_uuid, companyUuid),
        eq(deliveries.endpoint_id, endpointId),
        page.status === undefined ? undefined : eq(deliveries.status, page.status),
      );
      const items: DeliveryRecord[] = await db
        .select(deliveryColumns)
        .from(deliveries)
        .where(where)
        .orderBy(desc(deliveries.created_at), desc(deliveries.created_seq))
        .limit(page.limit)
        .offset(pageOffset(page));
      return { items, total: await countRows(db, deliveries, where) };
    },
  };
}
