/**
 * Campaigns: when a campaign runs (once at `schedule`; recurring at each listed day and time in the
 * company's time zone), which campaigns are due, how a run sends the template to every customer, and
 * what the campaign becomes after a run. The scheduler (campaigns/scheduler.ts) claims and runs them.
 */
import type { Days } from '@engagekit/contract';
import type { Clock } from '../clock.ts';
import type { Logger } from '../context.ts';
import type { IdGenerator } from '../ids.ts';
import type { CampaignRecord, CompanyRecord, CustomerRecord, MessageOutcome, MessageRecord, Page, PageRequest, Store, WriteContext } from '../store/types.ts';
import type { ChannelAdapter } from './channel.ts';
import { renderTemplate } from './render.ts';
import { nextRecurringRun } from './schedule.ts';

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
export function firstRun(campaign: NewCampaign, timeZone: string): Date | null {
  const schedule = new Date(campaign.schedule);
  return campaign.schedule_type === 'once' ? schedule : nextRecurringRun(campaign.days ?? {}, timeZone, schedule);
}

/** The instants every store and the API's RFC 3339 timestamps can hold: years 0001 to 9999, in UTC. */
export const SCHEDULE_RANGE = { from: new Date('0001-01-01T00:00:00.000Z'), to: new Date('9999-12-31T23:59:59.999Z') } as const;

/**
 * Why a new campaign cannot be kept: its schedule, or its first run, falls outside SCHEDULE_RANGE
 * (`9999-12-31T23:00:00-12:00` is in the year 10000 in UTC); null when it can.
 */
export function scheduleProblem(campaign: NewCampaign, timeZone: string): string | null {
  const outside = (at: Date) => at < SCHEDULE_RANGE.from || at > SCHEDULE_RANGE.to;
  if (outside(new Date(campaign.schedule))) return 'must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z (in UTC)';
  const next = firstRun(campaign, timeZone);
  if (next && outside(next)) return 'leaves no run before the end of 9999-12-31 (UTC): the first listed day and time falls after it';
  return null;
}

/** Creates a campaign, `scheduled` for its first run. Throws StoreConflictError('name') when the company has one of that name. */
export function createCampaign(store: Store, write: WriteContext, company: CompanyRecord, campaign: NewCampaign): Promise<CampaignRecord> {
  const next = firstRun(campaign, company.timezone);
  return store.createCampaign({
    id: write.newId('cmp'),
    company_uuid: company.uuid,
    name: campaign.name,
    status: 'scheduled',
    schedule_type: campaign.schedule_type,
    schedule: new Date(campaign.schedule).toISOString(),
    days: campaign.schedule_type === 'recurring' ? (campaign.days ?? null) : null,
    template_payload: campaign.template_payload,
    endDate: null,
    next_run_at: next ? next.toISOString() : null,
    created_at: write.now,
    updated_at: write.now,
  });
}

/** The company's campaigns, a page of them, in creation order. */
export function listCampaigns(store: Store, company: CompanyRecord, page: PageRequest): Promise<Page<CampaignRecord>> {
  return store.listCampaigns(company.uuid, page);
}

/** One campaign of the company; null when it has none by that id. */
export function getCampaign(store: Store, company: CompanyRecord, id: string): Promise<CampaignRecord | null> {
  return store.getCampaign(company.uuid, id);
}

/**
 * The statuses a campaign may be due in: `scheduled`, and `running` (a run whose runner died, taken
 * over once its lease runs out).
 */
export const DUE_STATUSES = ['scheduled', 'running'] as const;

/** Claims up to `limit` campaigns due at `now` (earliest first), leased to `claimToken` until `leaseUntil`. */
export function claimDueCampaigns(store: Store, claim: { now: Date; leaseUntil: Date; claimToken: string; limit: number }): Promise<CampaignRecord[]> {
  return store.claimDueCampaigns({
    statuses: DUE_STATUSES,
    now: claim.now.toISOString(),
    leaseUntil: claim.leaseUntil.toISOString(),
    claimToken: claim.claimToken,
    limit: claim.limit,
  });
}

/** When the next campaign falls due after `after`; null when none is waiting. */
export async function nextCampaignDue(store: Store, after: Date): Promise<Date | null> {
  const at = await store.nextCampaignDue(DUE_STATUSES, after.toISOString());
  return at === null ? null : new Date(at);
}

/** A company's runs whose runner died (their lease ran out) show `scheduled` again at once; the scheduler resumes them. Returns how many. */
export function releaseAbandonedRuns(store: Store, companyUuid: string, now: string): Promise<number> {
  return store.releaseExpiredCampaignClaims(companyUuid, now, 'scheduled');
}

/**
 * What a campaign becomes after a run for `runKey` ended at `now`: a recurring one is scheduled for
 * its next listed time; a once campaign is completed, or failed when every message failed.
 */
export function afterRun(
  campaign: CampaignRecord,
  timeZone: string,
  runKey: string,
  now: Date,
  outcome: { sent: number; failed: number },
): Pick<CampaignRecord, 'status' | 'next_run_at' | 'endDate'> {
  const next =
    campaign.schedule_type === 'recurring' && campaign.days
      ? nextRecurringRun(campaign.days, timeZone, new Date(Math.max(now.getTime(), Date.parse(runKey) + 1)))
      : null;
  if (next) return { status: 'scheduled', next_run_at: next.toISOString(), endDate: null };
  return { status: outcome.failed > 0 && outcome.sent === 0 ? 'failed' : 'completed', next_run_at: null, endDate: now.toISOString().slice(0, 10) };
}

