import { type CampaignRunPort, countIntoFunnel, type MessageOutcome, type MessageRecord, noMessages } from '@engagekit/runtime/store';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { builtOnce } from './built-once.ts';
import type { SqlConnection, SqlDriver, StoreDatabase } from './connection.ts';
import { rowsOf } from './raw.ts';
import { createSqlRunChunks } from './run-chunks.ts';
import { messageCounts, messages } from './schema.ts';

// A company's message totals by status, built once: a read of every report (server.rss; see built-once.ts).
const messageTotalsStatement = builtOnce<{ status: string; n: number }>(
  'engagekit_message_totals',
  (db) =>
    db
      .select({ status: messageCounts.status, n: sql`sum(${messageCounts.n})::int` })
      .from(messageCounts)
      .where(eq(messageCounts.company_uuid, sql.placeholder('companyUuid')))
      .groupBy(messageCounts.status),
  { status: messageCounts.status, n: Number },
);

/**
 * Records messages in one statement with their status counts and runs, each unless its run already has
 * one for that customer; gives the ids it inserted.
 */
async function insertMessages(db: StoreDatabase, batch: MessageRecord[]): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  // One statement for the whole batch: the messages, their status counts and their runs; a message
  // whose run already has one for that customer is left out, and so are its counts. Each column goes
  // as one array parameter, so the statement's text and its parameters stay the same size for any batch.
  const column = (pick: (m: MessageRecord) => string | null) => sql`${sql.param(batch.map(pick))}::text[]`;
  const result = await db.execute(sql`
    WITH ins AS (
      INSERT INTO messages (id, company_uuid, campaign_id, customer_id, phone_number, status, error, run_key, provider_message_id, variables, created_at, updated_at)
      SELECT id, company_uuid, campaign_id, customer_id, phone_number, status, error, run_key, provider_message_id, variables::jsonb, created_at::timestamptz, updated_at::timestamptz
        FROM unnest(${column((m) => m.id)}, ${column((m) => m.company_uuid)}, ${column((m) => m.campaign_id)}, ${column((m) => m.customer_id)},
                    ${column((m) => m.phone_number)}, ${column((m) => m.status)}, ${column((m) => m.error)}, ${column((m) => m.run_key)},
                    ${column((m) => m.provider_message_id)}, ${column((m) => JSON.stringify(m.variables))}, ${column((m) => m.created_at)}, ${column((m) => m.updated_at)})
             AS m (id, company_uuid, campaign_id, customer_id, phone_number, status, error, run_key, provider_message_id, variables, created_at, updated_at)
      ON CONFLICT DO NOTHING
      RETURNING id, company_uuid, campaign_id, status, run_key),
    counted AS (
      INSERT INTO message_counts (company_uuid, campaign_id, status, n)
      SELECT company_uuid, campaign_id, status, count(*) FROM ins GROUP BY company_uuid, campaign_id, status
      ON CONFLICT (campaign_id, status) DO UPDATE SET n = message_counts.n + excluded.n),
    run AS (
      INSERT INTO campaign_runs (company_uuid, campaign_id, run_key) SELECT DISTINCT company_uuid, campaign_id, run_key FROM ins
      ON CONFLICT DO NOTHING)
    SELECT id FROM ins`);
  return new Set(rowsOf(result).map((r) => r.id as string));
}

/** Sets messages' outcomes in one statement with their status counts. */
async function updateMessages(db: StoreDatabase, outcomes: MessageOutcome[], now: string): Promise<void> {
  if (outcomes.length === 0) return;
  const column = (pick: (o: MessageOutcome) => string | null) => sql`${sql.param(outcomes.map(pick))}::text[]`;
  // One statement: the new outcomes, and the status counts moved from each old status to the new one,
  // summed per (campaign, status) so each count row is written once.
  await db.execute(sql`
    WITH patch AS (
      SELECT * FROM unnest(${column((o) => o.id)}, ${column((o) => o.status)}, ${column((o) => o.error)}, ${column((o) => o.provider_message_id)})
                 AS p (id, status, error, provider_message_id)),
    old AS (SELECT m.id, m.status FROM messages AS m JOIN patch ON m.id = patch.id FOR UPDATE OF m),
    upd AS (
      UPDATE messages AS m SET status = patch.status, error = patch.error, provider_message_id = patch.provider_message_id, updated_at = ${now}
        FROM patch, old WHERE m.id = patch.id AND old.id = m.id
      RETURNING m.company_uuid, m.campaign_id, old.status AS old_status, m.status AS new_status),
    moved AS (
      SELECT company_uuid, campaign_id, old_status AS status, -1 AS n FROM upd WHERE old_status <> new_status
      UNION ALL
      SELECT company_uuid, campaign_id, new_status, 1 FROM upd WHERE old_status <> new_status),
    counted AS (
      INSERT INTO message_counts (company_uuid, campaign_id, status, n)
      SELECT company_uuid, campaign_id, status, sum(n) FROM moved GROUP BY company_uuid, campaign_id, status
      ON CONFLICT (campaign_id, status) DO UPDATE SET n = message_counts.n + excluded.n)
    SELECT 1`);
}

/** The SQL store's campaign runs on `conn` (the pool, or one transaction); `driver` starts a run's own transaction outside one. */
export function createSqlCampaignRuns(conn: SqlConnection, driver?: Pick<SqlDriver, 'transaction'>): CampaignRunPort {
  const { db } = conn;
  return {
    ...createSqlRunChunks(conn, driver),
    insertMessages: (batch) => insertMessages(db, batch),

    updateMessages: (outcomes, now) => updateMessages(db, outcomes, now),

    async listRunMessages(campaignId, runKey, customerIds) {
      if (customerIds.length === 0) return [];
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.campaign_id, campaignId), eq(messages.run_key, runKey), inArray(messages.customer_id, [...customerIds])));
    },

    async messageTotals(companyUuid) {
      const rows = await messageTotalsStatement(conn, { companyUuid });
      const company = noMessages();
      for (const row of rows) countIntoFunnel(company, row.status, Number(row.n));
      return company;
    },
  };
}
