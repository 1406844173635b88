import { type ChannelAdapter, type Clock, copy, type SendResult, SIMULATED_FAILURE, simulatedFate, simulatedMessageId } from '@engagekit/runtime';

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

/**
 * The mock's messaging channel: the server's simulated channel (outcomes fixed by each message's key,
 * so the same under the same `seed`), unless an outcome was set for the number or for every number
 * (`'*'`). It keeps what it sent, for `mock.messages()`.
 */
export function createMockChannel(clock: Clock, from?: ChannelState) {
  // The server's simulated fates (5% fail), answered at once: what a message comes to is in the answer.
  const simulated = (key: string): SendResult => {
    const status = simulatedFate(key, 0.05);
    return status === 'failed'
      ? { status, providerMessageId: null, error: SIMULATED_FAILURE.title, errorCode: SIMULATED_FAILURE.code }
      : { status, providerMessageId: simulatedMessageId(key), error: null };
  };
  const outcomes = new Map<string, { status: MessageOutcome; reason: string | undefined }>((from?.outcomes ?? []).map(([phone, o]) => [phone, { ...o }]));
  const log: MockMessage[] = copy(from?.log ?? []);

  const channel: ChannelAdapter = {
    name: 'mock',
    // It reaches nobody: a run taken over sends its unanswered messages rather than fail them.
    external: false,
    async send(message) {
      const set = outcomes.get(message.to) ?? outcomes.get('*');
      let result: SendResult;
      if (!set) result = simulated(message.key);
      else if (set.status === 'failed') result = { status: 'failed', providerMessageId: null, error: set.reason ?? 'failed: the outcome set on the mock' };
      else result = { status: set.status, providerMessageId: simulatedMessageId(message.key), error: null };
      const { variables, ...template } = message.template;
      log.push({
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
      });
      return result;
    },
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
