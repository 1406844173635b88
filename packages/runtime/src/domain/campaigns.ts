/**
 * Campaigns: when a campaign runs (once at `schedule`; recurring at each listed day and time in the
 * company's time zone) and what it becomes after a run. How a run goes is campaign-runs.ts.
 */
import type { Days, TemplateStatus } from '@engagekit/contract';
import type { Store } from '../store/ports.ts';
import { type CampaignRecord, type CompanyRecord, isStoreConflict, type Page, type PageRequest, type WriteContext } from '../store/types.ts';
import { nextRecurringRun } from './schedule.ts';
import { templateUsability } from './templates.ts';

/** What a new campaign is made of, as the API takes it. */
export interface NewCampaign {
  name: string;
  schedule_type: CampaignRecord['schedule_type'];
  /** ISO-8601, any offset. */
  schedule: string;
  days?: Days | null | undefined;
  template_payload: CampaignRecord['template_payload'];
}

/** When a campaign first runs: `schedule` for a once campaign; for a recurring one, its first listed time from `schedule` on. */
function firstRun(campaign: NewCampaign, timeZone: string): Date | null {
  const schedule = new Date(campaign.schedule);
  return campaign.schedule_type === 'once' ? schedule : nextRecurringRun(campaign.days ?? {}, timeZone, schedule);
}

/** The instants every store and the API's RFC 3339 timestamps can hold: years 0001 to 9999, in UTC. */
const SCHEDULE_RANGE = { from: new Date('0001-01-01T00:00:00.000Z'), to: new Date('9999-12-31T23:59:59.999Z') } as const;

/**
 * Why a new campaign cannot be kept: its schedule, or its first run, falls outside SCHEDULE_RANGE
 * (`9999-12-31T23:00:00-12:00` is in the year 10000 in UTC); null when it can.
 */
function scheduleProblem(campaign: NewCampaign, timeZone: string): string | null {
  const outside = (at: Date) => at < SCHEDULE_RANGE.from || at > SCHEDULE_RANGE.to;
  if (outside(new Date(campaign.schedule))) return 'must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z (in UTC)';
  const next = firstRun(campaign, timeZone);
  if (next && outside(next)) return 'leaves no run before the end of 9999-12-31 (UTC): the first listed day and time falls after it';
  return null;
}

/**
 * What creating a campaign came to: the campaign, why its schedule cannot be kept, a campaign of that
 * name the company has already, or a template it may not send (the statuses of its submissions; none
 * when it was never submitted).
 */
export type CampaignCreation =
  | { outcome: 'created'; campaign: CampaignRecord }
  | { outcome: 'schedule_refused'; problem: string }
  | { outcome: 'name_taken' }
  | { outcome: 'template_not_usable'; templateName: string; statuses: TemplateStatus[] };

/** How a deployment creates campaigns. */
export interface CampaignRules {
  /** Refuse a campaign whose template is not usable (see `templateUsability`): a channel that sends real templates. Default false. */
  requireUsableTemplates?: boolean | undefined;
}

/**
 * Creates a campaign, `scheduled` for its first run, unless its schedule cannot be kept (see
 * SCHEDULE_RANGE), the company has a campaign of that name (the store's constraint decides, so two
 * requests at once cannot both take it) or, with `rules.requireUsableTemplates`, its template is not usable.
 */
export async function createCampaign(
  store: Store,
  write: WriteContext,
  company: CompanyRecord,
  campaign: NewCampaign,
  rules: CampaignRules = {},
): Promise<CampaignCreation> {
  const problem = scheduleProblem(campaign, company.timezone);
  if (problem) return { outcome: 'schedule_refused', problem };
  if (rules.requireUsableTemplates) {
    const templateName = campaign.template_payload.template_name;
    const usability = await templateUsability(store, company, templateName);
    if (!usability.usable) return { outcome: 'template_not_usable', templateName, statuses: usability.statuses };
  }
  const next = firstRun(campaign, company.timezone);
  try {
    const created = await store.createCampaign({
      id: write.newId('cmp'),
      company_uuid: company.uuid,
      name: campaign.name,
      status: 'scheduled',
      pause_reason: null,
      failure_reason: null,
      schedule_type: campaign.schedule_type,
      schedule: new Date(campaign.schedule).toISOString(),
      days: campaign.schedule_type === 'recurring' ? (campaign.days ?? null) : null,
      template_payload: campaign.template_payload,
      endDate: null,
      next_run_at: next ? next.toISOString() : null,
      created_at: write.now,
      updated_at: write.now,
    });
    return { outcome: 'created', campaign: created };
  } catch (e) {
    if (isStoreConflict(e)) return { outcome: 'name_taken' };
    throw e;
  }
}

/** The company's campaigns, a page of them, in creation order. */
export function listCampaigns(store: Store, company: CompanyRecord, page: PageRequest): Promise<Page<CampaignRecord>> {
  return store.listCampaigns(company.uuid, page);
}

/** One campaign of the company; null when it has none by that id. */
export function getCampaign(store: Store, company: CompanyRecord, id: string): Promise<CampaignRecord | null> {
  return store.getCampaign(company.uuid, id);
}

/** The `failure_reason` of a once campaign whose run's messages all failed. */
export const EVERY_MESSAGE_FAILED = 'every message of its run failed';

/**
 * What a campaign becomes after a run for `runKey` ended at `now`: a recurring one is scheduled for
 * its next listed time; a once campaign is completed, or failed (`EVERY_MESSAGE_FAILED`) when every
 * message failed.
 */
export function afterRun(
  campaign: CampaignRecord,
  timeZone: string,
  runKey: string,
  now: Date,
  outcome: { sent: number; failed: number },
): Pick<CampaignRecord, 'status' | 'failure_reason' | 'next_run_at' | 'endDate'> {
  const next =
    campaign.schedule_type === 'recurring' && campaign.days
      ? nextRecurringRun(campaign.days, timeZone, new Date(Math.max(now.getTime(), Date.parse(runKey) + 1)))
      : null;
  if (next) return { status: 'scheduled', failure_reason: null, next_run_at: next.toISOString(), endDate: null };
  const failed = outcome.failed > 0 && outcome.sent === 0;
  return {
    status: failed ? 'failed' : 'completed',
    failure_reason: failed ? EVERY_MESSAGE_FAILED : null,
    next_run_at: null,
    endDate: now.toISOString().slice(0, 10),
  };
}
