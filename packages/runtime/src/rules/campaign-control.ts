/**
 * Which statuses let a campaign be paused, resumed or cancelled: the one table the domain
 * (`domain/campaign-control.ts`) reads, and the routes' messages name. Pure: it imports nothing but
 * record types.
 */
import type { CampaignRecord } from '../store/types.ts';

/** A campaign's status. */
type Status = CampaignRecord['status'];

/** What a company (or the run itself) may do to a campaign. */
export type CampaignAction = 'pause' | 'resume' | 'cancel';

/** What an action needs and does: the statuses it changes, and those it answers as they are (asked twice, it does nothing the second time). */
export interface CampaignControlRule {
  /** The statuses the action changes: the store's conditional write takes only a campaign in one of them. */
  from: readonly Status[];
  /** The statuses the action leaves as they are and answers with: what it would make, or a state as good. */
  settled: readonly Status[];
}

/**
 * The table. Every status in neither list of an action is a conflict: a completed or failed campaign
 * can be neither paused nor cancelled, and only a paused one is resumed (a scheduled or running one
 * is answered as it is, so a resume sent twice, or after another resumed it, succeeds).
 */
export const campaignControls: Readonly<Record<CampaignAction, CampaignControlRule>> = {
  pause: { from: ['scheduled', 'running'], settled: ['paused'] },
  resume: { from: ['paused'], settled: ['scheduled', 'running'] },
  cancel: { from: ['scheduled', 'running', 'paused'], settled: ['cancelled'] },
};

/**
 * The statuses whose run a provider's refusal for a configuration problem ends `failed`
 * (`failRun`, domain/campaign-run-end.ts): one running, or paused meanwhile.
 */
export const runFailsFrom: readonly Status[] = ['running', 'paused'];

/** What an action comes to on a campaign in `status`: a change, nothing to do, or a conflict. */
export function controlOutcome(action: CampaignAction, status: Status): 'change' | 'settled' | 'conflict' {
  const rule = campaignControls[action];
  return rule.from.includes(status) ? 'change' : rule.settled.includes(status) ? 'settled' : 'conflict';
}
