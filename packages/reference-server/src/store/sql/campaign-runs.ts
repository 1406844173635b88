import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { type CampaignRecord, type CampaignRunMethods, countIntoFunnel, type MessageTotals } from '../types.ts';
import type { SqlDatabase } from './orders.ts';
import { isoOrNull, jsonValue, type Row, rowsOf } from './raw.ts';
import { campaigns, messages } from './schema.ts';

const { claim_token: _claimToken, locked_until: _lockedUntil, ...campaignColumnsOnly } = getTableColumns(campaigns);
/** The columns of a CampaignRecord (the claim columns stay inside the store). */
export const campaignColumns = campaignColumnsOnly;

const day = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

function campaignFromRow(r: Row): CampaignRecord {
  return {
    id: r.id as string,
    company_uuid: r.company_uuid as string,
    seq: Number(r.seq),
    name: r.name as string,
    status: r.status as CampaignRecord['status'],
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

/** The campaign-run methods of the SQL store. */
export function createSqlCampaignRuns(db: SqlDatabase): CampaignRunMethods {
  return {
    async claimDueCampaigns({ statuses, now, leaseUntil, claimToken, limit }) {
      const result = await db.execute(sql`
        UPDATE campaigns SET status = 'running', claim_token = ${claimToken}, locked_until = ${leaseUntil}, updated_at = ${now}
         WHERE id IN (
                 SELECT id FROM campaigns
                  WHERE status IN (${sql.join(
                    statuses.map((status) => sql`${status}`),
                    sql`, `,
                  )}) AND next_run_at <= ${now}
                    AND (locked_until IS NULL OR locked_until < ${now})
                  ORDER BY next_run_at, id
                  LIMIT ${limit}
                  FOR UPDATE SKIP LOCKED)
        RETURNING *`);
      return rowsOf(result).map(campaignFromRow);
    },

    async nextCampaignDue(statuses, after) {
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT min(next_run_at) AS at FROM campaigns
           WHERE status IN (${sql.join(
             statuses.map((status) => sql`${status}`),
             sql`, `,
           )}) AND next_run_at > ${after}`),
      );
      return isoOrNull(row?.at);
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

    async insertMessage(m) {
      // One statement: the message, its status count and its run, or nothing when the run already has one for that customer.
      const result = await db.execute(sql`
        WITH ins AS (
          INSERT INTO messages (id, company_uuid, campaign_id, customer_id, phone_number, status, error, run_key, provider_message_id, variables, created_at, updated_at)
          VALUES (${m.id}, ${m.company_uuid}, ${m.campaign_id}, ${m.customer_id}, ${m.phone_number}, ${m.status}, ${m.error}, ${m.run_key}, ${m.provider_message_id},
                  ${JSON.stringify(m.variables)}::jsonb, ${m.created_at}, ${m.updated_at})
          ON CONFLICT DO NOTHING
          RETURNING company_uuid, campaign_id, status, run_key),
        counted AS (
          INSERT INTO message_counts (company_uuid, campaign_id, status, n) SELECT company_uuid, campaign_id, status, 1 FROM ins
          ON CONFLICT (campaign_id, status) DO UPDATE SET n = message_counts.n + 1),
        run AS (
          INSERT INTO campaign_runs (company_uuid, campaign_id, run_key) SELECT company_uuid, campaign_id, run_key FROM ins
          ON CONFLICT DO NOTHING)
        SELECT count(*)::int AS inserted FROM ins`);
      return Number(rowsOf(result)[0]?.inserted ?? 0) > 0;
    },

    async updateMessage(id, patch, now) {
      // One statement: the new outcome, and the status counts moved from the old status to the new one.
      await db.execute(sql`
        WITH old AS (SELECT id, status FROM messages WHERE id = ${id} FOR UPDATE),
        upd AS (
          UPDATE messages AS m SET status = ${patch.status}, error = ${patch.error}, provider_message_id = ${patch.provider_message_id}, updated_at = ${now}
            FROM old WHERE m.id = old.id
          RETURNING m.company_uuid, m.campaign_id, old.status AS old_status, m.status AS new_status),
        dec AS (
          UPDATE message_counts AS c SET n = c.n - 1 FROM upd
           WHERE upd.old_status <> upd.new_status AND c.campaign_id = upd.campaign_id AND c.status = upd.old_status),
        inc AS (
          INSERT INTO message_counts (company_uuid, campaign_id, status, n)
          SELECT company_uuid, campaign_id, new_status, 1 FROM upd WHERE old_status <> new_status
          ON CONFLICT (campaign_id, status) DO UPDATE SET n = message_counts.n + 1)
        SELECT 1`);
    },

    async listRunMessages(campaignId, runKey) {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.campaign_id, campaignId), eq(messages.run_key, runKey)));
    },

    async messageTotals(companyUuid) {
      const counts = rowsOf(await db.execute(sql`SELECT campaign_id, status, n FROM message_counts WHERE company_uuid = ${companyUuid}`));
      const runs = rowsOf(
        await db.execute(
          sql`SELECT campaign_id, count(*)::int AS runs, max(run_key) AS last_run FROM campaign_runs WHERE company_uuid = ${companyUuid} GROUP BY campaign_id`,
        ),
      );
      const company: MessageTotals = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0 };
      const campaignsMap = new Map<string, MessageTotals & { runs: number; last_run_at: string | null }>();
      const entry = (id: string) => {
        let e = campaignsMap.get(id);
        if (!e) {
          e = { total: 0, sent: 0, delivered: 0, read: 0, failed: 0, runs: 0, last_run_at: null };
          campaignsMap.set(id, e);
        }
        return e;
      };
      for (const r of counts) {
        const e = entry(r.campaign_id as string);
        const n = Number(r.n);
        const status = r.status as string;
        countIntoFunnel(e, status, n);
        countIntoFunnel(company, status, n);
      }
      for (const r of runs) Object.assign(entry(r.campaign_id as string), { runs: Number(r.runs), last_run_at: (r.last_run as string | null) ?? null });
      return { company, campaigns: campaignsMap };
    },

    async releaseExpiredCampaignClaims(companyUuid, now, status) {
      const rows = await db.execute(sql`
        UPDATE campaigns SET status = ${status}, claim_token = NULL, locked_until = NULL, updated_at = ${now}
         WHERE company_uuid = ${companyUuid} AND status = 'running' AND locked_until < ${now}
        RETURNING id`);
      return rowsOf(rows).length;
    },
  };
}
