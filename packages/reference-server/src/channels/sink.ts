import type { ChannelStatus, Clock, Logger, Store, TemplateStatusUpdate } from '@engagekit/runtime';

/** Where a channel's later reports go: message statuses and template reviews, applied to the store. */
export interface ChannelSink {
  /** Applies every status of one notification together. */
  applyStatuses(statuses: ChannelStatus[]): Promise<void>;
  applyTemplateUpdates(updates: TemplateStatusUpdate[]): Promise<void>;
}

/**
 * The one place the server hands a channel's reports to the runtime's domain (`applyChannelStatuses`
 * and `applyTemplateStatus`, with `clock`'s time). Until the runtime has them, it logs what it is given
 * and accepts it, so the provider does not retry.
 */
export function channelSink(_store: Store, _clock: Clock, logger: Logger): ChannelSink {
  return {
    async applyStatuses(statuses) {
      logger.info({ statuses: statuses.length }, 'channel statuses received; not applied: the runtime does not apply them yet');
    },
    async applyTemplateUpdates(updates) {
      logger.info({ updates: updates.length }, 'template status updates received; not applied: the runtime does not apply them yet');
    },
  };
}
