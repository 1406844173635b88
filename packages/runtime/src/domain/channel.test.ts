import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { type ChannelStatus, createSimulatedChannel, type OutboundMessage } from './channel.ts';

const msg = (key: string, messageId = `msg_${key}`): OutboundMessage => ({
  to: '+10000000000',
  key,
  template: { name: 't', language: 'en', header: [], body: [], cards: [], variables: {} },
  messageId,
  campaignId: 'cmp_1',
  runKey: '2026-01-05T09:00:00.000Z',
  customerId: 'cus_1',
});

describe('the simulated channel', () => {
  it('accepts every message and reports the same fate for the same key, about the configured share failing', async () => {
    const channel = createSimulatedChannel({ failureRate: 0.05 });
    expect(await channel.send(msg('a'))).toEqual(await channel.send(msg('a')));
    const answers = await Promise.all(Array.from({ length: 10_000 }, (_, i) => channel.send(msg(`k${i}`))));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set(['sent']));
    const statuses = channel.takeStatuses?.(new Date()) ?? [];
    const last = new Map<string, ChannelStatus['status']>();
    for (const s of statuses.filter((s) => s.messageId?.startsWith('msg_k'))) last.set(s.messageId as string, s.status);
    const share = (s: string) => [...last.values()].filter((v) => v === s).length / 10_000;
    expect(share('failed')).toBeGreaterThan(0.04);
    expect(share('failed')).toBeLessThan(0.06);
    expect(share('read')).toBeGreaterThan(0.5);
    // With no delays a read comes alone, as WhatsApp's does when delivery and reading happen together.
    expect(statuses.filter((s) => s.status === 'delivered').length / 10_000).toBeLessThan(0.3);
    expect(statuses.find((s) => s.status === 'failed')?.error).toEqual({ code: 131026, title: 'Message undeliverable' });
    expect(channel.takeStatuses?.(new Date())).toEqual([]);
  });

  it('reports delivered, then read, as its clock passes their delays, each status once', async () => {
    const clock = createManualClock(new Date('2026-01-05T09:00:00.000Z'));
    const channel = createSimulatedChannel({ failureRate: 0, statusDelays: { deliveredMs: 1000, readMs: 5000 }, clock });
    const keys = Array.from({ length: 200 }, (_, i) => `d${i}`);
    for (const key of keys) await channel.send(msg(key));
    expect(channel.takeStatuses?.(clock.now())).toEqual([]);
    expect(channel.nextStatusDue?.()).toEqual(new Date('2026-01-05T09:00:01.000Z'));
    const delivered = channel.takeStatuses?.(new Date('2026-01-05T09:00:01.000Z')) ?? [];
    expect(delivered.length).toBeGreaterThan(100);
    expect(new Set(delivered.map((s) => s.status))).toEqual(new Set(['delivered']));
    const read = channel.takeStatuses?.(new Date('2026-01-05T09:00:05.000Z')) ?? [];
    expect(new Set(read.map((s) => s.status))).toEqual(new Set(['read']));
    expect(read[0]?.at).toBe('2026-01-05T09:00:05.000Z');
    expect(channel.nextStatusDue?.()).toBeNull();
  });

  it('fails every message at failureRate 1, with the provider id it answered', async () => {
    const channel = createSimulatedChannel({ failureRate: 1 });
    const answer = await channel.send(msg('a'));
    expect(channel.takeStatuses?.(new Date())).toEqual([
      expect.objectContaining({ status: 'failed', providerMessageId: answer.providerMessageId, messageId: 'msg_a' }),
    ]);
  });
});
