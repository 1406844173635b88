import { type ChannelAdapter, createSimulatedChannel, type OutboundMessage } from '../src/domain/channel.ts';

/**
 * A channel that records what it is given; with `hangOn`, that send never answers (a crash mid-run), and `hung` resolves.
 * `inFlight` is the channel's (1 when not given).
 */
export function recordingChannel(hangOn?: number, inFlight?: number): ChannelAdapter & { sent: OutboundMessage[]; hung: Promise<void> } {
  const inner = createSimulatedChannel({ failureRate: 0 });
  const sent: OutboundMessage[] = [];
  let hang: () => void = () => {};
  const hung = new Promise<void>((resolve) => {
    hang = resolve;
  });
  return {
    name: 'recording',
    ...(inFlight === undefined ? {} : { inFlight }),
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
