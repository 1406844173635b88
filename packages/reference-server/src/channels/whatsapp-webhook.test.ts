import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../runtime/src/app.ts';
import type { ChannelStatus, TemplateStatusUpdate } from '../../../runtime/src/domain/channel.ts';
import type { Logger } from '../../../runtime/src/logger.ts';
import { createMemoryStore } from '../../../runtime/src/store/memory/store.ts';
import { StoreUnavailableError } from '../../../runtime/src/store/types.ts';
import { WHATSAPP_WEBHOOK_MAX_BYTES, WHATSAPP_WEBHOOK_PATH, whatsappNotification, whatsappWebhookRoutes } from './whatsapp-webhook.ts';

const APP_SECRET = 'test-app-secret';
const VERIFY_TOKEN = 'test-verify-token';

const statusCalls: ChannelStatus[][] = [];
const templateCalls: TemplateStatusUpdate[][] = [];
const logged: { level: string; obj: object; msg: string | undefined }[] = [];
/** What the next apply call throws, if anything. */
let failWith: Error | undefined;

const logger: Logger = {
  info: (obj, msg) => logged.push({ level: 'info', obj, msg }),
  warn: (obj, msg) => logged.push({ level: 'warn', obj, msg }),
  error: (obj, msg) => logged.push({ level: 'error', obj, msg }),
};

let base = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const app = createApp({
    store: createMemoryStore(),
    logger,
    config: { jwtSecret: 'test-jwt-secret-0123456789abcdef0123456789', adminTokenHash: 'x', rateLimitPerMinute: 0, webhookAllowPrivate: false },
    pages: (app, pageHeaders) =>
      whatsappWebhookRoutes(app, pageHeaders, {
        appSecret: APP_SECRET,
        verifyToken: VERIFY_TOKEN,
        logger,
        async applyStatuses(statuses) {
          if (failWith) throw failWith;
          statusCalls.push(statuses);
        },
        async applyTemplateUpdates(updates) {
          if (failWith) throw failWith;
          templateCalls.push(updates);
        },
      }),
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', ok));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}${WHATSAPP_WEBHOOK_PATH}`;
  close = () => new Promise((ok) => server.close(() => ok()));
});
afterAll(() => close());
beforeEach(() => {
  statusCalls.length = 0;
  templateCalls.length = 0;
  logged.length = 0;
  failWith = undefined;
});

const sign = (body: string | Buffer, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const post = (body: string, headers: Record<string, string> = { 'x-hub-signature-256': sign(body) }) =>
  fetch(base, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

const metadata = { display_phone_number: '15550783881', phone_number_id: '106540352242922' };
const statusesChange = (statuses: unknown[]) => ({ field: 'messages', value: { messaging_product: 'whatsapp', metadata, statuses } });
const notification = (...changes: unknown[]) => JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes }] });

const delivered = {
  id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3',
  status: 'delivered',
  timestamp: '1750263773',
  recipient_id: '16505551234',
  biz_opaque_callback_data: 'msg_0001',
  conversation: { id: 'CONVERSATION_ID', origin: { type: 'marketing' } },
  pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
};
const failed = {
  id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI4',
  status: 'failed',
  timestamp: '1750263774',
  recipient_id: '16505551235',
  errors: [
    {
      code: 131026,
      title: 'Message undeliverable',
      message: 'Message undeliverable',
      error_data: { details: 'Message Undeliverable.' },
      href: '/docs/whatsapp/cloud-api/support/error-codes/',
    },
  ],
};
const templateChange = (event: string, reason: string) => ({
  field: 'message_template_status_update',
  value: { event, message_template_id: 806312974732579, message_template_name: 'order_update', message_template_language: 'en_US', reason },
});

describe('the WhatsApp subscription handshake', () => {
  const handshake = (query: string) => fetch(`${base}?${query}`);

  it('answers 200 with the challenge, as text, when the mode and token are right', async () => {
    const res = await handshake(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
  });

  it('answers 403 given a wrong token or mode', async () => {
    const wrongToken = await handshake('hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1');
    expect(wrongToken.status).toBe(403);
    expect(await wrongToken.json()).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/hub\.verify_token/) });
    expect((await handshake(`hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)).status).toBe(403);
  });

  it('answers 400 naming the missing parameters', async () => {
    const res = await handshake(`hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ issues: [{ path: 'hub.challenge', message: 'is required' }] });
    expect((await handshake('')).status).toBe(400);
  });
});

