import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWhatsAppEmulator, type WhatsAppEmulator } from '../src/index.ts';
import { startReceiver } from './receiver.ts';
import { send, templateSend } from './send.ts';

let wa: WhatsAppEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
  receiver = await startReceiver({ appSecret: 'test-secret', verifyToken: 'test-verify' });
  wa = await createWhatsAppEmulator({ appSecret: 'test-secret', verifyToken: 'test-verify', callbackUrl: receiver.url, templateReviewMs: 300 });
});

afterEach(async () => {
  await wa.close();
  await receiver.close();
});

async function graph(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${wa.apiUrl}/${wa.wabaId}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${wa.accessToken}`, 'content-type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the Graph API's answers field by field.
  return { status: res.status, body: (await res.json()) as any };
}

const creation = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} ships today.' },
  ],
});

describe('message templates', () => {
  it('creates a PENDING template, lists it, approves it by webhook, and then sends with its parameter counts', async () => {
    const created = await graph('/message_templates', { method: 'POST', body: creation('shipping_notice') });
    expect(created).toEqual({ status: 200, body: { id: expect.stringMatching(/^\d+$/), status: 'PENDING', category: 'UTILITY' } });
    const listed = await graph('/message_templates');
    expect(listed.body.data).toMatchObject([{ id: created.body.id, name: 'shipping_notice', language: 'en_US', status: 'PENDING' }]);
    await wa.quiet();
    expect(receiver.templateUpdates()).toEqual([
      {
        event: 'APPROVED',
        message_template_id: Number(created.body.id),
        message_template_name: 'shipping_notice',
        message_template_language: 'en_US',
        reason: 'NONE',
      },
    ]);
    expect(receiver.received.every((w) => w.signatureOk)).toBe(true);
    const components = [
      { type: 'header', parameters: [{ type: 'text', text: 'A-1' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'A-1' },
        ],
      },
    ];
    const answer = await send(wa, templateSend('15550100001', { template: { name: 'shipping_notice', language: { code: 'en_US' }, components } }));
    expect(answer.status).toBe(200);
  });

  it('rejects a reject_ name with a reason, and follows review rules set later', async () => {
    await graph('/message_templates', { method: 'POST', body: creation('reject_this') });
    wa.configure({ templateReview: [{ match: { prefix: 'promo_' }, event: 'REJECTED', reason: 'PROMOTIONAL' }] });
    await graph('/message_templates', { method: 'POST', body: creation('promo_sale') });
    await wa.quiet();
    // Two webhooks in flight at once may arrive in either order.
    expect(
      receiver
        .templateUpdates()
        .map((u) => [u.message_template_name, u.event, u.reason])
        .sort(),
    ).toEqual([
      ['promo_sale', 'REJECTED', 'PROMOTIONAL'],
      ['reject_this', 'REJECTED', 'INVALID_FORMAT'],
    ]);
    const refused = await send(wa, templateSend('15550100001', { template: { name: 'reject_this', language: { code: 'en_US' } } }));
    expect(refused.body.error.code).toBe(132001);
  });

  it('changes a status later: paused and disabled refuse sends with 132015 and 132016, reinstated sends again', async () => {
    await graph('/message_templates', { method: 'POST', body: creation('later_change') });
    await wa.quiet();
    const components = [
      { type: 'header', parameters: [{ type: 'text', text: 'A-1' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'A-1' },
        ],
      },
    ];
    const attempt = async () =>
      (
        await send(
          wa,
          templateSend(`1555010${Math.floor(Math.random() * 9000) + 1000}`, { template: { name: 'later_change', language: { code: 'en_US' }, components } }),
        )
      ).body;
    wa.setTemplateStatus({ name: 'later_change', event: 'PAUSED', reason: 'LOW_QUALITY' });
    expect((await attempt()).error.code).toBe(132015);
    wa.setTemplateStatus({ name: 'later_change', event: 'DISABLED' });
    expect((await attempt()).error.code).toBe(132016);
    wa.setTemplateStatus({ name: 'later_change', event: 'REINSTATED' });
    expect((await attempt()).messages).toHaveLength(1);
    await wa.quiet();
    expect(receiver.received.every((w) => w.answered === 200)).toBe(true);
    // Made in this order; posted at once, so they may arrive in another.
    const made = wa
      .webhooks()
      .filter((w) => w.field === 'message_template_status_update')
      .map((w) => (w.payload as { entry: { changes: { value: { event: string; reason: string } }[] }[] }).entry[0]?.changes[0]?.value);
    expect(made.map((u) => [u?.event, u?.reason])).toEqual([
      ['APPROVED', 'NONE'],
      ['PAUSED', 'LOW_QUALITY'],
      ['DISABLED', 'NONE'],
      ['REINSTATED', 'NONE'],
    ]);
  });

  it('refuses a creation naming its bad field, and a name already taken', async () => {
    const bad = await graph('/message_templates', { method: 'POST', body: { ...creation('x'), category: 'NEWS' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 100]);
    expect(bad.body.error.error_data.details).toContain('category');
    await graph('/message_templates', { method: 'POST', body: creation('twice') });
    const again = await graph('/message_templates', { method: 'POST', body: creation('twice') });
    expect(again.body.error.error_data.details).toContain('already exists');
  });
});
