/**
 * A provider's statuses of the messages it accepted: delivered, read, or failed after all. WhatsApp
 * reports them by webhook (the reference server's `/channels/whatsapp/webhook`), the simulated channel
 * from its own timers; both come here. A status moves its message only forward (`rules/message-status.ts`),
 * so duplicates and late, older statuses change nothing, and a `read` without a `delivered` counts as
 * both. A status whose message is not known yet (it came before the send's answer was stored) is kept,
 * and applied once its message has the provider's id, unless it expires first.
 */
import { advanceBar, advances } from '../rules/message-status.ts';
import type { Store } from '../store/ports.ts';
import type { MessageOutcome, StatusWrite } from '../store/types.ts';
import type { ChannelStatus } from './channel.ts';

/** How long a status that finds no message is kept by default: WhatsApp retries a webhook for 7 days. */
export const DEFAULT_STATUS_RETENTION_MS = 7 * 24 * 3600_000;

/** What applying statuses came to. */
export interface StatusesApplied {
  /** Statuses that found their message (whether or not they moved it), once each of a message. */
  matched: number;
  /** Statuses kept for a message not known yet. */
  kept: number;
  /**
   * Statuses received again: the same status of the same message given twice in the batch, or one its
   * message already held from an earlier write (`repeats` in rules/message-status.ts; a `sent` is not
   * told apart from the send's answer, so only a `sent` twice in the batch counts).
   */
  repeated: number;
}

/** The store's form of a provider's status. */
function statusWrite(status: ChannelStatus): StatusWrite {
  return {
    message_id: status.messageId,
    provider_message_id: status.providerMessageId,
    status: status.status,
    error: status.status === 'failed' ? (status.error?.title ?? 'failed: the provider gave no reason') : null,
    error_code: status.status === 'failed' ? (status.error?.code ?? null) : null,
  };
}

/** The message a status is of: its own id, or the provider's when it names none. */
const messageKey = (status: ChannelStatus) => status.messageId ?? `wamid:${status.providerMessageId}`;

/** Of several statuses of one message, the one that moves it furthest: a batch is one write per message. */
function furthestPerMessage(statuses: readonly ChannelStatus[]): ChannelStatus[] {
  const best = new Map<string, ChannelStatus>();
  const bar = (s: ChannelStatus) => advanceBar({ status: s.status, provider_message_id: s.providerMessageId });
  for (const status of statuses) {
    const key = messageKey(status);
    const seen = best.get(key);
    if (!seen || bar(status) > bar(seen)) best.set(key, status);
  }
  return [...best.values()];
}

/** The first of each message's statuses, once each: what a batch gives again is a repeat. */
function oncePerStatus(statuses: readonly ChannelStatus[]): ChannelStatus[] {
  const seen = new Set<string>();
  return statuses.filter((status) => {
    const key = `${messageKey(status)}\u0000${status.status}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Folds the statuses a channel already has for messages of a slice being recorded (the simulated
 * channel's, with no delay) into the slice's outcomes, so that one write stores both (bench row
 * `campaigns.send.rate`: a second write of the same messages cost a third of the rate). A status moves
 * its outcome only where `advances` allows, the rule `applyChannelStatuses` applies, and of several the
 * furthest wins; the statuses of other messages are returned, to be applied as usual.
 */
export function foldStatuses(outcomes: readonly MessageOutcome[], statuses: readonly ChannelStatus[]): { outcomes: MessageOutcome[]; rest: ChannelStatus[] } {
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  const rest: ChannelStatus[] = [];
  for (const status of furthestPerMessage(statuses)) {
    const outcome = status.messageId === null ? undefined : byId.get(status.messageId);
    if (!outcome) {
      rest.push(status);
      continue;
    }
    const write = statusWrite(status);
    if (advances(outcome, write)) {
      byId.set(outcome.id, {
        id: outcome.id,
        status: write.status,
        error: write.error,
        error_code: write.error_code,
        provider_message_id: write.provider_message_id,
      });
    }
  }
  return { outcomes: [...byId.values()], rest };
}

/**
 * Applies a provider's statuses: each moves its message forward, or is kept when no message is known
 * by it yet. Once this resolves they are stored (the webhook answers 200 then). It tells how many
 * were repeats: given twice here, or held by their message already (the store judges those, against
 * the messages as they stood before its write, whichever instance wrote them).
 *
 * No transaction holds the two writes together, and none is needed: applying is idempotent (a status
 * moves its message forward only), so when keeping fails after the statuses were applied, the
 * provider's retry of the notification applies them again, changing nothing, and keeps what it must.
 * A batch that keeps nothing is then one statement, not three (bench row `channel.statuses.ingest`).
 */
export async function applyChannelStatuses(
  store: Store,
  statuses: readonly ChannelStatus[],
  newId: (prefix: string) => string,
  now: string,
): Promise<StatusesApplied> {
  if (statuses.length === 0) return { matched: 0, kept: 0, repeated: 0 };
  // The store moves each message by the furthest of its statuses, and tells which of them all it held already.
  const once = oncePerStatus(statuses);
  const written = await store.applyStatuses(once.map(statusWrite), now);
  const unmatched = furthestPerMessage(once.filter((_, i) => !written.found[i]));
  if (unmatched.length > 0) await store.keepStatuses(unmatched.map((s) => ({ ...statusWrite(s), id: newId('sts'), at: s.at, received_at: now })));
  const matched = new Set(once.filter((_, i) => written.found[i]).map(messageKey)).size;
  return { matched, kept: unmatched.length, repeated: statuses.length - once.length + written.repeated };
}

/**
 * Applies kept statuses whose message is now known (up to `limit` a call), and forgets those kept for
 * longer than `retentionMs`. Returns how many it applied. The scheduler calls it on every tick.
 */
export async function applyKeptStatuses(store: Store, now: Date, retentionMs: number, limit = 500): Promise<number> {
  const kept = await store.matchedKeptStatuses(limit);
  if (kept.length > 0) {
    await store.transaction(async (tx) => {
      await tx.applyStatuses(
        kept.map(({ id: _id, at: _at, received_at: _received, ...write }) => write),
        now.toISOString(),
      );
      await tx.dropKeptStatuses(kept.map((k) => k.id));
    });
  }
  await store.expireKeptStatuses(new Date(now.getTime() - retentionMs).toISOString());
  return kept.length;
}
