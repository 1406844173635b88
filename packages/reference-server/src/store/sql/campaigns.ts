import {
  type CampaignPort,
  type CampaignRecord,
  copy,
  countIntoFunnel,
  iso,
  noMessages,
  pageOffset,
  StoreConflictError,
  topFailureCodes,
} from '@engagekit/runtime/store';
import { and, count, eq, getTableColumns, gt, inArray, lte, sql } from 'drizzle-orm';
import { batchedRead, distinctKeys } from './batched-read.ts';
import { builtOnce } from './built-once.ts';
import type { SqlConnection } from './connection.ts';
import { mapUniqueViolation } from './errors.ts';
import { definedOnly } from './queries.ts';
import { jsonValue } from './raw.ts';
import { campaigns, companies } from './schema.ts';

const { claim_token: _claimToken, locked_until: _lockedUntil, ...campaignColumnsOnly } = getTableColumns(campaigns);
/** The columns of a CampaignRecord (the claim columns stay inside the store). */
const campaignColumns = campaignColumnsOnly;

/** The largest value of a PostgreSQL `integer` column. */
const MAX_INT32 = 2_147_483_647;

const getCampaignStatement = builtOnce<CampaignRecord>(
  'engagekit_get_campaign',
  (db) =>
    db
      .select(campaignColumns)
      .from(campaigns)
      .where(and(eq(campaigns.company_uuid, sql.placeholder('companyUuid')), eq(campaigns.id, sql.placeholder('id')))),
  campaignColumns,
);
// The reads of a page of campaigns (getCampaignData) and of a report (reportingCampaign), built once:
// drizzle builds a statement's text from its parts each time it runs, which under the load of the row
// server.rss was much of what the server allocated (see built-once.ts).
const campaignPageStatement = builtOnce<CampaignRecord>(
  'engagekit_campaign_page',
  (db) =>
    db
      .select(campaignColumns)
      .from(campaigns)
      .where(
        and(eq(campaigns.company_uuid, sql.placeholder('companyUuid')), gt(campaigns.seq, sql.placeholder('from')), lte(campaigns.seq, sql.placeholder('to'))),
      )
      .orderBy(campaigns.seq),
  campaignColumns,
);
const campaignSeqStatement = builtOnce<{ seq: number }>(
  'engagekit_campaign_seq',
  (db) =>
    db
      .select({ seq: companies.campaign_seq })
      .from(companies)
      .where(eq(companies.uuid, sql.placeholder('companyUuid'))),
  { seq: companies.campaign_seq },
);
const statusCountsStatement = builtOnce<{ status: string; n: number }>(
  'engagekit_campaign_status_counts',
  (db) =>
    db
      .select({ status: campaigns.status, n: count() })
      .from(campaigns)
      .where(eq(campaigns.company_uuid, sql.placeholder('companyUuid')))
      .groupBy(campaigns.status),
  { status: campaigns.status, n: Number },
);
// One statement, one row a campaign: the unique (company_uuid, seq) index read backwards for the last
// `limit` campaigns, then each one's count rows and runs found by its key (the primary keys of
// message_counts and campaign_runs). Reading the newest campaigns, then their counts by a list of ids,
// took two round trips and scanned the company's count rows (server.report.1m-messages).
const newestCampaignsStatement = builtOnce('engagekit_newest_campaigns', (db) =>
  db.execute(sql`
    SELECT c.id, c.name, c.status, m.counts, f.failures, r.runs, r.last_run_at
      FROM (SELECT id, name, status, seq FROM campaigns WHERE company_uuid = ${sql.placeholder('companyUuid')} ORDER BY seq DESC LIMIT ${sql.placeholder('limit')}) AS c
      LEFT JOIN LATERAL (SELECT json_object_agg(status, n) AS counts FROM (SELECT status, sum(n) AS n FROM message_counts WHERE campaign_id = c.id GROUP BY status) AS s) AS m ON true
      LEFT JOIN LATERAL (SELECT json_object_agg(code, n) AS failures FROM message_counts WHERE campaign_id = c.id AND status = 'failed' AND n <> 0) AS f ON true
      LEFT JOIN LATERAL (SELECT count(*)::int AS runs, max(run_key) AS last_run_at FROM campaign_runs WHERE campaign_id = c.id) AS r ON true
     ORDER BY c.seq DESC`),
);

/** Creates a campaign with the next `seq` of its company, in a transaction of its own (a savepoint inside one). */
async function createCampaign({ db }: SqlConnection, campaign: Omit<CampaignRecord, 'seq'>): Promise<CampaignRecord> {
  try {
    return await db.transaction(async (tx) => {
      // The company row is the per-company counter: concurrent creates queue on its lock and get dense seqs;
      // a create that fails (a duplicate name) rolls its increment back.
      const [counter] = await tx
        .update(companies)
        .set({ campaign_seq: sql`${companies.campaign_seq} + 1` })
        .where(eq(companies.uuid, campaign.company_uuid))
        .returning({ seq: companies.campaign_seq });
      if (!counter) throw new Error(`Unknown company "${campaign.company_uuid}": create it before its campaigns.`);
      const [row] = await tx
        .insert(campaigns)
        .values({ ...campaign, seq: counter.seq })
        .returning(campaignColumns);
      if (!row) throw new Error('The campaign was not inserted.');
      return row;
    });
  } catch (error) {
    throw mapUniqueViolation(
      error,
      'campaigns_company_name_unique',
      () => new StoreConflictError('name', `A campaign named "${campaign.name}" exists already.`),
    );
  }
}

