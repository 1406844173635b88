import { type Clock, systemClock } from '../clock.ts';
import type { RenderedTemplate } from './render.ts';
import type { SendFailure } from './send-failures.ts';

/** One template message to one phone number. */
export interface OutboundMessage {
  /** E.164 phone number. */
  to: string;
  template: RenderedTemplate;
  /** Stable for the (campaign, run, customer): adapters may use it to deduplicate. */
  key: string;
  /**
   * The message's own id. A provider that echoes data back on its statuses is given it (WhatsApp's
   * `biz_opaque_callback_data`), so a status finds its message even before the send's answer is stored.
   */
  messageId: string;
  /** The campaign, its run (the due time, ISO) and the customer the message is for. */
  campaignId: string;
  runKey: string;
  customerId: string;
}

/** What the channel said about a message. */
export interface SendResult {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  providerMessageId: string | null;
  error: string | null;
  /** A failure's provider error code (WhatsApp's `error.code`); null or absent when the provider gave none. */
  errorCode?: number | null;
  /**
   * How a failure came about, for its class (`classifySendFailure`, `domain/send-failures.ts`): the
   * answer's HTTP status, or none and whether the request may have reached the provider. Absent: the
   * message failed for itself.
   */
  failure?: SendFailure;
  /** The answer's `Retry-After`, in ms, when it gave one. */
  retryAfterMs?: number | null;
}

/**
 * A status the provider reported later for a message it accepted: WhatsApp's status webhooks, or the
 * simulated channel's. Every channel's statuses are applied by `applyChannelStatuses`
 * (`domain/channel-statuses.ts`).
 */
export interface ChannelStatus {
  /** The provider's id of the message (WhatsApp's wamid). */
  providerMessageId: string;
  /** The message's own id, when the provider echoed it (`biz_opaque_callback_data`); null otherwise. */
  messageId: string | null;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When the provider says it happened (ISO-8601). */
  at: string;
  /** A failure's provider error: its code and title. Null for the other statuses. */
  error: { code: number; title: string } | null;
}

/** A template's status as the provider reported it (WhatsApp's `message_template_status_update`). */
export interface TemplateStatusUpdate {
  /** The provider's template id: the `wam_id` a template was submitted with. */
  wamId: string;
  /** The provider's event as sent, upper case: APPROVED, REJECTED, PENDING, PAUSED, DISABLED, FLAGGED, REINSTATED... */
  event: string;
  /** The provider's reason, when it gave one (a rejection's, a flag's). */
  reason: string | null;
}

/** A messaging channel: the simulated one by default, WhatsApp Cloud API for real. */
export interface ChannelAdapter {
  readonly name: string;
  /**
   * How many messages a campaign run may have recorded and not yet answered at once: it records that
   * many in one write, sends them together, and records their outcomes in one write. A channel that
   * reaches people keeps this at 1 (the default), so a crash leaves at most one message in flight.
   * The simulated channel, which reaches nobody, takes a whole chunk at a time.
   */
  readonly inFlight?: number;
  /**
   * Whether `send` hands a message to a provider outside this process, which may reach a person
   * before the answer comes back (default true). Such a message is marked `sending` first; a run taken
   * over after a crash marks it failed (interrupted) rather than send it twice, and sends every message
   * that was recorded but never handed over. A channel that reaches nobody (the simulated one) says
   * false: after a crash its unanswered messages are simply sent.
   */
  readonly external?: boolean;
  send(message: OutboundMessage): Promise<SendResult>;
  /**
   * A channel that reports its messages' later statuses itself (the simulated one), rather than through
   * a webhook: takes the statuses due by `now`, each once. The scheduler applies them after each send
   * and on every tick.
   */
  takeStatuses?(now: Date): ChannelStatus[];
  /** When the next status `takeStatuses` holds falls due; null when it holds none. */
  nextStatusDue?(): Date | null;
}

/** FNV-1a over a string, to a float in [0, 1). */
function unitHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

/** What becomes of a simulated message, fixed by its key: `failureRate` fail; of the rest, 60% are read, 25% delivered and 15% only sent. */
export function simulatedFate(key: string, failureRate: number): SendResult['status'] {
  const u = unitHash(key);
  if (u < failureRate) return 'failed';
  const v = (u - failureRate) / (1 - failureRate);
  return v < 0.6 ? 'read' : v < 0.85 ? 'delivered' : 'sent';
}

/** The provider message id the simulated channel gives a message, fixed by its key. */
export const simulatedMessageId = (key: string) => `sim_${Math.floor(unitHash(key) * 2 ** 32).toString(36)}`;

