/**
 * How a campaign run ends: once no chunk of it is left, under the run's lock, by whoever finds it so
 * (the instance that finishes the last chunk, the agency's sync, or a resume of a paused run whose
 * chunks were all done). Its own room, so that both the run (campaign-runs.ts) and the campaign's
 * controls (campaign-control.ts) end runs without importing each other.
 */
import type { Store } from '../store/ports.ts';
import type { CampaignRecord } from '../store/types.ts';
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
