import {
  type ChannelAdapter,
  type Clock,
  copy,
  createSimulatedChannel,
  type OutboundMessage,
  type SendResult,
  SIMULATED_FAILURE,
  simulatedFate,
  simulatedMessageId,
} from '@engagekit/runtime';

// Copies are made by `copy`, which builds plain objects and arrays itself rather than by structuredClone:
// a test runner that loads modules in a realm of its own (Jest) then gets arrays and objects of its
// realm, which strict equality needs.

/** What the channel answers for a message. */
export type MessageOutcome = SendResult['status'];

const OUTCOMES: readonly MessageOutcome[] = ['sent', 'delivered', 'read', 'failed'];

/** A message a campaign sent through the mock's channel. */
export interface MockMessage {
  campaignId: string;
  /** The campaign's due time this run was for (ISO-8601). */
  runKey: string;
  customerId: string;
  /** The customer's phone number. */
  to: string;
  /** The template as rendered for this customer. */
  template: { name: string; language: string; header: string[]; body: string[]; cards: { image_url: string; body: string[] }[] };
  /** Every variable by name, as rendered for this customer. */
  variables: Record<string, string>;
  status: MessageOutcome;
  error: string | null;
  providerMessageId: string | null;
  /** When it was sent, on the mock's clock. */
  at: string;
}

/** What the channel holds: the outcomes set and the messages sent. */
export interface ChannelState {
  outcomes: [string, { status: MessageOutcome; reason: string | undefined }][];
  log: MockMessage[];
}

/** How the mock's channel reports: at once in the answer (the default), or later, as the clock passes the delays. */
export interface MockChannelOptions {
  /**
   * Report like a provider: every message is answered `sent`, and its delivered, read or failed status
   * comes `deliveredMs` (a failure too) or `readMs` later on the mock's clock, applied as the server
   * applies WhatsApp's. Without it, a message's outcome is in the channel's answer, as before.
   */
  statusDelays?: { deliveredMs?: number; readMs?: number };
}

/**
 * The mock's messaging channel: the server's simulated channel (outcomes fixed by each message's key,
 * so the same under the same `seed`), unless an outcome was set for the number or for every number
 * (`'*'`). It keeps what it sent, for `mock.messages()`.
 */
export function createMockChannel(clock: Clock, from?: ChannelState, options: MockChannelOptions = {}) {
  const outcomes = new Map<string, { status: MessageOutcome; reason: string | undefined }>((from?.outcomes ?? []).map(([phone, o]) => [phone, { ...o }]));
  const log: MockMessage[] = copy(from?.log ?? []);
  /** What becomes of a message: the outcome set for its number, else its key's simulated fate (5% fail). */
  const fateOf = (message: OutboundMessage): { status: MessageOutcome; error?: { code: number; title: string } } => {
    const set = outcomes.get(message.to) ?? outcomes.get('*');
    const status = set?.status ?? simulatedFate(message.key, 0.05);
    if (status !== 'failed') return { status };
    return { status, error: set ? { code: SIMULATED_FAILURE.code, title: set.reason ?? 'failed: the outcome set on the mock' } : { ...SIMULATED_FAILURE } };
  };
  // With statusDelays: the server's simulated channel, deciding by fateOf, reporting later.
  const later = options.statusDelays ? createSimulatedChannel({ clock, statusDelays: options.statusDelays, fateOf }) : undefined;
  /** The log's entry of each message whose statuses may still come (until its read or failure). */
  const awaiting = new Map<string, MockMessage>();

  /** The answer with the message's outcome in it. */
  const answerAtOnce = (message: OutboundMessage): SendResult => {
    const { status, error } = fateOf(message);
    return status === 'failed'
      ? { status, providerMessageId: null, error: error?.title ?? null, errorCode: error?.code ?? null }
      : { status, providerMessageId: simulatedMessageId(message.key), error: null };
  };

  const channel: ChannelAdapter = {
    name: 'mock',
    // It reaches nobody: a run taken over sends its unanswered messages rather than fail them.
    external: false,
    async send(message) {
      const result = later ? await later.send(message) : answerAtOnce(message);
      const { variables, ...template } = message.template;
      const entry: MockMessage = {
        campaignId: message.campaignId,
        runKey: message.runKey,
        customerId: message.customerId,
        to: message.to,
        template,
        variables,
        status: result.status,
        error: result.error,
        providerMessageId: result.providerMessageId,
        at: clock.now().toISOString(),
      };
      log.push(entry);
      if (later) awaiting.set(message.messageId, entry);
      return result;
    },
    ...(later && {
      takeStatuses(now: Date) {
        const due = later.takeStatuses?.(now) ?? [];
        for (const status of due) {
          const entry = status.messageId === null ? undefined : awaiting.get(status.messageId);
          if (!entry) continue;
          entry.status = status.status;
          entry.error = status.error?.title ?? null;
          // Nothing follows a read or a failure.
          if (status.status === 'read' || status.status === 'failed') awaiting.delete(status.messageId as string);
        }
        return due;
      },
      nextStatusDue: () => later.nextStatusDue?.() ?? null,
    }),
  };

  return {
    channel,
    /**
     * Sets what the channel answers for messages to `phoneNumber` (or, with `'*'`, to every number
     * without an outcome of its own) from now on; `reason` is a failure's error.
     */
    outcome(phoneNumber: string, status: MessageOutcome, options: { reason?: string } = {}): void {
      if (typeof phoneNumber !== 'string' || phoneNumber === '') throw new TypeError("channel.outcome(): phoneNumber must be a phone number or '*'.");
      if (!OUTCOMES.includes(status)) throw new TypeError(`channel.outcome(): status must be one of ${OUTCOMES.join(', ')}; got ${JSON.stringify(status)}.`);
      if (options.reason !== undefined && typeof options.reason !== 'string') throw new TypeError('channel.outcome(): reason must be a string.');
      outcomes.set(phoneNumber, { status, reason: options.reason });
    },
    /** The outcomes set, by phone number (`'*'` for every other number). */
    outcomes(): Record<string, { status: MessageOutcome; reason?: string }> {
      return Object.fromEntries([...outcomes].map(([phone, o]) => [phone, o.reason === undefined ? { status: o.status } : o]));
    },
    /** Forgets every outcome set: back to the simulated ones. */
    clearOutcomes(): void {
      outcomes.clear();
    },
    /** A copy of what it holds, for the mock's snapshots. */
    snapshot(): ChannelState {
      return { outcomes: [...outcomes].map(([phone, o]) => [phone, { ...o }]), log: copy(log) };
    },
    /** What was sent, oldest first; only one campaign's with `campaignId`. */
    messages(filter: { campaignId?: string } = {}): MockMessage[] {
      return log.filter((m) => filter.campaignId === undefined || m.campaignId === filter.campaignId).map(copy);
    },
  };
}

export type MockChannel = ReturnType<typeof createMockChannel>;
