import { type Clock, systemClock } from '../clock.ts';
import { applyDueStatuses, type RetrySettings, type RunContext, runChunk, startDueRuns } from '../domain/campaign-runs.ts';
import type { ChannelAdapter } from '../domain/channel.ts';
import { applyKeptStatuses, DEFAULT_STATUS_RETENTION_MS } from '../domain/channel-statuses.ts';
import { createRandomIds, type IdGenerator } from '../ids.ts';
import { createLeases, type Leases } from '../leases.ts';
import { type Logger, silentLogger } from '../logger.ts';
import type { RuntimeObserver } from '../observer.ts';
import type { Store } from '../store/ports.ts';
import type { ClaimedChunk } from '../store/types.ts';

/** Options of the campaign scheduler; every one has a default but the store and the channel. */
export interface SchedulerOptions {
  store: Store;
  channel: ChannelAdapter;
  clock?: Clock;
  logger?: Logger;
  ids?: IdGenerator;
  /** How often due campaigns and chunks are looked for (SCHEDULER_INTERVAL_MS). Default 1000. */
  intervalMs?: number;
  /** The instance's leases, which the chunks it runs are held under. Default: leases of its own (renewed while it runs). */
  leases?: Leases;
  /** Customers a chunk of a run (CAMPAIGN_CHUNK_SIZE). Default 1000. */
  chunkSize?: number;
  /** Chunks this instance runs at once (CAMPAIGN_CHUNK_CONCURRENCY). Default 4. */
  concurrency?: number;
  /** How a send the provider refused for now is tried again (WHATSAPP_RETRY_BASE_MS, WHATSAPP_MAX_ATTEMPTS). Default `RETRY_DEFAULTS`. */
  retry?: RetrySettings;
  /** How long a provider's status that finds no message is kept for one that may come (WHATSAPP_STATUS_RETENTION_HOURS). Default 7 days (`DEFAULT_STATUS_RETENTION_MS`). */
  statusRetentionMs?: number;
  /** Hears of runs started and ended, chunks taken over, messages recorded and pauses. */
  observer?: RuntimeObserver | undefined;
}

/** The scheduler: starts due campaigns' runs and runs their chunks, shared with every instance on the database. */
export interface Scheduler {
  start(): void;
  /** Stops looking for work; chunks under way hand themselves back at their next slice. */
  stop(): Promise<void>;
  /**
   * Applies the provider statuses due (the channel's own, and kept ones whose message is now known),
   * then starts the runs due now and runs chunks (up to `concurrency` at once) until none is left to
   * claim; resolves to the number of chunks this instance finished.
   */
  tick(): Promise<number>;
}

/**
 * Creates the campaign scheduler. Any instance starts a due campaign's run (planning its chunks); every
 * instance claims chunks under its lease and runs up to `concurrency` at once, so campaigns due together
 * start together and one big campaign is sent by every instance (domain/campaign-runs.ts).
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store, channel } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const intervalMs = options.intervalMs ?? 1000;
  const chunkSize = options.chunkSize ?? 1000;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const statusRetentionMs = options.statusRetentionMs ?? DEFAULT_STATUS_RETENTION_MS;
  const ownLeases = options.leases === undefined;
  const leases = options.leases ?? createLeases({ store, clock, logger });

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let stopping = false;
  let current: Promise<unknown> = Promise.resolve();
  const run: RunContext = {
    store,
    channel,
    clock,
    ids: options.ids ?? createRandomIds(),
    logger,
    leases,
    stopping: () => stopping,
    ...(options.retry && { retry: options.retry }),
    ...(options.observer && { observer: options.observer }),
  };

  /** Runs a claimed chunk; a failure leaves it to be taken over when its lease runs out. */
  async function runOne(chunk: ClaimedChunk): Promise<boolean> {
    try {
      const outcome = await runChunk(run, chunk);
      if (outcome === 'lost') logger.warn({ campaign: chunk.campaign_id, chunk: chunk.id }, 'campaign chunk lost its lease; another instance runs it');
      return outcome === 'done';
    } catch (err) {
      logger.error({ err, campaign: chunk.campaign_id, chunk: chunk.id }, 'campaign chunk failed; it is taken over when its lease runs out');
      return false;
    }
  }

  /** The statuses due: a failure is logged and left for the next tick. */
  async function applyStatuses(): Promise<void> {
    try {
      await applyDueStatuses(run);
      await applyKeptStatuses(store, clock.now(), statusRetentionMs);
    } catch (err) {
      logger.error({ err }, 'applying channel statuses failed; they are tried again on the next tick');
    }
  }

  async function tick(): Promise<number> {
    await applyStatuses();
    let finished = 0;
    const active = new Set<Promise<void>>();
    for (;;) {
      if (!stopping) {
        const started = await startDueRuns(run, concurrency, chunkSize);
        if (started.length > 0) options.observer?.runsStarted?.(started.length);
      }
      const room = stopping ? 0 : concurrency - active.size;
      const claimed =
        room > 0 ? await store.claimChunks({ now: clock.now().toISOString(), leaseUntil: leases.until(), claimToken: leases.claimToken, limit: room }) : [];
      const takenOver = claimed.filter((chunk) => chunk.taken_over).length;
      if (takenOver > 0) options.observer?.takenOver?.('campaign_chunk', takenOver);
      for (const chunk of claimed) {
        const work: Promise<void> = runOne(chunk).then((done) => {
          if (done) finished++;
          active.delete(work);
        });
        active.add(work);
      }
      if (active.size === 0) return finished;
      // A chunk that ends makes room for the next (or for a run that fell due meanwhile).
      await Promise.race(active);
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
      stopping = false;
      if (ownLeases) leases.start();
      schedule();
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      await current;
      if (ownLeases) leases.stop();
    },
    tick,
  };
}