/** The error a simulated failure reports: WhatsApp's for a number it cannot deliver to. */
export const SIMULATED_FAILURE = { code: 131026, title: 'Message undeliverable' } as const;

/** Options of the simulated channel. */
export interface SimulatedChannelOptions {
  /** The share of messages that fail (0 to 1). Default 0.05. */
  failureRate?: number;
  /** How long each send takes, as a provider's answer would. Default 0. */
  latencyMs?: number;
  /**
   * How long after a send its statuses come, as a provider's webhooks would: `delivered` (and a failure)
   * after `deliveredMs`, `read` after `readMs`. A read that comes no later than the delivery comes alone,
   * as WhatsApp's does. Default 0 for both: they come at once, before the run goes on.
   */
  statusDelays?: { deliveredMs?: number; readMs?: number };
  /** The clock the delays run on. Default: the system clock. */
  clock?: Clock;
  /**
   * What becomes of a message, instead of its key's simulated fate (`simulatedFate` at `failureRate`,
   * failing with `SIMULATED_FAILURE`): the mock's outcomes set for a number come in this way.
   */
  fateOf?: (message: OutboundMessage) => { status: SendResult['status']; error?: { code: number; title: string } };
}

/** A status waiting for its time. */
interface Due {
  at: number;
  status: ChannelStatus;
}

/**
 * A channel that reaches nobody and answers like a provider: every message is accepted (`sent`), and its
 * fate, fixed by its key (`simulatedFate`), comes later as statuses: `failureRate` of messages fail; of
 * the rest, 60% are read, 25% delivered and 15% only sent. They come through `takeStatuses`, which the
 * scheduler applies as it applies WhatsApp's.
 */
export function createSimulatedChannel(opts: SimulatedChannelOptions = {}): ChannelAdapter {
  const failureRate = opts.failureRate ?? 0.05;
  const latencyMs = opts.latencyMs ?? 0;
  const clock = opts.clock ?? systemClock;
  const deliveredMs = opts.statusDelays?.deliveredMs ?? 0;
  const readMs = opts.statusDelays?.readMs ?? 0;
  const fateOf: NonNullable<SimulatedChannelOptions['fateOf']> = opts.fateOf ?? ((message) => ({ status: simulatedFate(message.key, failureRate) }));
  // Two queues, each in due order since each has one delay: deliveries and failures, and reads.
  const deliveries: Due[] = [];
  const reads: Due[] = [];
  const take = (queue: Due[], now: number, into: ChannelStatus[]) => {
    while (queue.length > 0 && (queue[0] as Due).at <= now) into.push((queue.shift() as Due).status);
  };
  return {
    name: 'simulated',
    // It reaches nobody: a run records a page of its messages per write (the campaigns.send.rate row;
    // one message per write would be two commits a message, so a disk's commit time would bound the rate).
    inFlight: Number.POSITIVE_INFINITY,
    external: false,
    async send(message) {
      if (latencyMs > 0) await new Promise((ok) => setTimeout(ok, latencyMs));
      const providerMessageId = simulatedMessageId(message.key);
      const { status: fate, error = SIMULATED_FAILURE } = fateOf(message);
      const sentAt = clock.now().getTime();
      const status = (status: ChannelStatus['status'], after: number): Due => ({
        // With no delay a status is due at once, whatever clock takes it (a test's scheduler may run on its own).
        at: after === 0 ? Number.NEGATIVE_INFINITY : sentAt + after,
        status: {
          providerMessageId,
          messageId: message.messageId,
          status,
          at: new Date(sentAt + after).toISOString(),
          error: status === 'failed' ? { ...error } : null,
        },
      });
      if (fate === 'failed') deliveries.push(status('failed', deliveredMs));
      if (fate === 'delivered' || (fate === 'read' && readMs > deliveredMs)) deliveries.push(status('delivered', deliveredMs));
      if (fate === 'read') reads.push(status('read', readMs));
      return { status: 'sent', providerMessageId, error: null };
    },
    takeStatuses(now) {
      const due: ChannelStatus[] = [];
      take(deliveries, now.getTime(), due);
      take(reads, now.getTime(), due);
      return due;
    },
    nextStatusDue() {
      const next = Math.min(deliveries[0]?.at ?? Number.POSITIVE_INFINITY, reads[0]?.at ?? Number.POSITIVE_INFINITY);
      return next === Number.POSITIVE_INFINITY ? null : new Date(Math.max(next, 0));
    },
  };
}