/** What a run needs besides the campaign: the store, the channel, the time and ids, and its claim. */
export interface RunContext {
  store: Store;
  channel: ChannelAdapter;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** The claim the run holds; renewed as the run goes. */
  claimToken: string;
  /** When the claim should run out if renewed now. */
  leaseUntil: () => string;
  /** How long the run goes between renewals of its claim: well within the lease, so a live run keeps it. */
  renewEveryMs: number;
  /** Customers read a page at a time. */
  pageSize: number;
  /** True once the run should hand itself back (shutdown). */
  stopping: () => boolean;
}

const INTERRUPTED = 'interrupted: the run stopped before the channel answered; not sent again';

/** `items` in consecutive slices of at most `size` (size >= 1; Infinity gives one slice). */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const step = Math.max(1, Math.floor(Math.min(size, items.length || 1)));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}

/**
 * Runs a claimed campaign for its due time (`next_run_at`): the template, rendered for each customer
 * of the company, sent through the channel, each message recorded before it is sent, so whoever
 * records it is the only one who sends it. Messages go in slices of the channel's `inFlight` (1 unless
 * it says otherwise): a slice is recorded in one write, sent, and its outcomes recorded in one write.
 * A run that stopped midway (a crash) is resumed: customers already messaged are skipped, and a
 * message left without an answer is marked failed rather than sent twice. A shutdown hands the run
 * back, due as it was. The claim is renewed every `renewEveryMs` of the run, so the lease of a runner
 * that died runs out soon and another resumes it.
 */
export async function runCampaign(run: RunContext, campaign: CampaignRecord): Promise<void> {
  const { store, channel, clock, logger } = run;
  const runKey = campaign.next_run_at as string;
  const company = await store.getCompany(campaign.company_uuid);
  if (!company) throw new Error(`campaign ${campaign.id} names an unknown company`);

  const done = new Set<string>();
  // The run's outcome counts the messages of a run that stopped midway too.
  let sent = 0;
  let failed = 0;
  const unanswered: MessageOutcome[] = [];
  for (const m of await store.listRunMessages(campaign.id, runKey)) {
    done.add(m.customer_id);
    if (m.status === 'pending') unanswered.push({ id: m.id, status: 'failed', error: INTERRUPTED, provider_message_id: null });
    if (m.status === 'pending' || m.status === 'failed') failed++;
    else sent++;
  }
  await store.updateMessages(unanswered, clock.now().toISOString());

  let renewedAt = clock.now().getTime();
  /** Renews the claim once `renewEveryMs` has passed since the last renewal; false when it was lost to another runner. */
  const keepClaim = async () => {
    if (clock.now().getTime() - renewedAt < run.renewEveryMs) return true;
    renewedAt = clock.now().getTime();
    if (await store.extendCampaignClaim(campaign.id, run.claimToken, run.leaseUntil())) return true;
    logger.warn({ campaign: campaign.id, runKey }, 'campaign run lost its claim; another instance resumes it');
    return false;
  };

  /** Records, sends and settles one slice of customers: one write before the sends, one after. */
  const sendSlice = async (customers: CustomerRecord[]) => {
    const now = clock.now().toISOString();
    const outbound = customers.map((customer) => {
      const template = renderTemplate(campaign.template_payload, customer);
      const record: MessageRecord = {
        id: run.ids.newId('msg'),
        company_uuid: company.uuid,
        campaign_id: campaign.id,
        customer_id: customer.id,
        phone_number: customer.phoneNumber,
        run_key: runKey,
        status: 'pending',
        error: null,
        provider_message_id: null,
        variables: template.variables,
        created_at: now,
        updated_at: now,
      };
      return { record, customer, template };
    });
    const recorded = await store.insertMessages(outbound.map((m) => m.record));
    const outcomes = await Promise.all(
      outbound
        .filter((m) => recorded.has(m.record.id))
        .map(async ({ record, customer, template }): Promise<MessageOutcome> => {
          const result = await channel
            .send({
              to: customer.phoneNumber,
              template,
              key: `${campaign.id}:${runKey}:${customer.id}`,
              campaignId: campaign.id,
              runKey,
              customerId: customer.id,
            })
            .catch((e: Error) => ({ status: 'failed' as const, providerMessageId: null, error: `the channel failed: ${e.message}` }));
          return { id: record.id, status: result.status, error: result.error, provider_message_id: result.providerMessageId };
        }),
    );
    await store.updateMessages(outcomes, clock.now().toISOString());
    for (const o of outcomes) {
      if (o.status === 'failed') failed++;
      else sent++;
    }
  };

  for (let page = 1; ; page++) {
    const { items } = await store.listCustomers(company.uuid, { page, limit: run.pageSize });
    for (const slice of slices(
      items.filter((customer) => !done.has(customer.id)),
      channel.inFlight ?? 1,
    )) {
      if (run.stopping()) {
        await store.finishCampaignRun(campaign.id, run.claimToken, { status: 'scheduled', next_run_at: runKey, endDate: null }, clock.now().toISOString());
        logger.info({ campaign: campaign.id, runKey, sent, failed }, 'campaign run paused for shutdown; it resumes on the next claim');
        return;
      }
      await sendSlice(slice);
      if (!(await keepClaim())) return;
    }
    // Also between pages: a page of customers messaged before a crash is skipped without a send.
    if (!(await keepClaim())) return;
    if (items.length < run.pageSize) break;
  }

  const now = clock.now();
  const next = afterRun(campaign, company.timezone, runKey, now, { sent, failed });
  const finished = await store.finishCampaignRun(campaign.id, run.claimToken, next, now.toISOString());
  logger.info({ campaign: campaign.id, runKey, sent, failed, next: next.next_run_at, finished }, 'campaign run finished');
}
