/**
 * What the runtime tells whoever watches it as it works: the reference server turns these into its
 * Prometheus metrics. Every method is optional and called synchronously at the point it names; it
 * must not throw, and the runtime neither waits for it nor depends on any metrics library.
 */
import type { AttemptOutcome, MessageDeferral, MessageOutcome } from './store/types.ts';

/** How a campaign run ended: `completed` (a recurring campaign's run too), or `failed` (every message failed, or the provider refused the configuration). */
export type RunEnd = 'completed' | 'failed';

/**
 * Work an instance holds under its lease, which another takes over once that lease runs out: a chunk
 * of a campaign run, or a webhook delivery.
 */
export type LeasedWork = 'campaign_chunk' | 'webhook_delivery';

/** Hooks the runtime calls as it works; `RuntimeOptions.observer`. */
export interface RuntimeObserver {
  /** A webhook attempt was answered (or not): its outcome and how long it took, in seconds. */
  webhookAttempt?(attempt: { outcome: AttemptOutcome['status']; seconds: number }): void;
  /** Campaign runs this instance started (their chunks planned). */
  runsStarted?(count: number): void;
  /** A campaign run ended: by the instance that finished its last chunk, or that failed it on a refusal of the configuration. */
  runEnded?(end: RunEnd): void;
  /** The campaign was paused on a provider's refusal. */
  campaignPaused?(): void;
  /**
   * A claim took `count` (more than 0) pieces of `work` that an instance whose lease ran out held: it
   * died, or stopped, holding them (`ClaimedChunk.taken_over`, `ClaimedDelivery.taken_over`).
   */
  takenOver?(work: LeasedWork, count: number): void;
  /** A slice of sends was recorded: the outcomes written, and the messages put back to wait (a retry or a pause). */
  messagesRecorded?(outcomes: readonly MessageOutcome[], deferrals: readonly MessageDeferral[]): void;
  /** The instance's leases were renewed, or the renewal failed. */
  leaseRenewal?(ok: boolean): void;
  /** A request was answered 503 `database_unavailable`. */
  databaseUnavailable?(): void;
  /**
   * The trace a request's writes are part of, as a W3C `traceparent`, or null: kept with the webhook
   * deliveries it queues, so a delivery made later, by any instance, links to it. Called during the request.
   */
  traceContext?(): string | null;
}