/** The SQL store's campaigns on `conn` (the pool, or one transaction). */
export function createSqlCampaigns(conn: SqlConnection): CampaignPort {
  const { db } = conn;
  return {
    createCampaign: (campaign) => createCampaign(conn, campaign),
    async getCampaign(companyUuid, id) {
      const [row] = await getCampaignStatement(conn, { companyUuid, id });
      return row ?? null;
    },
    async listCampaigns(companyUuid, page) {
      // Campaigns are never deleted and seqs are dense, so a page is a seq range read from the unique index,
      // and the total is the company's last seq (counting the rows would read all of them on every page).
      // seq is a 32-bit integer: bounds past its largest value are held to it (such a page is empty), or
      // PostgreSQL refuses the parameter.
      // The page and the total are read together (on PostgreSQL, on connections of their own).
      const from = Math.min(pageOffset(page), MAX_INT32);
      const [items, [counter]] = await Promise.all([
        campaignPageStatement(conn, { companyUuid, from, to: Math.min(from + page.limit, MAX_INT32) }),
        campaignSeqStatement(conn, { companyUuid }),
      ]);
      return { items, total: counter?.seq ?? 0 };
    },
    async updateCampaign(companyUuid, id, patch, now) {
      const changes: Partial<CampaignRecord> = definedOnly({ status: patch.status, endDate: patch.endDate, next_run_at: patch.next_run_at });
      const [row] = await db
        .update(campaigns)
        .set({ ...changes, updated_at: iso(now) })
        .where(and(eq(campaigns.company_uuid, companyUuid), eq(campaigns.id, id)))
        .returning(campaignColumns);
      return row ?? null;
    },
    async updateCampaignIf(companyUuid, id, from, patch, now) {
      const changes: Partial<CampaignRecord> = definedOnly({
        status: patch.status,
        pause_reason: patch.pause_reason,
        failure_reason: patch.failure_reason,
        endDate: patch.endDate,
        next_run_at: patch.next_run_at,
      });
      const [row] = await db
        .update(campaigns)
        .set({ ...changes, updated_at: iso(now) })
        .where(and(eq(campaigns.company_uuid, companyUuid), eq(campaigns.id, id), inArray(campaigns.status, [...from])))
        .returning(campaignColumns);
      return row ?? null;
    },
    async countCampaignsByStatus(companyUuid) {
      const rows = await statusCountsStatement(conn, { companyUuid });
      return Object.fromEntries(rows.map((row) => [row.status, row.n]));
    },
    async newestCampaigns(companyUuid, limit) {
      const rows = await newestCampaignsStatement(conn, { companyUuid, limit });
      return rows.map((row) => {
        const failures = Object.entries(jsonValue<Record<string, number> | null>(row.failures) ?? {}).map(([code, n]): [string, number] => [code, Number(n)]);
        const messages = {
          ...noMessages(),
          runs: Number(row.runs),
          last_run_at: (row.last_run_at as string | null) ?? null,
          failed_by_code: topFailureCodes(failures),
        };
        for (const [status, n] of Object.entries(jsonValue<Record<string, number> | null>(row.counts) ?? {})) countIntoFunnel(messages, status, Number(n));
        return { id: row.id as string, name: row.name as string, status: row.status as CampaignRecord['status'], messages };
      });
    },
  };
}

/** Campaigns by many keys at once, one row a key: `ord` says which. */
const getCampaignsStatement = builtOnce<CampaignRecord & { ord: number }>(
  'engagekit_get_campaigns',
  (db) =>
    db
      .select({ ord: sql`k.ord`, ...campaignColumns })
      .from(sql`unnest(${sql.placeholder('companyUuids')}::text[], ${sql.placeholder('ids')}::text[]) with ordinality as k(company_uuid, id, ord)`)
      .innerJoin(campaigns, and(eq(campaigns.company_uuid, sql`k.company_uuid`), eq(campaigns.id, sql`k.id`))),
  { ord: Number, ...campaignColumns },
);

/**
 * `getCampaign` outside transactions, batched: reads by many requests at once share queries while the
 * database is busy (see batchedRead; it serves the benchmark row server.read.pg.vs-node-http). Each
 * query costs a round trip (to PostgreSQL over the network; to PGlite, a message to its thread) and
 * the database's work per statement, which one query for many keys shares. A key the batch names more than once is read once, and each caller still gets a record
 * of its own (see distinctKeys). `concurrency`: see `SqlStoreTuning.readConcurrency`.
 */
export function batchedCampaignRead(conn: SqlConnection, concurrency: number): CampaignPort['getCampaign'] {
  const read = batchedRead<{ companyUuid: string; id: string }, CampaignRecord>({
    concurrency,
    maxBatch: 64,
    one: async (key) => (await getCampaignStatement(conn, key))[0] ?? null,
    many: distinctKeys(
      (key) => `${key.companyUuid}/${key.id}`,
      copy,
      async (keys) => {
        const rows = await getCampaignsStatement(conn, { companyUuids: keys.map((k) => k.companyUuid), ids: keys.map((k) => k.id) });
        const found: (CampaignRecord | null)[] = keys.map(() => null);
        for (const { ord, ...campaign } of rows) found[ord - 1] = campaign;
        return found;
      },
    ),
  });
  return (companyUuid, id) => read({ companyUuid, id });
}
