/**
 * The SQL store's campaign runs in chunks: a due campaign's run planned as chunks of its company's
 * customers by key, in one transaction that concurrent starters skip; chunks claimed under an
 * instance's lease with `FOR UPDATE SKIP LOCKED`; a run ended once, by whoever finishes its last chunk.
 * Which campaigns are due, where chunks end, whose chunks are claimed and the claim order are the
 * runtime's rules (`rules/campaign-runs.ts`: `isDue`, `compareDue`, `waitsForRunAfter`, `chunkEnds`,
 * `sendsChunks`, `compareChunkClaims`), which these statements carry out; the store conformance suite
 * holds them to the memory store's.
 */
import {
  type CampaignRecord,
  type CampaignRunPort,
  type ClaimedChunk,
  type CustomerRecord,
  chunkRanges,
  compareChunkClaims,
  type RunChunk,
} from '@engagekit/runtime/store';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { SqlConnection, SqlDriver, StoreDatabase } from './connection.ts';
import { customerColumns } from './customers.ts';
import { boolValue, isoOrNull, jsonValue, type Row, rowsOf } from './raw.ts';
import { campaignChunks, customers } from './schema.ts';

type ChunkMethods = Pick<
  CampaignRunPort,
  | 'startDueRuns'
  | 'nextCampaignDue'
  | 'claimChunks'
  | 'chunkCustomers'
  | 'holdsChunk'
  | 'finishChunk'
  | 'releaseChunk'
  | 'closeChunks'
  | 'runPlanned'
  | 'pendingChunks'
  | 'runTotals'
  | 'runningCampaigns'
  | 'finishRun'
>;

const day = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/** A campaign record from a raw row of `campaigns`. */
function campaignFromRow(r: Row): CampaignRecord {
  return {
    id: r.id as string,
    company_uuid: r.company_uuid as string,
    seq: Number(r.seq),
    name: r.name as string,
    status: r.status as CampaignRecord['status'],
    pause_reason: (r.pause_reason as string | null) ?? null,
    failure_reason: (r.failure_reason as string | null) ?? null,
    schedule_type: r.schedule_type as CampaignRecord['schedule_type'],
    schedule: isoOrNull(r.schedule) as string,
    days: jsonValue(r.days),
    template_payload: jsonValue(r.template_payload),
    endDate: day(r.end_date),
    next_run_at: isoOrNull(r.next_run_at),
    created_at: isoOrNull(r.created_at) as string,
    updated_at: isoOrNull(r.updated_at) as string,
  };
}

function chunkFromRow(r: Row): RunChunk {
  return {
    id: r.id as string,
    company_uuid: r.company_uuid as string,
    campaign_id: r.campaign_id as string,
    run_key: r.run_key as string,
    seq: Number(r.seq),
    after_id: (r.after_id as string | null) ?? null,
    through_id: (r.through_id as string | null) ?? null,
    done: boolValue(r.done),
  };
}

/** Plans one campaign's run: its chunks (unless the run has them already), `chunkSize` customers each by key. */
async function planRun(db: StoreDatabase, campaign: CampaignRecord, chunkSize: number, newId: (prefix: string) => string): Promise<void> {
  const runKey = campaign.next_run_at as string;
  // The ids that end a chunk (`chunkEnds`): every chunkSize-th customer by id, but the last customer.
  const ends = rowsOf(
    await db.execute(sql`
      SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn, count(*) OVER () AS n FROM customers WHERE company_uuid = ${campaign.company_uuid}) AS k
       WHERE rn % ${chunkSize} = 0 AND rn < n ORDER BY id`),
  ).map((r) => r.id as string);
  const rows = chunkRanges(ends).map((range, i) => ({
    id: newId('chk'),
    company_uuid: campaign.company_uuid,
    campaign_id: campaign.id,
    run_key: runKey,
    seq: i + 1,
    ...range,
  }));
  await db.insert(campaignChunks).values(rows).onConflictDoNothing();
}

