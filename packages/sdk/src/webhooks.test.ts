import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { EngageError } from './errors.ts';
import { type OrderCreatedEvent, signWebhook, verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from './webhooks.ts';

// The Standard Webhooks test vector (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function works").
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER_SECRET = 'whsec_dGhpcy1pcy1hbm90aGVyLXNlY3JldC0xMjM0NTY=';
const NOW = 1_767_600_000;

const event: OrderCreatedEvent = {
  id: 'evt_1',
  type: 'order.created',
  created_at: '2026-01-05T08:00:00.000Z',
  data: {
    order: {
      id: 'ord_1',
      company_id: 'ACME',
      company_order_id: 'ORD-1',
      totalAmount: 100.5,
      firstName: 'Asha',
      lastName: 'Rao',
      phoneNumber: '+919800000001',
      email: null,
      postalCode: '560001',
      streetAddress1: '1 MG Road',
      streetAddress2: null,
      city: null,
      state: null,
      specialInstructions: null,
      products: [],
      billingStreetAddress1: null,
      billingStreetAddress2: null,
      billingCity: null,
      billingState: null,
      billingPostalCode: null,
      companyOrderDate: null,
      companyOrderDueDate: null,
      companyOrderDeliveryStatus: null,
      companyOrderPaymentReference: null,
      companyOrderStatus: null,
      companyOrderDescription: null,
      company_order_other_attributes_1: null,
      company_order_other_attributes_2: null,
      version: 1,
      created_at: '2026-01-05T08:00:00.000Z',
      updated_at: '2026-01-05T08:00:00.000Z',
    },
  },
};
const body = JSON.stringify(event);

async function rejection(p: Promise<unknown>): Promise<WebhookVerificationError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WebhookVerificationError);
  return e as WebhookVerificationError;
}

async function expectCode(p: Promise<unknown>, code: WebhookVerificationErrorCode, message: RegExp) {
  const e = await rejection(p);
  expect(e.code).toBe(code);
  expect(e.message).toMatch(/^Failed to verify webhook: /);
  expect(e.message).toMatch(message);
  return e;
}

