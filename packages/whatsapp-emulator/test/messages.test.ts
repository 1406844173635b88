import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsAppEmulator, type WhatsAppEmulator } from '../src/index.ts';
import { startReceiver } from './receiver.ts';
import { send, templateSend } from './send.ts';

let wa: WhatsAppEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
  receiver = await startReceiver({ appSecret: 'test-secret', verifyToken: 'test-verify' });
  wa = await createWhatsAppEmulator({
    appSecret: 'test-secret',
    verifyToken: 'test-verify',
    callbackUrl: receiver.url,
    sentMs: 0,
    deliveredMs: 100,
    readMs: 200,
    retrySchedule: [20, 20, 20],
    templates: [
      { name: 'order_update', bodyParams: 1 },
      { name: 'with_header', headerParams: 1, bodyParams: 2 },
      { name: 'in_review', status: 'PENDING' },
      { name: 'paused_one', status: 'PAUSED' },
    ],
  });
});

afterEach(async () => {
  await wa.close();
  await receiver.close();
});

describe('sending a template', () => {
  it('answers as the Cloud API does and posts sent, delivered and read, signed, each echoing the callback data', async () => {
    const answer = await send(wa, templateSend('+1 (555) 010-1234', { biz_opaque_callback_data: 'order-42' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '+1 (555) 010-1234', wa_id: '15550101234' }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    const wamid = answer.body.messages[0].id as string;
    await wa.quiet();
    expect(receiver.received.every((w) => w.signatureOk)).toBe(true);
    const statuses = receiver.statuses();
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    for (const s of statuses) {
      expect(s).toMatchObject({ id: wamid, recipient_id: '15550101234', biz_opaque_callback_data: 'order-42', timestamp: expect.stringMatching(/^\d{10}$/) });
    }
    const first = receiver.received[0]?.body;
    expect(first?.object).toBe('whatsapp_business_account');
    expect(first?.entry[0]?.id).toBe(wa.wabaId);
    expect(first?.entry[0]?.changes[0]?.value.metadata).toEqual({ display_phone_number: '15550000000', phone_number_id: wa.phoneNumberId });
    expect(wa.messages()).toMatchObject([
      { wamid, to: '+1 (555) 010-1234', waId: '15550101234', bizOpaqueCallbackData: 'order-42', template: { name: 'order_update' } },
    ]);
    expect(wa.webhooks().map((w) => [w.status, w.state, w.attempts.map((a) => a.status)])).toEqual([
      ['sent', 'delivered', [200]],
      ['delivered', 'delivered', [200]],
      ['read', 'delivered', [200]],
    ]);
  });

  it('answers after answerMs, having accepted the message first: a sender that gives up meanwhile has still sent it', async () => {
    await wa.configure({ answerMs: 60_000 });
    const gaveUp = fetch(`${wa.apiUrl}/${wa.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wa.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(templateSend('+15550101234', { biz_opaque_callback_data: 'msg-1' })),
      signal: AbortSignal.timeout(300),
    });
    await expect(gaveUp).rejects.toThrow();
    expect(wa.messages()).toMatchObject([{ waId: '15550101234', bizOpaqueCallbackData: 'msg-1' }]);
    await wa.quiet();
    expect(receiver.statuses().map((s) => [s.status, s.biz_opaque_callback_data])).toEqual([
      ['sent', 'msg-1'],
      ['delivered', 'msg-1'],
      ['read', 'msg-1'],
    ]);
  });

  it('counts header and body text parameters, not a carousel card image', async () => {
    const components = [
      { type: 'header', parameters: [{ type: 'text', text: 'Hi' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        type: 'carousel',
        cards: [{ card_index: 0, components: [{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://x.test/a.png' } }] }] }],
      },
    ];
    const answer = await send(wa, templateSend('15550100001', { template: { name: 'with_header', language: { code: 'en_US' }, components } }));
    expect(answer.status).toBe(200);
  });
});

describe('validation', () => {
  it.each([
    ['no to', { to: undefined }, 'The parameter to is required.'],
    ['no messaging_product', { messaging_product: undefined }, 'The parameter messaging_product is required.'],
    ['no language code', { template: { name: 'order_update', language: {} } }, "The parameter template['language']['code'] is required."],
    ['callback data over 512 characters', { biz_opaque_callback_data: 'x'.repeat(513) }, 'Param biz_opaque_callback_data is invalid'],
    ['a text message', { type: 'text' }, "Param type must be 'template'"],
  ])('answers 400 with code 100 naming the field given %s', async (_, overrides, details) => {
    const answer = await send(wa, templateSend('15550100001', overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 100,
      type: 'OAuthException',
      error_data: { messaging_product: 'whatsapp' },
      fbtrace_id: expect.any(String),
    });
    expect(answer.body.error.error_data.details).toContain(details);
  });

  it('answers 400 with code 100 given a body that is not JSON', async () => {
    const answer = await send(wa, '{nope');
    expect([answer.status, answer.body.error.code]).toEqual([400, 100]);
    expect(answer.body.error.error_data.details).toContain('not JSON');
  });

  it('answers 401 with code 190 given a wrong token', async () => {
    const answer = await send(wa, templateSend('15550100001'), { token: 'wrong' });
    expect([answer.status, answer.body.error.code]).toEqual([401, 190]);
  });

  it('answers code 100 given a phone number id it does not have', async () => {
    const answer = await send(wa, templateSend('15550100001'), { phoneNumberId: '999' });
    expect([answer.status, answer.body.error.code]).toEqual([400, 100]);
  });

  it('refuses by its refusal rules: a code for a share of recipients, each the first `times` sends only', async () => {
    wa.configure({
      refusals: [
        { match: { suffix: '77' }, code: 131026 },
        { match: '*', code: 131000, share: 0.5, times: 1 },
      ],
    });
    const undeliverable = await send(wa, templateSend('15550100077'));
    expect([undeliverable.status, undeliverable.body.error.code]).toEqual([400, 131026]);
    // Half the recipients, by their numbers, are refused once with 131000 (HTTP 500), then accepted.
    const recipients = Array.from({ length: 40 }, (_, i) => `1555020${String(i).padStart(4, '0')}`);
    const first = await Promise.all(recipients.map((to) => send(wa, templateSend(to))));
    const refused = first.filter((a) => a.status === 500);
    expect(refused.every((a) => a.body.error.code === 131000)).toBe(true);
    expect(refused.length).toBeGreaterThan(5);
    expect(refused.length).toBeLessThan(35);
    const again = await Promise.all(recipients.map((to) => send(wa, templateSend(to))));
    expect(again.map((a) => a.status)).toEqual(recipients.map(() => 200));
    expect(
      wa
        .refused()
        .map((r) => r.code)
        .sort(),
    ).toEqual([131026, ...refused.map(() => 131000)].sort());
  });

  it.each([
    ['an unknown template', { name: 'nope', language: { code: 'en_US' } }, 404, 132001],
    ['a known template in another language', { name: 'order_update', language: { code: 'pt_BR' } }, 404, 132001],
    ['a template still in review', { name: 'in_review', language: { code: 'en_US' } }, 404, 132001],
    ['a paused template', { name: 'paused_one', language: { code: 'en_US' } }, 400, 132015],
    ['too few body parameters', { name: 'order_update', language: { code: 'en_US' } }, 400, 132000],
  ])('refuses %s', async (_, template, status, code) => {
    const answer = await send(wa, templateSend('15550100001', { template }));
    expect([answer.status, answer.body.error.code]).toEqual([status, code]);
    expect(wa.refused().map((r) => r.code)).toEqual([code]);
    expect(wa.messages()).toEqual([]);
  });
});

describe('fates', () => {
  it('follows the built-in suffixes: undeliverable, delivered never read, read without delivered, sent only', async () => {
    const wamids: Record<string, string> = {};
    for (const to of ['15550109990', '15550109991', '15550109992', '15550109994', '15550109993']) {
      wamids[to] = (await send(wa, templateSend(to))).body.messages[0].id;
    }
    await wa.quiet();
    const of = (to: string) => receiver.statuses().filter((s) => s.id === wamids[to]);
    expect(of('15550109990').map((s) => s.status)).toEqual(['failed']);
    expect(of('15550109990')[0]?.errors).toMatchObject([{ code: 131026, title: 'Message undeliverable', error_data: { details: expect.any(String) } }]);
    expect(of('15550109991').map((s) => s.status)).toEqual(['sent', 'delivered']);
    expect(of('15550109992').map((s) => s.status)).toEqual(['sent', 'read']);
    expect(of('15550109994').map((s) => s.status)).toEqual(['sent']);
    expect(of('15550109993')[0]?.errors?.[0]?.code).toBe(131042);
  });

  it('takes the caller’s rules first, by number or suffix', async () => {
    wa.setFates([
      { match: { to: '+15550100077' }, fate: { failed: 131049, title: 'Held back' } },
      { match: { suffix: '88' }, fate: 'delivered' },
    ]);
    const failed = (await send(wa, templateSend('15550100077'))).body.messages[0].id;
    const delivered = (await send(wa, templateSend('15550100088'))).body.messages[0].id;
    await wa.quiet();
    expect(receiver.statuses().filter((s) => s.id === failed)).toMatchObject([{ status: 'failed', errors: [{ code: 131049, title: 'Held back' }] }]);
    expect(
      receiver
        .statuses()
        .filter((s) => s.id === delivered)
        .map((s) => s.status),
    ).toEqual(['sent', 'delivered']);
  });

  it('sends statuses out of order and twice when asked, globally or by a rule', async () => {
    wa.configure({ disorder: { outOfOrder: true } });
    wa.setFates([{ match: { suffix: '22' }, fate: 'read', duplicates: true, outOfOrder: false }]);
    const reversed = (await send(wa, templateSend('15550100011'))).body.messages[0].id;
    const doubled = (await send(wa, templateSend('15550100022'))).body.messages[0].id;
    await wa.quiet();
    expect(
      receiver
        .statuses()
        .filter((s) => s.id === reversed)
        .map((s) => s.status),
    ).toEqual(['read', 'delivered', 'sent']);
    expect(
      receiver
        .statuses()
        .filter((s) => s.id === doubled)
        .map((s) => s.status),
    ).toEqual(['sent', 'sent', 'delivered', 'delivered', 'read', 'read']);
  });

  it('sends statuses late by lateMs', async () => {
    wa.setFates([{ match: '*', fate: 'sent', lateMs: 300 }]);
    await send(wa, templateSend('15550100033'));
    await new Promise((r) => setTimeout(r, 100));
    expect(wa.webhooks().map((w) => w.state)).toEqual(['waiting']);
    await wa.quiet();
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent']);
  });
});

describe('webhook delivery', () => {
  it('retries a post not answered 200 by the retry schedule, then stops', async () => {
    await receiver.close();
    receiver = await startReceiver({ appSecret: 'test-secret', verifyToken: 'test-verify', failures: 2 });
    await wa.setCallbackUrl(receiver.url);
    wa.setFates([{ match: '*', fate: 'sent' }]);
    await send(wa, templateSend('15550100044'));
    await wa.quiet();
    expect(wa.webhooks()[0]?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(receiver.statuses().map((s) => s.status)).toEqual(['sent']);

    receiver.received.length = 0;
    wa.configure({ retrySchedule: [10] });
    await receiver.close();
    receiver = await startReceiver({ appSecret: 'test-secret', verifyToken: 'test-verify', failures: 5 });
    await wa.setCallbackUrl(receiver.url);
    await send(wa, templateSend('15550100045'));
    await wa.quiet();
    expect(wa.webhooks()[1]).toMatchObject({ state: 'dropped', attempts: [{ status: 500 }, { status: 500 }] });
  });

  it('refuses a callback URL whose handshake fails, naming what it answered', async () => {
    const other = await startReceiver({ appSecret: 'test-secret', verifyToken: 'another-token' });
    await expect(wa.setCallbackUrl(other.url)).rejects.toThrow(/failed its verification: the verification GET answered 403/);
    await other.close();
  });
});