/** Starts the due campaigns' runs, in the transaction `tx`: those another starter holds are skipped. */
async function startDue(tx: StoreDatabase, { now, limit, chunkSize, newId }: Parameters<CampaignRunPort['startDueRuns']>[0]): Promise<CampaignRecord[]> {
  // `isDue`, in `compareDue`'s order.
  const due = rowsOf(
    await tx.execute(sql`
      SELECT * FROM campaigns WHERE status = 'scheduled' AND next_run_at <= ${now}
       ORDER BY next_run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`),
  ).map(campaignFromRow);
  for (const campaign of due) await planRun(tx, campaign, chunkSize, newId);
  if (due.length === 0) return [];
  const ids = due.map((c) => c.id);
  const started = rowsOf(
    await tx.execute(sql`UPDATE campaigns SET status = 'running', updated_at = ${now} WHERE id = any(${sql.param(ids)}::text[]) RETURNING *`),
  ).map(campaignFromRow);
  return started.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

/** Claims up to `limit` open chunks (unclaimed, or whose lease ran out) under `claimToken`, with their campaigns. */
async function claimChunks(db: StoreDatabase, { now, leaseUntil, claimToken, limit }: Parameters<CampaignRunPort['claimChunks']>[0]): Promise<ClaimedChunk[]> {
  // Open chunks of running campaigns (`sendsChunks`) in `compareChunkClaims`' order. The campaign is
  // read in a subquery, so FOR UPDATE locks the chunk rows alone.
  const chunks = rowsOf(
    await db.execute(sql`
      UPDATE campaign_chunks AS k SET claim_token = ${claimToken}, claim_until = ${leaseUntil}
        FROM (SELECT id, claim_token AS held_by FROM campaign_chunks AS o
               WHERE NOT done AND (claim_until IS NULL OR claim_until < ${now})
                 AND EXISTS (SELECT 1 FROM campaigns AS c WHERE c.id = o.campaign_id AND c.status = 'running')
               ORDER BY run_key, seq, campaign_id
               LIMIT ${limit} FOR UPDATE SKIP LOCKED) AS pick
       WHERE k.id = pick.id
      RETURNING k.*, pick.held_by IS NOT NULL AND pick.held_by <> ${claimToken} AS taken_over`),
  ).map((r) => ({ ...chunkFromRow(r), ...(boolValue(r.taken_over) && { taken_over: true }) }));
  if (chunks.length === 0) return [];
  const ids = [...new Set(chunks.map((c) => c.campaign_id))];
  const campaigns = new Map(
    rowsOf(await db.execute(sql`SELECT * FROM campaigns WHERE id = any(${sql.param(ids)}::text[])`))
      .map(campaignFromRow)
      .map((c) => [c.id, c]),
  );
  const claimed: ClaimedChunk[] = [];
  for (const chunk of chunks.sort(compareChunkClaims)) {
    const campaign = campaigns.get(chunk.campaign_id);
    if (campaign) claimed.push({ ...chunk, campaign });
  }
  return claimed;
}

/** The campaign-run chunks of the SQL store on `conn`; `driver` for the transactions of a run's start. */
export function createSqlRunChunks(conn: SqlConnection, driver: Pick<SqlDriver, 'transaction'> | undefined): ChunkMethods {
  const { db } = conn;
  const inTransaction = <T>(work: (tx: StoreDatabase) => Promise<T>) => (driver ? driver.transaction((tx) => work(tx.db)) : work(db));
  return {
    async startDueRuns(args) {
      // One transaction: the due campaigns locked (those another starter holds skipped), planned, set running.
      return inTransaction((tx) => startDue(tx, args));
    },

    async nextCampaignDue(after) {
      // The earliest of those `waitsForRunAfter`.
      const [row] = rowsOf(await db.execute(sql`SELECT min(next_run_at) AS at FROM campaigns WHERE status = 'scheduled' AND next_run_at > ${after}`));
      return isoOrNull(row?.at);
    },

    claimChunks: (args) => claimChunks(db, args),

    async chunkCustomers(chunk): Promise<CustomerRecord[]> {
      const bounds = [eq(customers.company_uuid, chunk.company_uuid)];
      if (chunk.after_id !== null) bounds.push(gt(customers.id, chunk.after_id));
      if (chunk.through_id !== null) bounds.push(lte(customers.id, chunk.through_id));
      return db
        .select(customerColumns)
        .from(customers)
        .where(and(...bounds))
        .orderBy(customers.id);
    },

    async holdsChunk(chunkId, claimToken, now) {
      // Held, and its campaign still running (`sendsChunks`).
      const rows = rowsOf(
        await db.execute(sql`
          SELECT 1 FROM campaign_chunks AS k JOIN campaigns AS c ON c.id = k.campaign_id
           WHERE k.id = ${chunkId} AND k.claim_token = ${claimToken} AND k.claim_until >= ${now} AND NOT k.done AND c.status = 'running'`),
      );
      return rows.length > 0;
    },

    async finishChunk(chunkId, claimToken) {
      const rows = rowsOf(
        await db.execute(sql`
          UPDATE campaign_chunks SET done = true, claim_token = NULL, claim_until = NULL
           WHERE id = ${chunkId} AND claim_token = ${claimToken} AND NOT done RETURNING id`),
      );
      return rows.length > 0;
    },

    async releaseChunk(chunkId, claimToken, until) {
      // Held by nobody; with `until`, claimable only once it has passed (the claim's time without its token).
      await db.execute(
        sql`UPDATE campaign_chunks SET claim_token = NULL, claim_until = ${until ?? null} WHERE id = ${chunkId} AND claim_token = ${claimToken}`,
      );
    },

    async runPlanned(campaignId, runKey) {
      const rows = rowsOf(await db.execute(sql`SELECT 1 FROM campaign_chunks WHERE campaign_id = ${campaignId} AND run_key = ${runKey} LIMIT 1`));
      return rows.length > 0;
    },

    async closeChunks(campaignId) {
      const rows = rowsOf(
        await db.execute(
          sql`UPDATE campaign_chunks SET done = true, claim_token = NULL, claim_until = NULL WHERE campaign_id = ${campaignId} AND NOT done RETURNING id`,
        ),
      );
      return rows.length;
    },

    async pendingChunks(campaignId, runKey) {
      const [row] = rowsOf(
        await db.execute(sql`SELECT count(*)::int AS n FROM campaign_chunks WHERE campaign_id = ${campaignId} AND run_key = ${runKey} AND NOT done`),
      );
      return Number(row?.n ?? 0);
    },

    async runTotals(campaignId, runKey) {
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT count(*) FILTER (WHERE status IN ('sent', 'delivered', 'read'))::int AS sent, count(*) FILTER (WHERE status = 'failed')::int AS failed
            FROM messages WHERE campaign_id = ${campaignId} AND run_key = ${runKey}`),
      );
      return { sent: Number(row?.sent ?? 0), failed: Number(row?.failed ?? 0) };
    },

    async runningCampaigns(companyUuid) {
      return rowsOf(await db.execute(sql`SELECT * FROM campaigns WHERE company_uuid = ${companyUuid} AND status = 'running' ORDER BY seq`)).map(
        campaignFromRow,
      );
    },

    async finishRun(campaignId, runKey, patch, now) {
      const rows = rowsOf(
        await db.execute(sql`
          UPDATE campaigns SET status = ${patch.status}, failure_reason = ${patch.failure_reason}, next_run_at = ${patch.next_run_at}, end_date = ${patch.endDate}, updated_at = ${now}
           WHERE id = ${campaignId} AND status = 'running' AND next_run_at = ${runKey}::timestamptz RETURNING id`),
      );
      return rows.length > 0;
    },
  };
}
