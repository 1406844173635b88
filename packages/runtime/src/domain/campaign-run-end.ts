/**
 * How a campaign run ends: once no chunk of it is left, under the run's lock, by whoever finds it so
 * (the instance that finishes the last chunk, the agency's sync, or a resume of a paused run whose
 * chunks were all done). Its own room, so that both the run (campaign-runs.ts) and the campaign's
 * controls (campaign-control.ts) end runs without importing each other.
 */
import { runFailsFrom } from '../rules/campaign-control.ts';
import type { Store } from '../store/ports.ts';
import { type CampaignRecord, exclusive } from '../store/types.ts';
import { afterRun } from './campaigns.ts';

/** The lock a run's end takes. */
export const runLock = (campaignId: string) => `campaign-run:${campaignId}`;

/**
 * Inside a transaction holding the run's lock: when no chunk of the campaign's current run is left,
 * ends the run (afterRun) and says how it went; null otherwise (or when the campaign is not running
 * that run any more: paused, cancelled, or ended by another).
 */
export async function endRunIfDone(
  tx: Store,
  campaign: CampaignRecord,
  now: Date,
): Promise<{ sent: number; failed: number; status: CampaignRecord['status'] } | null> {
  const runKey = campaign.next_run_at as string;
  if ((await tx.pendingChunks(campaign.id, runKey)) > 0) return null;
  const company = await tx.getCompany(campaign.company_uuid);
  const totals = await tx.runTotals(campaign.id, runKey);
  const after = afterRun(campaign, company?.timezone ?? 'UTC', runKey, now, totals);
  const ended = await tx.finishRun(campaign.id, runKey, after, now.toISOString());
  return ended ? { ...totals, status: after.status } : null;
}

/**
 * Ends the campaign's run `failed` with `reason` as its `failure_reason`: the provider refused a send
 * for a configuration problem (the token, a permission, the account), which every further message
 * would meet too. Under the run's lock, a `running` campaign, or one paused meanwhile
 * (`runFailsFrom`): its chunks not done are closed, so nothing more of the run is sent, and no later
 * run is planned (a recurring campaign stops: create it again once the configuration is fixed). Its
 * messages not sent stay `pending`. Null when the campaign had left those statuses (cancelled, or
 * failed already by another send).
 */
export function failRun(store: Store, campaign: Pick<CampaignRecord, 'company_uuid' | 'id'>, reason: string, now: Date): Promise<CampaignRecord | null> {
  return store.transaction(async (tx) => {
    await tx.lock([exclusive(runLock(campaign.id))]);
    const failed = await tx.updateCampaignIf(
      campaign.company_uuid,
      campaign.id,
      runFailsFrom,
      { status: 'failed', failure_reason: reason, pause_reason: null, next_run_at: null, endDate: now.toISOString().slice(0, 10) },
      now.toISOString(),
    );
    if (failed) await tx.closeChunks(campaign.id);
    return failed;
  });
}
