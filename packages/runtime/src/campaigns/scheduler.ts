import { type Clock, systemClock } from '../clock.ts';
import { type Logger, silentLogger } from '../context.ts';
import { claimDueCampaigns, type RunContext, runCampaign } from '../domain/campaigns.ts';
import type { ChannelAdapter } from '../domain/channel.ts';
import { createRandomIds, type IdGenerator } from '../ids.ts';
import type { Store } from '../store/types.ts';

/** Options of the campaign scheduler; every one has a default but the store and the channel. */
export interface SchedulerOptions {
  store: Store;
  channel: ChannelAdapter;
  clock?: Clock;
  logger?: Logger;
  ids?: IdGenerator;
  /** How often due campaigns are looked for (SCHEDULER_INTERVAL_MS). Default 1000. */
  intervalMs?: number;
  /**
   * How long a claim holds before another instance (or this server, restarted after a crash) may resume
   * the run; renewed every third of it while the run goes. Default 10 s.
   */
  leaseMs?: number;
  /**
   * Customers read a page at a time. Default 1000: each page is a read that skips the pages before it,
   * and with a channel that takes a page in flight, two writes (the campaigns.send.rate row).
   */
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

/**
 * Creates the campaign scheduler: it claims due campaigns with a lease (domain/campaigns.ts says which
 * are due and how a run goes) and runs them, so each due time runs once across every instance.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, channel } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const ids = options.ids ?? createRandomIds();
  const intervalMs = options.intervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? 10_000;
  const claimToken = `sch_${crypto.randomUUID()}`;
  const lease = () => new Date(clock.now().getTime() + leaseMs);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopping = false;
  let current: Promise<unknown> = Promise.resolve();
  const run: RunContext = {
    store,
    channel,
    clock,
    ids,
    logger,
    claimToken,
    leaseUntil: () => lease().toISOString(),
    renewEveryMs: leaseMs / 3,
    pageSize: options.pageSize ?? 1000,
    stopping: () => stopping,
  };

  async function tick(): Promise<number> {
    let finished = 0;
    for (;;) {
      const now = clock.now();
      const claimed = await claimDueCampaigns(store, { now, leaseUntil: lease(), claimToken, limit: 5 });
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
        // One that waited behind a long run in this batch may have lost its lease to another instance meanwhile.
        if (!(await store.extendCampaignClaim(campaign.id, claimToken, lease().toISOString()))) continue;
        await runCampaign(run, campaign).catch((err) =>
          logger.error({ err, campaign: campaign.id }, 'campaign run failed; it is retried when its lease runs out'),
        );
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
