import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsAppEmulator, EmulatorOptionsError, type WhatsAppEmulator } from '../src/index.ts';
import { startReceiver } from './receiver.ts';
import { send, templateSend } from './send.ts';

let wa: WhatsAppEmulator;

beforeEach(async () => {
  wa = await createWhatsAppEmulator({ acceptAnyTemplate: true, sentMs: 0, deliveredMs: 10, readMs: 20 });
});

afterEach(() => wa.close());

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${wa.url}/__emulator${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the control API's answers field by field.
  return { status: res.status, body: (await res.json()) as any };
}

describe('the control API', () => {
  it('sets the callback URL, fate rules and settings, shows what it received, waits for quiet and resets', async () => {
    const receiver = await startReceiver({ appSecret: wa.appSecret, verifyToken: wa.verifyToken });
    expect((await control('PATCH', '/settings', { callbackUrl: receiver.url, readMs: 30 })).body.settings).toMatchObject({
      callbackUrl: receiver.url,
      readMs: 30,
    });
    expect((await control('PUT', '/fates', [{ match: { suffix: '5' }, fate: 'delivered' }])).status).toBe(200);
    const wamid = (await send(wa, templateSend('15550400005', { biz_opaque_callback_data: 'c-1' }))).body.messages[0].id;
    expect(await control('POST', '/quiet', { timeoutMs: 5_000 })).toEqual({ status: 200, body: { quiet: true } });
    const state = (await control('GET', '/')).body;
    expect(state.messages).toMatchObject([{ wamid, to: '15550400005', bizOpaqueCallbackData: 'c-1', fate: 'delivered', statuses: ['sent', 'delivered'] }]);
    expect(state.webhooks.map((w: { status: string; attempts: { status: number }[] }) => [w.status, w.attempts[0]?.status])).toEqual([
      ['sent', 200],
      ['delivered', 200],
    ]);
    expect((await control('POST', '/reset')).status).toBe(200);
    expect((await control('GET', '/messages')).body).toEqual([]);
    expect((await control('GET', '/')).body.settings.callbackUrl).toBeNull();
    await receiver.close();
  });

  it('holds webhooks that fall due while holdWebhooks is set, then sends them at most webhookConcurrency at once', async () => {
    const receiver = await startReceiver({ appSecret: wa.appSecret, verifyToken: wa.verifyToken });
    await wa.setCallbackUrl(receiver.url);
    wa.configure({ holdWebhooks: true, webhookConcurrency: 2 });
    wa.setFates([{ match: '*', fate: 'sent' }]);
    for (let i = 0; i < 6; i++) await send(wa, templateSend(`1555060000${i}`));
    await new Promise((ok) => setTimeout(ok, 100));
    expect(receiver.received).toHaveLength(0);
    expect(wa.webhooks().every((w) => w.state === 'waiting')).toBe(true);
    expect((await control('PATCH', '/settings', { holdWebhooks: false })).status).toBe(200);
    await wa.quiet();
    expect(receiver.received).toHaveLength(6);
    // Never more than two in flight: each try began once one of the two before it had ended.
    const tries = wa.webhooks().map((w) => w.attempts[0] as { startedAt: string; at: string });
    for (const [i, t] of tries.entries()) {
      const overlapping = tries.filter((o, j) => j !== i && o.startedAt <= t.startedAt && o.at > t.startedAt);
      expect(overlapping.length).toBeLessThanOrEqual(1);
    }
    await receiver.close();
  });

  it('answers 400 naming the field of a bad setting or rule, and 404 for an unknown route', async () => {
    const bad = await control('PATCH', '/settings', { pairRate: { intervalMs: 6000, burst: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('pairRate.burst');
    const badRule = await control('PUT', '/fates', [{ match: { suffix: 'x1' }, fate: 'read' }]);
    expect([badRule.status, badRule.body.error.message]).toEqual([400, expect.stringContaining('0.match')]);
    const unknown = await control('POST', '/templates/status', { name: 'nope', event: 'PAUSED' });
    expect([unknown.status, unknown.body.error.message]).toEqual([400, expect.stringContaining('no template has that name')]);
    expect((await control('GET', '/nothing')).status).toBe(404);
  });

  it('changes nothing when a callback URL in the settings fails its handshake', async () => {
    const receiver = await startReceiver({ appSecret: wa.appSecret, verifyToken: 'not-the-emulators' });
    const refused = await control('PATCH', '/settings', { callbackUrl: receiver.url, readMs: 999 });
    expect([refused.status, refused.body.error.message]).toEqual([400, expect.stringContaining('failed its verification: the verification GET answered 403')]);
    expect((await control('GET', '/')).body.settings).toMatchObject({ callbackUrl: null, readMs: 20 });
    await receiver.close();
  });

  it('keeps at most historyLimit messages and refused sends, the newest', async () => {
    await wa.close();
    wa = await createWhatsAppEmulator({ acceptAnyTemplate: true, historyLimit: 2, pairRate: { intervalMs: 60_000, burst: 1 } });
    for (const to of ['15550400101', '15550400102', '15550400103']) await send(wa, templateSend(to));
    for (let i = 0; i < 3; i++) await send(wa, templateSend('15550400103'));
    expect(wa.messages().map((m) => m.to)).toEqual(['15550400102', '15550400103']);
    expect(wa.refused()).toHaveLength(2);
  });

  it('reports a quiet that times out: 504 over HTTP, a rejection in process', async () => {
    wa.setFates([{ match: '*', fate: 'sent', lateMs: 5_000 }]);
    await send(wa, templateSend('15550400006'));
    expect(await control('POST', '/quiet', { timeoutMs: 50 })).toMatchObject({ status: 504, body: { quiet: false, pending: 1 } });
    await expect(wa.quiet({ timeoutMs: 50 })).rejects.toThrow(/not quiet after 50 ms: 1 webhooks/);
  });
});

describe('options', () => {
  it('throws an EmulatorOptionsError naming each bad field', async () => {
    await expect(createWhatsAppEmulator({ messagesPerSecond: 0, phoneNumberIds: ['abc'] })).rejects.toThrow(EmulatorOptionsError);
    await expect(createWhatsAppEmulator({ messagesPerSecond: 0 })).rejects.toThrow(/messagesPerSecond/);
  });
});
