import { afterEach, describe, expect, it } from 'vitest';
import { createWhatsAppEmulator, type WhatsAppEmulator } from '../src/index.ts';
import { send, templateSend } from './send.ts';

let wa: WhatsAppEmulator;

afterEach(() => wa.close());

describe('throughput', () => {
  it('accepts at most messagesPerSecond in any sliding one-second window, refusing the rest with 130429', async () => {
    const limit = 10;
    wa = await createWhatsAppEmulator({ messagesPerSecond: limit, acceptAnyTemplate: true });
    const answers = await Promise.all(Array.from({ length: 2 * limit }, (_, i) => send(wa, templateSend(`1555020${String(i).padStart(4, '0')}`))));
    const refusedCodes = answers.filter((a) => a.status !== 200).map((a) => a.body.error.code);
    expect(new Set(refusedCodes)).toEqual(new Set(refusedCodes.length > 0 ? [130429] : []));
    const accepted = wa.messages().map((m) => m.acceptedAt);
    expect(accepted.length + refusedCodes.length).toBe(2 * limit);
    // The emulator's own clock: no window of one second holds more than the limit.
    for (const t of accepted) expect(accepted.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(limit);
    // Sent within one second by that clock, exactly the limit got through.
    const times = [...accepted, ...wa.refused().map((r) => r.at)];
    if (Math.max(...times) - Math.min(...times) < 1000) expect(accepted).toHaveLength(limit);
  });
});

describe('pair rate', () => {
  it('lets a burst to one recipient through, then refuses with 131056, while other recipients go on', async () => {
    wa = await createWhatsAppEmulator({ pairRate: { intervalMs: 60_000, burst: 2 }, acceptAnyTemplate: true });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const answer = await send(wa, templateSend('15550300001'));
      codes.push(answer.status === 200 ? 200 : answer.body.error.code);
    }
    expect(codes).toEqual([200, 200, 131056]);
    expect((await send(wa, templateSend('15550300002'))).status).toBe(200);
    expect(wa.refused()).toMatchObject([{ code: 131056, to: '15550300001' }]);
  });
});
