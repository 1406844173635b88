import { describe, expect, it } from 'vitest';
import { createSimulatedChannel, type OutboundMessage } from './channel.ts';

describe('the simulated channel', () => {
  it('answers the same key the same way, and fails about the configured share', async () => {
    const channel = createSimulatedChannel({ failureRate: 0.05 });
    const msg = (key: string): OutboundMessage => ({
      to: '+10000000000',
      key,
      template: { name: 't', language: 'en', header: [], body: [], cards: [], variables: {} },
      messageId: 'msg_1',
      campaignId: 'cmp_1',
      runKey: '2026-01-05T09:00:00.000Z',
      customerId: 'cus_1',
    });
    expect(await channel.send(msg('a'))).toEqual(await channel.send(msg('a')));
    const outcomes = await Promise.all(Array.from({ length: 10_000 }, (_, i) => channel.send(msg(`k${i}`))));
    const share = (s: string) => outcomes.filter((o) => o.status === s).length / outcomes.length;
    expect(share('failed')).toBeGreaterThan(0.04);
    expect(share('failed')).toBeLessThan(0.06);
    expect(share('read')).toBeGreaterThan(0.5);
    await expect(createSimulatedChannel({ failureRate: 1 }).send(msg('a'))).resolves.toMatchObject({ status: 'failed' });
  });
});
