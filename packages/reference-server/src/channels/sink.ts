import {
  applyChannelStatuses,
  applyTemplateStatus,
  type ChannelStatus,
  type Clock,
  createRandomIds,
  type Logger,
  type Store,
  type TemplateStatusUpdate,
} from '@engagekit/runtime';
import { coalesceWrites } from './coalesce.ts';

/** Where a channel's later reports go: message statuses and template reviews, applied to the store. */
export interface ChannelSink {
  /** Applies every status of one notification together. */
  applyStatuses(statuses: ChannelStatus[]): Promise<void>;
  applyTemplateUpdates(updates: TemplateStatusUpdate[]): Promise<void>;
}

/** Hears of the statuses of each write once they are stored: with the write's time, and how many of them were repeats (the metrics). */
export type StatusesReceived = (statuses: readonly ChannelStatus[], now: Date, repeated: number) => void;

/**
 * The one place the server hands a channel's reports to the runtime's domain (`applyChannelStatuses`
 * and `applyTemplateStatus`, with `clock`'s time). Each resolves once what it was given is stored.
 * `received` hears of the statuses of each write once they are stored (`StatusesReceived`).
 */
export function channelSink(store: Store, clock: Clock, logger: Logger, received?: StatusesReceived): ChannelSink {
  const ids = createRandomIds();
  // Webhooks that arrive together are applied in one write (coalesce.ts).
  const applyStatuses = coalesceWrites<ChannelStatus>(async (statuses) => {
    const now = clock.now();
    const applied = await applyChannelStatuses(store, statuses, ids.newId, now.toISOString());
    received?.(statuses, now, applied.repeated);
    if (applied.kept > 0) logger.info({ kept: applied.kept }, 'channel statuses kept: no message has their provider id yet');
  });
  return {
    applyStatuses,
    async applyTemplateUpdates(updates) {
      for (const update of updates) {
        const moved = await applyTemplateStatus(store, update, clock.now().toISOString());
        if (moved === 0)
          logger.info(
            { wamId: update.wamId, event: update.event },
            'template status update for no submitted template (kept for its submission), or an event that changes nothing',
          );
      }
    },
  };
}
