import type { RenderedTemplate } from './render.ts';

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

/**
 * A channel that sends nothing and answers deterministically from the message key: `failureRate` of
 * messages fail; of the rest, 60% are read, 25% delivered and 15% only sent. The same key always
 * gets the same outcome. `latencyMs` makes each send take that long, as a provider's answer would.
 */
export function createSimulatedChannel(opts: { failureRate?: number; latencyMs?: number } = {}): ChannelAdapter {
  const failureRate = opts.failureRate ?? 0.05;
  const latencyMs = opts.latencyMs ?? 0;
  return {
    name: 'simulated',
    // It reaches nobody: a run records a page of its messages per write (the campaigns.send.rate row;
    // one message per write would be two commits a message, so a disk's commit time would bound the rate).
    inFlight: Number.POSITIVE_INFINITY,
    external: false,
    async send(message) {
      if (latencyMs > 0) await new Promise((ok) => setTimeout(ok, latencyMs));
      const u = unitHash(message.key);
      const id = `sim_${Math.floor(u * 2 ** 32).toString(36)}`;
      if (u < failureRate) return { status: 'failed', providerMessageId: null, error: 'simulated failure: the number is not on WhatsApp' };
      const v = (u - failureRate) / (1 - failureRate);
      return { status: v < 0.6 ? 'read' : v < 0.85 ? 'delivered' : 'sent', providerMessageId: id, error: null };
    },
  };
}
