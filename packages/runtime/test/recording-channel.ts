import { type ChannelAdapter, createSimulatedChannel, type OutboundMessage } from '../src/domain/channel.ts';

/**
 * A channel that records what it is given; with `hangOn`, that send never answers (a crash mid-run), and `hung` resolves.
 * `inFlight` is the channel's (1 when not given); `external` whether it hands messages outside the process (true when not given).
 */
export function recordingChannel(hangOn?: number, inFlight?: number, external?: boolean): ChannelAdapter & { sent: OutboundMessage[]; hung: Promise<void> } {
  const inner = createSimulatedChannel({ failureRate: 0 });
  const sent: OutboundMessage[] = [];
  let hang: () => void = () => {};
  const hung = new Promise<void>((resolve) => {
    hang = resolve;
  });
  return {
    name: 'recording',
    ...(inFlight === undefined ? {} : { inFlight }),
    ...(external === undefined ? {} : { external }),
    sent,
    hung,
    async send(m) {
      sent.push(m);
      if (hangOn !== undefined && sent.length === hangOn) {
        hang();
        return new Promise(() => {});
      }
      return inner.send(m);
    },
  };
}

/**
 * A channel that holds every send until messages of `campaigns` different campaigns are in flight at
 * once (or `timeoutMs` has passed): `together()` then says whether they were, which proves that runs
 * started together rather than one after another.
 */
export function togetherChannel(campaigns: number, timeoutMs = 10_000): ChannelAdapter & { together(): boolean } {
  const inFlight = new Set<string>();
  let met = false;
  let release: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    name: 'together',
    external: false,
    async send(m) {
      inFlight.add(m.campaignId);
      if (inFlight.size >= campaigns) {
        met = true;
        release();
      }
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref?.())]);
      return { status: 'sent', providerMessageId: null, error: null };
    },
    together: () => met,
  };
}
