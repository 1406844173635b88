import {
  advanceBar,
  type CampaignRunPort,
  countIntoFunnel,
  type MessageDeferral,
  type MessageOutcome,
  type MessageRecord,
  noMessages,
  repeats,
  type StatusesWritten,
  type StatusWrite,
  standingRank,
} from '@engagekit/runtime/store';
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

/** The SQL of a message's rank (`standingRank`, rules/message-status.ts), written from the rule itself for every status. */
const MESSAGE_STATUSES: readonly MessageRecord['status'][] = ['pending', 'sending', 'sent', 'delivered', 'read', 'failed'];
function rankOf(alias: string) {
  const rank = (status: MessageRecord['status'], named: boolean) => standingRank({ status, provider_message_id: named ? 'named' : null });
  const cases = MESSAGE_STATUSES.map(
    (status) => `WHEN '${status}' THEN CASE WHEN ${alias}.provider_message_id IS NULL THEN ${rank(status, false)} ELSE ${rank(status, true)} END`,
  );
  return sql.raw(`(CASE ${alias}.status ${cases.join(' ')} END)`);
}

/** A message count row's code: a failure's provider error code as text, '' otherwise. */
const countCode = (status: string, code: string) => sql.raw(`CASE WHEN ${status} = 'failed' THEN coalesce(${code}::text, '') ELSE '' END`);

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
      INSERT INTO messages (id, company_uuid, campaign_id, customer_id, phone_number, status, error, error_code, run_key, provider_message_id, variables, created_at, updated_at)
      SELECT id, company_uuid, campaign_id, customer_id, phone_number, status, error, error_code::int, run_key, provider_message_id, variables::jsonb, created_at::timestamptz, updated_at::timestamptz
        FROM unnest(${column((m) => m.id)}, ${column((m) => m.company_uuid)}, ${column((m) => m.campaign_id)}, ${column((m) => m.customer_id)},
                    ${column((m) => m.phone_number)}, ${column((m) => m.status)}, ${column((m) => m.error)}, ${column((m) => (m.error_code === null ? null : String(m.error_code)))},
                    ${column((m) => m.run_key)}, ${column((m) => m.provider_message_id)}, ${column((m) => JSON.stringify(m.variables))}, ${column((m) => m.created_at)}, ${column((m) => m.updated_at)})
             AS m (id, company_uuid, campaign_id, customer_id, phone_number, status, error, error_code, run_key, provider_message_id, variables, created_at, updated_at)
      ON CONFLICT DO NOTHING
      RETURNING id, company_uuid, campaign_id, status, error_code, run_key),
    counted AS (
      INSERT INTO message_counts (company_uuid, campaign_id, status, code, n)
      SELECT company_uuid, campaign_id, status, ${countCode('status', 'error_code')}, count(*) FROM ins GROUP BY 1, 2, 3, 4
      ON CONFLICT (campaign_id, status, code) DO UPDATE SET n = message_counts.n + excluded.n),
    run AS (
      INSERT INTO campaign_runs (company_uuid, campaign_id, run_key) SELECT DISTINCT company_uuid, campaign_id, run_key FROM ins
      ON CONFLICT DO NOTHING)
    SELECT id FROM ins`);
  return new Set(rowsOf(result).map((r) => r.id as string));
}

/**
 * The counts a statement's `upd` rows move (each from its old status and code to its new), summed per
 * (campaign, status, code) so each count row is written once.
 */
const movedCounts = sql`
    moved AS (
      SELECT company_uuid, campaign_id, old_status AS status, old_code AS code, -1 AS n FROM upd
      UNION ALL
      SELECT company_uuid, campaign_id, new_status, new_code, 1 FROM upd),
    counted AS (
      INSERT INTO message_counts (company_uuid, campaign_id, status, code, n)
      SELECT company_uuid, campaign_id, status, ${countCode('status', 'code')}, sum(n) FROM moved GROUP BY 1, 2, 3, 4
      ON CONFLICT (campaign_id, status, code) DO UPDATE SET n = message_counts.n + excluded.n)`;

/** Sets messages' outcomes where they move them forward (`advances`), in one statement with their counts. */
async function updateMessages(db: StoreDatabase, outcomes: MessageOutcome[], now: string): Promise<void> {
  if (outcomes.length === 0) return;
  const column = (pick: (o: MessageOutcome) => string | null) => sql`${sql.param(outcomes.map(pick))}::text[]`;
  await db.execute(sql`
    WITH patch AS (
      SELECT * FROM unnest(${column((o) => o.id)}, ${column((o) => o.status)}, ${column((o) => o.error)}, ${column((o) => (o.error_code === null ? null : String(o.error_code)))},
                           ${column((o) => o.provider_message_id)}, ${column((o) => String(advanceBar(o)))})
                 AS p (id, status, error, error_code, provider_message_id, bar)),
    old AS (
      SELECT m.id, m.status, m.error_code FROM messages AS m JOIN patch ON m.id = patch.id
       WHERE ${rankOf('m')} < patch.bar::int FOR UPDATE OF m),
    upd AS (
      UPDATE messages AS m SET status = patch.status, error = patch.error, error_code = patch.error_code::int,
             provider_message_id = coalesce(patch.provider_message_id, m.provider_message_id), updated_at = ${now}
        FROM patch, old WHERE m.id = patch.id AND old.id = m.id
      RETURNING m.company_uuid, m.campaign_id, old.status AS old_status, old.error_code AS old_code, m.status AS new_status, m.error_code AS new_code),
    ${movedCounts}
    SELECT 1`);
}

/** Puts messages still `sending` (or `pending`, not handed over yet) back to `pending` with their attempts, next attempt and refusal or wait, in one statement with their counts. */
async function deferMessages(db: StoreDatabase, deferrals: MessageDeferral[], now: string): Promise<void> {
  if (deferrals.length === 0) return;
  const column = (pick: (d: MessageDeferral) => string | null) => sql`${sql.param(deferrals.map(pick))}::text[]`;
  await db.execute(sql`
    WITH patch AS (
      SELECT * FROM unnest(${column((d) => d.id)}, ${column((d) => String(d.attempts))}, ${column((d) => d.next_attempt_at)}, ${column((d) => d.error)},
                           ${column((d) => (d.error_code === null ? null : String(d.error_code)))})
                 AS p (id, attempts, next_attempt_at, error, error_code)),
    old AS (
      SELECT m.id, m.status, m.error_code FROM messages AS m JOIN patch ON m.id = patch.id WHERE m.status IN ('sending', 'pending') FOR UPDATE OF m),
    upd AS (
      UPDATE messages AS m SET status = 'pending', attempts = patch.attempts::int, next_attempt_at = patch.next_attempt_at::timestamptz,
             error = patch.error, error_code = patch.error_code::int, updated_at = ${now}
        FROM patch, old WHERE m.id = patch.id AND old.id = m.id
      RETURNING m.company_uuid, m.campaign_id, old.status AS old_status, old.error_code AS old_code, m.status AS new_status, m.error_code AS new_code),
    ${movedCounts}
    SELECT 1`);
}

/**
 * Applies a provider's statuses where they move their messages forward, in one statement with their
 * counts: each finds its message by its own id (while that has no provider id or this one) or by the
 * provider's id; of several for one message, the one that moves it furthest. Says which found one,
 * and how many their message held already: the statement gives each found message as it stood before
 * it (every part of one statement reads the same snapshot), which `repeats` judges.
 */
async function applyStatuses(db: StoreDatabase, statuses: StatusWrite[], now: string): Promise<StatusesWritten> {
  if (statuses.length === 0) return { found: [], repeated: 0 };
  const column = (pick: (s: StatusWrite, i: number) => string | null) => sql`${sql.param(statuses.map(pick))}::text[]`;
  const result = await db.execute(sql`
    WITH s AS (
      SELECT * FROM unnest(${column((_, i) => String(i))}, ${column((s) => s.message_id)}, ${column((s) => s.provider_message_id)}, ${column((s) => s.status)},
                           ${column((s) => s.error)}, ${column((s) => (s.error_code === null ? null : String(s.error_code)))}, ${column((s) => String(advanceBar(s)))})
                 AS s (i, message_id, provider_message_id, status, error, error_code, bar)),
    found AS (
      SELECT s.*, coalesce(own.id, named.id) AS target,
             CASE WHEN own.id IS NOT NULL THEN own.status ELSE named.status END AS held_status,
             CASE WHEN own.id IS NOT NULL THEN own.provider_message_id ELSE named.provider_message_id END AS held_provider_id
        FROM s
        LEFT JOIN messages AS own ON own.id = s.message_id AND (own.provider_message_id IS NULL OR own.provider_message_id = s.provider_message_id)
        LEFT JOIN messages AS named ON own.id IS NULL AND named.provider_message_id = s.provider_message_id),
    furthest AS (SELECT DISTINCT ON (target) * FROM found WHERE target IS NOT NULL ORDER BY target, bar::int DESC),
    old AS (
      SELECT m.id, m.status, m.error_code FROM messages AS m JOIN furthest ON m.id = furthest.target
       WHERE ${rankOf('m')} < furthest.bar::int FOR UPDATE OF m),
    upd AS (
      UPDATE messages AS m SET status = furthest.status, error = furthest.error, error_code = furthest.error_code::int,
             provider_message_id = furthest.provider_message_id, updated_at = ${now}
        FROM furthest, old WHERE m.id = furthest.target AND old.id = m.id
      RETURNING m.company_uuid, m.campaign_id, old.status AS old_status, old.error_code AS old_code, m.status AS new_status, m.error_code AS new_code),
    ${movedCounts}
    SELECT DISTINCT ON (i::int) i::int AS i, held_status, held_provider_id FROM found WHERE target IS NOT NULL`);
  const held = new Map(
    rowsOf(result).map((r) => [Number(r.i), { status: r.held_status as MessageRecord['status'], provider_message_id: r.held_provider_id as string | null }]),
  );
  let repeated = 0;
  for (const [i, standing] of held) if (repeats(standing, statuses[i] as StatusWrite)) repeated++;
  return { found: statuses.map((_, i) => held.has(i)), repeated };
}

/** The SQL store's campaign runs on `conn` (the pool, or one transaction); `driver` starts a run's own transaction outside one. */
export function createSqlCampaignRuns(conn: SqlConnection, driver?: Pick<SqlDriver, 'transaction'>): CampaignRunPort {
  const { db } = conn;
  return {
    ...createSqlRunChunks(conn, driver),
    insertMessages: (batch) => insertMessages(db, batch),

    updateMessages: (outcomes, now) => updateMessages(db, outcomes, now),

    deferMessages: (deferrals, now) => deferMessages(db, deferrals, now),

    applyStatuses: (statuses, now) => applyStatuses(db, statuses, now),

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