describe('WhatsApp notifications', () => {
  it('apply every status of a notification in one call and its template reviews, mapped, then answer 200', async () => {
    const incoming = {
      field: 'messages',
      value: { messaging_product: 'whatsapp', metadata, messages: [{ from: '16505551234', id: 'wamid.IN', type: 'text' }] },
    };
    const body = notification(
      statusesChange([delivered]),
      incoming,
      { field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } },
      templateChange('APPROVED', 'NONE'),
      statusesChange([failed, { ...delivered, status: 'deleted' }]),
      templateChange('REJECTED', 'INCORRECT_CATEGORY'),
    );
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ statuses: 2, template_updates: 2, ignored: 3 });
    expect(statusCalls).toEqual([
      [
        { providerMessageId: delivered.id, messageId: 'msg_0001', status: 'delivered', at: '2025-06-18T16:22:53.000Z', error: null },
        {
          providerMessageId: failed.id,
          messageId: null,
          status: 'failed',
          at: '2025-06-18T16:22:54.000Z',
          error: { code: 131026, title: 'Message undeliverable' },
        },
      ],
    ]);
    expect(templateCalls).toEqual([
      [
        { wamId: '806312974732579', event: 'APPROVED', reason: null },
        { wamId: '806312974732579', event: 'REJECTED', reason: 'INCORRECT_CATEGORY' },
      ],
    ]);
  });

  it('pass duplicates through as they came (the domain tells them apart)', async () => {
    const body = notification(statusesChange([delivered, delivered]));
    expect((await post(body)).status).toBe(200);
    expect((await post(body)).status).toBe(200);
    expect(statusCalls.map((call) => call.length)).toEqual([2, 2]);
  });

  it('answer 200 and apply nothing given only incoming messages or other fields', async () => {
    const res = await post(
      notification({ field: 'messages', value: { messaging_product: 'whatsapp', metadata, messages: [] } }, { field: 'security', value: {} }),
    );
    expect(res.status).toBe(200);
    expect(statusCalls).toEqual([]);
    expect(templateCalls).toEqual([]);
  });

  it('answer 401 and apply nothing given a tampered body or another secret', async () => {
    const body = notification(statusesChange([delivered]));
    const tampered = await post(body.replace('delivered', 'read'), { 'x-hub-signature-256': sign(body) });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/does not match/) });
    expect((await post(body, { 'x-hub-signature-256': sign(body, 'another-secret') })).status).toBe(401);
    expect((await post(body, { 'x-hub-signature-256': sign(body).slice(0, -2) })).status).toBe(401);
    expect((await post(body, { 'x-hub-signature-256': sign(body).replace('sha256=', 'sha1=') })).status).toBe(401);
    expect(statusCalls).toEqual([]);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(4);
  });

  it('answer 401 without X-Hub-Signature-256', async () => {
    const res = await post(notification(statusesChange([delivered])), {});
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'X-Hub-Signature-256 is missing' });
    expect(statusCalls).toEqual([]);
  });

  it('answer 400 given a signed body that is not JSON', async () => {
    const res = await post('{"object": "whatsapp_business_account", ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error', message: 'Malformed JSON body' });
  });

  it('answer 400 naming the bad field', async () => {
    const res = await post(notification(templateChange('APPROVED', 'NONE'), statusesChange([{ ...delivered, timestamp: 'yesterday' }])));
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.issues[0]).toEqual({ path: 'entry.0.changes.1.value.statuses.0.timestamp', message: expect.any(String) });
    expect(answer.message).toMatch(/entry\.0\.changes\.1\.value\.statuses\.0\.timestamp/);
    expect(templateCalls).toEqual([]);
  });

  it('answer 503 with Retry-After when the store cannot reach its database, so Meta retries', async () => {
    failWith = new StoreUnavailableError('connection refused', { retryAfterS: 2 });
    const res = await post(notification(statusesChange([delivered])));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(await res.json()).toMatchObject({ code: 'database_unavailable' });
  });

  it('answer 500 and log the error when applying fails otherwise', async () => {
    failWith = new Error('a bug');
    const res = await post(notification(templateChange('APPROVED', 'NONE')));
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).not.toMatch(/a bug/);
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', obj: expect.objectContaining({ err: failWith }) }));
  });

  it('answer 413 past 1 MiB, declared or streamed, before looking at the signature', async () => {
    const big = JSON.stringify({ object: 'whatsapp_business_account', entry: [], pad: 'x'.repeat(WHATSAPP_WEBHOOK_MAX_BYTES) });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    // Without a declared length: the body is counted while it is read.
    const streamed = await new Promise<number>((ok, fail) => {
      const req = httpRequest(base, { method: 'POST', headers: { 'transfer-encoding': 'chunked', 'x-hub-signature-256': sign(big) } }, (res) => {
        res.resume();
        ok(res.statusCode ?? 0);
      });
      req.on('error', fail);
      for (let i = 0; i < big.length; i += 64 * 1024) req.write(big.slice(i, i + 64 * 1024));
      req.end();
    });
    expect(streamed).toBe(413);
    expect(statusCalls).toEqual([]);
  });
});

describe('whatsappNotification', () => {
  it('sets aside notifications of other objects, and reads a numeric timestamp or template id', () => {
    expect(whatsappNotification({ object: 'page', entry: [{ changes: [] }] })).toEqual({ statuses: [], templateUpdates: [], ignored: 1 });
    const read = { id: 'wamid.R', status: 'read', timestamp: 0 };
    expect(
      whatsappNotification({ object: 'whatsapp_business_account', entry: [{ changes: [statusesChange([read]), templateChange('PAUSED', 'Low quality')] }] }),
    ).toEqual({
      statuses: [{ providerMessageId: 'wamid.R', messageId: null, status: 'read', at: '1970-01-01T00:00:00.000Z', error: null }],
      templateUpdates: [{ wamId: '806312974732579', event: 'PAUSED', reason: 'Low quality' }],
      ignored: 0,
    });
  });
});
