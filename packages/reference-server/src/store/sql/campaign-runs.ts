import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { CampaignRecord, MessageTotals, Store } from '../types.ts';
import type { SqlDatabase } from './orders.ts';
import { campaigns, messages, pgTimestampToIso } from './schema.ts';

const { claim_token: _claimToken, locked_until: _lockedUntil, ...campaignColumnsOnly } = getTableColumns(campaigns);
/** The columns of a CampaignRecord (the claim columns stay inside the store). */
export const campaignColumns = campaignColumnsOnly;

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => ((result as { rows?: Row[] }).rows ?? []) as Row[];
const ts = (v: unknown) => (v === null || v === undefined ? null : pgTimestampToIso(v as string | Date));
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const day = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

function campaignFromRow(r: Row): CampaignRecord {
  return {
    id: r.id as string,
    company_uuid: r.company_uuid as string,
    seq: Number(r.seq),
    name: r.name as string,
    status: r.status as CampaignRecord['status'],
    schedule_type: r.schedule_type as CampaignRecord['schedule_type'],
    schedule: ts(r.schedule) as string,
    days: json(r.days),
    template_payload: json(r.template_payload),
    endDate: day(r.end_date),
    next_run_at: ts(r.next_run_at),
    created_at: ts(r.created_at) as string,
    updated_at: ts(r.updated_at) as string,
  };
}

/** Counts by status as the report's funnel. */
const funnel = sql`count(*)::int AS total,
  count(*) FILTER (WHERE status IN ('sent', 'delivered', 'read'))::int AS sent,
  count(*) FILTER (WHERE status IN ('delivered', 'read'))::int AS delivered,
  count(*) FILTER (WHERE status = 'read')::int AS read,
  count(*) FILTER (WHERE status = 'failed')::int AS failed`;

const totalsOf = (r: Row | undefined): MessageTotals => ({
  total: Number(r?.total ?? 0),
  sent: Number(r?.sent ?? 0),
  delivered: Number(r?.delivered ?? 0),
  read: Number(r?.read ?? 0),
  failed: Number(r?.failed ?? 0),
});

type RunMethods = Pick<
  Store,
  | 'claimDueCampaigns'
  | 'extendCampaignClaim'
  | 'finishCampaignRun'
  | 'insertMessage'
  | 'updateMessage'
  | 'listRunMessages'
  | 'messageTotals'
  | 'releaseExpiredCampaignClaims'
>;

/** The campaign-run methods of the SQL store. */
export function createSqlCampaignRuns(db: SqlDatabase): RunMethods {
  return {
    async claimDueCampaigns({ now, leaseUntil, claimToken, limit }) {
      const result = await db.execute(sql`
        UPDATE campaigns SET status = 'running', claim_token = ${claimToken}, locked_until = ${leaseUntil}, updated_at = ${now}
         WHERE id IN (
                 SELECT id FROM campaigns
                  WHERE status IN ('scheduled', 'running') AND next_run_at <= ${now}
                    AND (locked_until IS NULL OR locked_until < ${now})
                  ORDER BY next_run_at, id
                  LIMIT ${limit}
                  FOR UPDATE SKIP LOCKED)
        RETURNING *`);
      return rowsOf(result).map(campaignFromRow);
    },

    async extendCampaignClaim(id, claimToken, leaseUntil) {
      const rows = await db
        .update(campaigns)
        .set({ locked_until: leaseUntil })
        .where(and(eq(campaigns.id, id), eq(campaigns.claim_token, claimToken)))
        .returning({ id: campaigns.id });
      return rows.length > 0;
    },

    async finishCampaignRun(id, claimToken, patch, now) {
      const rows = await db
        .update(campaigns)
        .set({ status: patch.status, next_run_at: patch.next_run_at, endDate: patch.endDate, updated_at: now, claim_token: null, locked_until: null })
        .where(and(eq(campaigns.id, id), eq(campaigns.claim_token, claimToken)))
        .returning({ id: campaigns.id });
      return rows.length > 0;
    },

    async insertMessage(message) {
      const rows = await db.insert(messages).values(message).onConflictDoNothing().returning({ id: messages.id });
      return rows.length > 0;
    },

    async updateMessage(id, patch, now) {
      await db
        .update(messages)
        .set({ ...patch, updated_at: now })
        .where(eq(messages.id, id));
    },

    async listRunMessages(campaignId, runKey) {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.campaign_id, campaignId), eq(messages.run_key, runKey)));
    },

    async messageTotals(companyUuid) {
      const perCampaign = rowsOf(
        await db.execute(sql`SELECT campaign_id, ${funnel}, count(DISTINCT run_key)::int AS runs, max(run_key) AS last_run
                               FROM messages WHERE company_uuid = ${companyUuid} GROUP BY campaign_id`),
      );
      const company: MessageTotals = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0 };
      const campaignsMap = new Map<string, MessageTotals & { runs: number; last_run_at: string | null }>();
      for (const r of perCampaign) {
        const t = totalsOf(r);
        for (const k of Object.keys(company) as (keyof MessageTotals)[]) company[k] += t[k];
        campaignsMap.set(r.campaign_id as string, { ...t, runs: Number(r.runs), last_run_at: (r.last_run as string | null) ?? null });
      }
      return { company, campaigns: campaignsMap };
    },

    async releaseExpiredCampaignClaims(companyUuid, now) {
      const rows = await db.execute(sql`
        UPDATE campaigns SET status = 'scheduled', claim_token = NULL, locked_until = NULL, updated_at = ${now}
         WHERE company_uuid = ${companyUuid} AND status = 'running' AND locked_until < ${now}
        RETURNING id`);
      return rowsOf(rows).length;
    },
  };
}