describe('signWebhook', () => {
  it('reproduces the Standard Webhooks test vector', async () => {
    const headers = await signWebhook(VECTOR.payload, VECTOR.secret, { id: VECTOR.id, timestamp: VECTOR.timestamp });
    expect(headers).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature });
  });

  it('accepts the secret without its whsec_ prefix, and bytes for the body', async () => {
    const opts = { id: VECTOR.id, timestamp: VECTOR.timestamp };
    expect((await signWebhook(VECTOR.payload, VECTOR.secret.slice(6), opts))['webhook-signature']).toBe(VECTOR.signature);
    const bytes = new TextEncoder().encode(VECTOR.payload);
    expect((await signWebhook(bytes, VECTOR.secret, opts))['webhook-signature']).toBe(VECTOR.signature);
    expect((await signWebhook(bytes.buffer, VECTOR.secret, opts))['webhook-signature']).toBe(VECTOR.signature);
  });

  it('defaults to a fresh id and the current time', async () => {
    const before = Math.floor(Date.now() / 1000);
    const a = await signWebhook(body, SECRET);
    const b = await signWebhook(body, SECRET);
    expect(a['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(a['webhook-id']).not.toBe(b['webhook-id']);
    expect(Number(a['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
  });

  it('signs with every secret given, space-separated, as during a rotation', async () => {
    const h = await signWebhook(body, [SECRET, OTHER_SECRET], { timestamp: NOW });
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(h['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  });

  it('agrees with the standardwebhooks library both ways', async () => {
    const lib = new Webhook(SECRET);
    const ts = Math.floor(Date.now() / 1000);
    const ours = await signWebhook(body, SECRET, { id: 'msg_cross', timestamp: ts });
    expect(ours['webhook-signature']).toBe(lib.sign('msg_cross', new Date(ts * 1000), body));
    expect(lib.verify(body, { ...ours })).toEqual(event);
    const theirs = { 'webhook-id': 'msg_lib', 'webhook-timestamp': String(ts), 'webhook-signature': lib.sign('msg_lib', new Date(ts * 1000), body) };
    expect(await verifyWebhook(body, theirs, SECRET)).toEqual(event);
  });
});

describe('verifyWebhook', () => {
  const signed = (opts: { timestamp?: number; secret?: string | string[]; payload?: string } = {}) =>
    signWebhook(opts.payload ?? body, opts.secret ?? SECRET, { id: 'evt_1', timestamp: opts.timestamp ?? NOW });

  it('verifies the Standard Webhooks test vector at its time', async () => {
    const headers = { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature };
    // The vector's payload is not an engagekit event: the signature passes, the payload check speaks.
    const e = await expectCode(
      verifyWebhook(VECTOR.payload, headers, VECTOR.secret, { now: VECTOR.timestamp * 1000 }),
      'invalid_payload',
      /signature is valid/,
    );
    expect(e.payload).toEqual({ test: 2432232314 });
  });

  it('resolves to the typed event, from a Headers object or a plain object in any case', async () => {
    const h = await signed();
    const now = new Date(NOW * 1000);
    expect(await verifyWebhook(body, new Headers(h), SECRET, { now })).toEqual(event);
    const shouty = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
    const verified = await verifyWebhook(new TextEncoder().encode(body), shouty, SECRET, { now });
    expect(verified.type).toBe('order.created');
    expect(verified.data.order.company_order_id).toBe('ORD-1');
  });

  it('accepts any one of several signatures, and any one of several secrets', async () => {
    const h = await signed({ secret: OTHER_SECRET });
    const rotated = { ...h, 'webhook-signature': `v1a,bm90LWNoZWNrZWQ= v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${h['webhook-signature']}` };
    expect((await verifyWebhook(body, rotated, OTHER_SECRET, { now: NOW * 1000 })).id).toBe('evt_1');
    expect((await verifyWebhook(body, h, [SECRET, OTHER_SECRET], { now: NOW * 1000 })).id).toBe('evt_1');
    await expectCode(verifyWebhook(body, h, SECRET, { now: NOW * 1000 }), 'no_matching_signature', /secret/);
  });

  it('refuses a body that changed, saying to pass the raw body', async () => {
    const h = await signed();
    const reserialized = JSON.stringify(JSON.parse(body), null, 2);
    await expectCode(verifyWebhook(reserialized, h, SECRET, { now: NOW * 1000 }), 'no_matching_signature', /raw body as received/);
    await expectCode(verifyWebhook(event as never, h, SECRET, { now: NOW * 1000 }), 'invalid_body', /not object.*express\.raw/);
  });

  it('refuses a timestamp outside 5 minutes by default, either way, and takes another tolerance', async () => {
    const h = await signed();
    const at = (s: number) => ({ now: (NOW + s) * 1000 });
    expect((await verifyWebhook(body, h, SECRET, at(299))).id).toBe('evt_1');
    expect((await verifyWebhook(body, h, SECRET, at(-299))).id).toBe('evt_1');
    await expectCode(
      verifyWebhook(body, h, SECRET, at(7 * 60)),
      'timestamp_too_old',
      /the timestamp is 7 minutes old \(tolerance: 5 minutes\)\. Is the server clock right, or is this a replay\?/,
    );
    await expectCode(verifyWebhook(body, h, SECRET, at(-400)), 'timestamp_too_new', /in the future.*clock/);
    expect((await verifyWebhook(body, h, SECRET, { ...at(7 * 60), tolerance: 600 })).id).toBe('evt_1');
    await expectCode(verifyWebhook(body, h, SECRET, { ...at(31), tolerance: 30 }), 'timestamp_too_old', /31 seconds old/);
  });

  it('names the missing headers', async () => {
    const h = await signed();
    const { 'webhook-signature': _s, 'webhook-timestamp': _t, ...onlyId } = h;
    await expectCode(verifyWebhook(body, onlyId, SECRET), 'missing_header', /the webhook-timestamp, webhook-signature headers are missing/);
    await expectCode(verifyWebhook(body, { ...h, 'webhook-id': undefined }, SECRET), 'missing_header', /the webhook-id header is missing/);
  });

  it('refuses malformed timestamps and signatures', async () => {
    const h = await signed();
    await expectCode(verifyWebhook(body, { ...h, 'webhook-timestamp': 'yesterday' }, SECRET), 'invalid_timestamp', /whole seconds/);
    await expectCode(verifyWebhook(body, { ...h, 'webhook-signature': 'v1a,abc' }, SECRET), 'no_matching_signature', /no "v1,<base64>" signature/);
    await expectCode(
      verifyWebhook(body, { ...h, 'webhook-signature': 'v1,' }, SECRET),
      'no_matching_signature',
      /no "v1,<base64>" signature|no signature matched/,
    );
    const truncated = { ...h, 'webhook-signature': h['webhook-signature'].slice(0, 12) };
    await expectCode(verifyWebhook(body, truncated, SECRET, { now: NOW * 1000 }), 'no_matching_signature', /no signature matched/);
  });

  it('refuses a secret that is not one, without echoing it', async () => {
    const h = await signed();
    const e = await expectCode(verifyWebhook(body, h, 'whsec_not base64!'), 'invalid_secret', /expected "whsec_" followed by base64/);
    expect(e.message).not.toContain('not base64!');
    await expectCode(verifyWebhook(body, h, []), 'invalid_secret', /no secret given/);
    await expectCode(verifyWebhook(body, h, undefined as never), 'invalid_secret', /no secret given/);
  });

  it('refuses a signed payload that is not an engagekit event, or of a type it does not know', async () => {
    const check = async (payload: unknown) => {
      const text = JSON.stringify(payload);
      return verifyWebhook(text, await signed({ payload: text }), SECRET, { now: NOW * 1000 });
    };
    await expectCode(check({ ...event, data: {} }), 'invalid_payload', /"data\.order" must be an object/);
    await expectCode(check({ ...event, id: 42 }), 'invalid_payload', /"id" must be a non-empty string/);
    await expectCode(check([1]), 'invalid_payload', /not a JSON object/);
    const unknown = await expectCode(check({ ...event, type: 'campaign.finished' }), 'unknown_event_type', /"campaign\.finished".*Upgrade the SDK/);
    expect(unknown.payload).toMatchObject({ type: 'campaign.finished' });
    const notJson = 'not json';
    await expectCode(verifyWebhook(notJson, await signed({ payload: notJson }), SECRET, { now: NOW * 1000 }), 'invalid_payload', /not JSON/);
  });

  it('throws errors that EngageError.is and WebhookVerificationError.is recognise', async () => {
    const e = await rejection(verifyWebhook(body, {}, SECRET));
    expect(EngageError.is(e)).toBe(true);
    expect(WebhookVerificationError.is(e)).toBe(true);
    expect(e.name).toBe('WebhookVerificationError');
  });
});
