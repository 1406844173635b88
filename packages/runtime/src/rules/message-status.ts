/**
 * How a message's status moves: forward only, whatever order the provider's statuses come in. The
 * funnel is sent < delivered < read. A failure the provider reported (it carries the provider's id of
 * the message) is final, unless the message had already been delivered; a failure recorded without
 * the provider's word (no answer, an error answer, a hand-off interrupted by a crash) is corrected by
 * any later status from the provider, which shows it had the message after all.
 *
 * The memory store calls these; the SQL store writes the same ranks in its statements
 * (`store/sql/campaign-runs.ts`), and the store conformance suite pins both.
 */
import type { MessageRecord } from '../store/types.ts';

/** What a message's standing depends on: its status and whether the provider named it. */
export type MessageStanding = Pick<MessageRecord, 'status' | 'provider_message_id'>;

/** How far along a message is: a status moves it only to a higher rank. */
export function standingRank({ status, provider_message_id }: MessageStanding): number {
  switch (status) {
    case 'pending':
      return 0;
    case 'sending':
      return 2;
    case 'failed':
      return provider_message_id === null ? 3 : 10;
    case 'sent':
      return 4;
    case 'delivered':
      return 6;
    case 'read':
      return 8;
  }
}

/**
 * The rank a message must be below for `next` to move it. A status's own rank, except a failure the
 * provider reported: it overrides `sent` (and an unanswered or interrupted hand-off) but never a
 * delivery or a read.
 */
export function advanceBar(next: MessageStanding): number {
  return next.status === 'failed' && next.provider_message_id !== null ? 5 : standingRank(next);
}

/** Whether `next` moves a message that stands at `current`. */
export function advances(current: MessageStanding, next: MessageStanding): boolean {
  return standingRank(current) < advanceBar(next);
}

/**
 * Whether `next` repeats what a message standing at `current` already holds by the provider's word:
 * the `delivered` or `read` it stands at, or a failure of a message the provider has failed already. A
 * `sent` never does: the send's answer records `sent` before the provider's own comes, so its first
 * would look like a repeat.
 */
export function repeats(current: MessageStanding, next: MessageStanding): boolean {
  if (next.status === 'sent' || next.status !== current.status) return false;
  return next.status !== 'failed' || current.provider_message_id !== null;
}
