/**
 * A campaign's controls: pause, resume and cancel. Which statuses allow which is the table of
 * `rules/campaign-control.ts`; each change is one conditional write of the store (status one of
 * those allowed), so two callers at once never undo each other's change.
 *
 * A paused or cancelled campaign sends nothing more: its chunks are claimed only while it is
 * `running`, and a chunk under way hands itself back at its next slice (campaign-runs.ts). The
 * messages already recorded wait, `pending`, for a resume; nothing is marked failed.
 */
import { type CampaignAction, campaignControls, controlOutcome } from '../rules/campaign-control.ts';
import type { Store } from '../store/ports.ts';
import { type CampaignRecord, type CampaignStatusPatch, type CompanyRecord, exclusive } from '../store/types.ts';
import { endRunIfDone, runLock } from './campaign-run-end.ts';

/** Why a campaign the company pauses itself is paused (`pause_reason`). */
export const PAUSED_BY_COMPANY = 'paused by the company';

/**
 * What a control came to: the campaign, and whether it changed (a campaign already paused, resumed or
 * cancelled is answered as it is), or a status that does not allow it, with the statuses that do.
 * Null when the company has no campaign of that id.
 */
export type CampaignControlOutcome =
  | { outcome: 'done'; campaign: CampaignRecord; changed: boolean }
  | { outcome: 'status_conflict'; campaign: CampaignRecord; action: CampaignAction; allowed: readonly CampaignRecord['status'][] };

/** How often a control writes again when the campaign moved into a status it changes between its write and its read. */
const ATTEMPTS = 3;

/** The conflict of `action` with the campaign as it stands. */
const conflict = (action: CampaignAction, campaign: CampaignRecord): CampaignControlOutcome => ({
  outcome: 'status_conflict',
  campaign,
  action,
  allowed: campaignControls[action].from,
});

/**
 * What `action` makes of the campaign as a read found it after the conditional write took nothing:
 * null (unknown), done unchanged, a conflict, or 'again' when it is now in a status the action changes.
 */
function judge(action: CampaignAction, read: CampaignRecord | null): CampaignControlOutcome | null | 'again' {
  if (read === null) return null;
  const outcome = controlOutcome(action, read.status);
  if (outcome === 'settled') return { outcome: 'done', campaign: read, changed: false };
  return outcome === 'conflict' ? conflict(action, read) : 'again';
}

/** Writes `patch` if the campaign's status is one `action` changes; else says why not. */
async function control(
  store: Store,
  companyUuid: string,
  campaignId: string,
  action: CampaignAction,
  patch: CampaignStatusPatch,
  now: Date,
): Promise<CampaignControlOutcome | null> {
  let read: CampaignRecord | null = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const changed = await store.updateCampaignIf(companyUuid, campaignId, campaignControls[action].from, patch, now.toISOString());
    if (changed) return { outcome: 'done', campaign: changed, changed: true };
    read = await store.getCampaign(companyUuid, campaignId);
    const judged = judge(action, read);
    if (judged !== 'again') return judged;
  }
  // It moved between statuses on every attempt: a conflict, with the status last read.
  return conflict(action, read as CampaignRecord);
}

/**
 * Pauses a `scheduled` or `running` campaign with `reason` as its `pause_reason`: the company's own
 * pause gives `PAUSED_BY_COMPANY`; a run the provider refuses (its template unusable) gives the
 * provider's error code and template. A paused campaign is answered as it is, its first reason kept.
 * A running campaign's run stops after the messages in flight; its chunks wait for `resumeCampaign`.
 * `company` is the company's record, or only its uuid (a run knows no more).
 */
export function pauseCampaign(
  store: Store,
  company: Pick<CompanyRecord, 'uuid'>,
  campaignId: string,
  reason: string,
  now: Date,
): Promise<CampaignControlOutcome | null> {
  return control(store, company.uuid, campaignId, 'pause', { status: 'paused', pause_reason: reason }, now);
}

/**
 * Cancels a `scheduled`, `running` or `paused` campaign for good: `next_run_at` null (a recurring one
 * never runs again), `endDate` the day of `now` (UTC). Its chunks not done are closed, never to be claimed; a chunk
 * under way hands itself back at its next slice. A cancelled campaign is answered as it is.
 */
export function cancelCampaign(store: Store, company: Pick<CompanyRecord, 'uuid'>, campaignId: string, now: Date): Promise<CampaignControlOutcome | null> {
  const patch: CampaignStatusPatch = { status: 'cancelled', pause_reason: null, next_run_at: null, endDate: now.toISOString().slice(0, 10) };
  return store.transaction(async (tx) => {
    const outcome = await control(tx, company.uuid, campaignId, 'cancel', patch, now);
    // Its chunks never run again: closed, so that no claim walks past them.
    if (outcome?.outcome === 'done' && outcome.changed) await tx.closeChunks(campaignId);
    return outcome;
  });
}

/**
 * Resumes a `paused` campaign. When its current run (`next_run_at`) was planned, the run goes on:
 * `running` again, its chunks not done claimed by any instance, its pending messages sent (each
 * customer still messaged at most once a run); when none of its chunks is left undone, the run ends at
 * once. Otherwise it is `scheduled` again, due at once when its time passed while it was paused. A
 * `scheduled` or `running` campaign is answered as it is. All under the run's lock, as a chunk's end
 * is, so a resume and the last chunk's end never both miss (or both take) the run's end.
 */
export function resumeCampaign(store: Store, company: Pick<CompanyRecord, 'uuid'>, campaignId: string, now: Date): Promise<CampaignControlOutcome | null> {
  return store.transaction(async (tx) => {
    await tx.lock([exclusive(runLock(campaignId))]);
    const campaign = await tx.getCampaign(company.uuid, campaignId);
    if (campaign === null) return null;
    if (controlOutcome('resume', campaign.status) !== 'change') return judge('resume', campaign) as CampaignControlOutcome;
    const runKey = campaign.next_run_at;
    const planned = runKey !== null && (await tx.runPlanned(campaignId, runKey));
    const patch: CampaignStatusPatch = { status: planned ? 'running' : 'scheduled', pause_reason: null };
    const resumed = await tx.updateCampaignIf(company.uuid, campaignId, campaignControls.resume.from, patch, now.toISOString());
    if (resumed === null) {
      // Cancelled between the read and the write (a cancel takes no lock).
      const read = await tx.getCampaign(company.uuid, campaignId);
      return read === null ? null : conflict('resume', read);
    }
    if (planned && (await endRunIfDone(tx, resumed, now))) {
      return { outcome: 'done', campaign: (await tx.getCampaign(company.uuid, campaignId)) as CampaignRecord, changed: true };
    }
    return { outcome: 'done', campaign: resumed, changed: true };
  });
}
