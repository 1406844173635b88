import { type Clock, systemClock } from '../clock.ts';
import { type Logger, silentLogger } from '../context.ts';
import { nextRecurringRun } from '../domain/schedule.ts';
import { createRandomIds, type IdGenerator } from '../ids.ts';
import type { CampaignRecord, Store } from '../store/types.ts';
import type { ChannelAdapter } from './channel.ts';
import { renderTemplate } from './render.ts';

/** Options of the campaign scheduler; every one has a default but the store and the channel. */
export interface SchedulerOptions {
  store: Store;
  channel: ChannelAdapter;
  clock?: Clock;
  logger?: Logger;
  ids?: IdGenerator;
  /** How often due campaigns are looked for (SCHEDULER_INTERVAL_MS). Default 1000. */
  intervalMs?: number;
  /** How long a claim holds before another instance may resume the run; renewed as the run goes. Default 30 s. */
  leaseMs?: number;
  /** Customers read a page at a time. Default 200. */
  pageSize?: number;
}

/** The scheduler: runs due campaigns, once per due time across every instance on the database. */
export interface Scheduler {
  start(): void;
  /** Stops looking for work and waits for the runs in progress to reach a clean point. */
  stop(): Promise<void>;
  /** Claims and runs whatever is due now; resolves to the number of runs it finished. */
  tick(): Promise<number>;
}

const INTERRUPTED = 'interrupted: the run stopped before the channel answered; not sent again';

/**
 * Creates the campaign scheduler. A due campaign (`once` at `schedule`; `recurring` at each listed
 * day and time in the company's time zone) is claimed with a lease, moved to `running`, and sent to
 * every customer of the company through the channel, one recorded message per customer. A run that
 * stops midway (a crash) is resumed by the next claimer: customers already messaged are skipped, and a
 * message left without an answer is marked failed rather than sent twice.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, channel } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const ids = options.ids ?? createRandomIds();
  const intervalMs = options.intervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const pageSize = options.pageSize ?? 200;
  const claimToken = `sch_${crypto.randomUUID()}`;
  const lease = () => new Date(clock.now().getTime() + leaseMs).toISOString();

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopping = false;
  let current: Promise<unknown> = Promise.resolve();

  async function run(campaign: CampaignRecord): Promise<void> {
    const runKey = campaign.next_run_at as string;
    const company = await store.getCompany(campaign.company_uuid);
    if (!company) throw new Error(`campaign ${campaign.id} names an unknown company`);

    // Resume: skip customers this run already has a message for; one still pending was interrupted.
    const done = new Set<string>();
    for (const m of await store.listRunMessages(campaign.id, runKey)) {
      done.add(m.customer_id);
      if (m.status === 'pending')
        await store.updateMessage(m.id, { status: 'failed', error: INTERRUPTED, provider_message_id: null }, clock.now().toISOString());
    }

    let sent = 0;
    let failed = 0;
    for (let page = 1; ; page++) {
      const { items } = await store.listCustomers(company.uuid, { page, limit: pageSize });
      for (const customer of items) {
        if (stopping) {
          // Hand the run back at once, due as it was: the next claimer (this instance restarted, or another) resumes it.
          await store.finishCampaignRun(campaign.id, claimToken, { status: 'scheduled', next_run_at: runKey, endDate: null }, clock.now().toISOString());
          logger.info({ campaign: campaign.id, runKey, sent, failed }, 'campaign run paused for shutdown; it resumes on the next claim');
          return;
        }
        if (done.has(customer.id)) continue;
        const template = renderTemplate(campaign.template_payload, customer);
        const now = clock.now().toISOString();
        const message = {
          id: ids.newId('msg'),
          company_uuid: company.uuid,
          campaign_id: campaign.id,
          customer_id: customer.id,
          phone_number: customer.phoneNumber,
          run_key: runKey,
          status: 'pending' as const,
          error: null,
          provider_message_id: null,
          variables: template.variables,
          created_at: now,
          updated_at: now,
        };
        // Recorded before it is sent: whoever inserts it is the only one who sends it.
        if (!(await store.insertMessage(message))) continue;
        const result = await channel
          .send({ to: customer.phoneNumber, template, key: `${campaign.id}:${runKey}:${customer.id}` })
          .catch((e: Error) => ({ status: 'failed' as const, providerMessageId: null, error: `the channel failed: ${e.message}` }));
        await store.updateMessage(
          message.id,
          { status: result.status, error: result.error, provider_message_id: result.providerMessageId },
          clock.now().toISOString(),
        );
        if (result.status === 'failed') failed++;
        else sent++;
      }
      if (!(await store.extendCampaignClaim(campaign.id, claimToken, lease()))) {
        logger.warn({ campaign: campaign.id, runKey }, 'campaign run lost its claim; another instance resumes it');
        return;
      }
      if (items.length < pageSize) break;
    }

    const now = clock.now();
    const next =
      campaign.schedule_type === 'recurring' && campaign.days
        ? nextRecurringRun(campaign.days, company.timezone, new Date(Math.max(now.getTime(), Date.parse(runKey) + 1)))
        : null;
    const allFailed = failed > 0 && sent === 0;
    const finished = await store.finishCampaignRun(
      campaign.id,
      claimToken,
      next
        ? { status: 'scheduled', next_run_at: next.toISOString(), endDate: null }
        : { status: allFailed ? 'failed' : 'completed', next_run_at: null, endDate: now.toISOString().slice(0, 10) },
      now.toISOString(),
    );
    logger.info({ campaign: campaign.id, runKey, sent, failed, next: next?.toISOString() ?? null, finished }, 'campaign run finished');
  }

  async function tick(): Promise<number> {
    let finished = 0;
    for (;;) {
      const now = clock.now();
      const claimed = await store.claimDueCampaigns({ now: now.toISOString(), leaseUntil: lease(), claimToken, limit: 5 });
      if (claimed.length === 0) return finished;
      for (const campaign of claimed) {
        if (stopping) {
          await store.finishCampaignRun(
            campaign.id,
            claimToken,
            { status: 'scheduled', next_run_at: campaign.next_run_at, endDate: null },
            clock.now().toISOString(),
          );
          continue;
        }
        await run(campaign).catch((err) => logger.error({ err, campaign: campaign.id }, 'campaign run failed; it is retried when its lease runs out'));
        finished++;
      }
    }
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(() => {
      current = tick()
        .catch((err) => logger.error({ err }, 'scheduler tick failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref?.();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      await current;
    },
    tick,
  };
}
