/**
 * The server mounts WhatsApp's webhook route with CHANNEL=whatsapp only, and hands what it receives
 * to the channel sink it was started with.
 */
import { createHmac } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChannelStatus, TemplateStatusUpdate } from '../../runtime/src/domain/channel.ts';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { freshDatabase } from './helpers.ts';

const skip = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set';
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const base = { PORT: '0', ADMIN_TOKEN: 'whatsapp-webhook-admin-token', DEMO_COMPANY: '0', LOG_LEVEL: 'silent' };
const whatsapp = {
  CHANNEL: 'whatsapp',
  WHATSAPP_ACCESS_TOKEN: 'EAAG-server-test',
  WHATSAPP_PHONE_NUMBER_ID: '1234567890',
  // Nothing is sent in this test: no campaign is made.
  WHATSAPP_API_URL: 'http://127.0.0.1:9/v21.0',
  WHATSAPP_APP_SECRET: 'server-test-app-secret',
  WHATSAPP_VERIFY_TOKEN: 'server-test-verify-token',
};

describe.skipIf(skip)('the reference server on PostgreSQL', () => {
  it('receives WhatsApp webhooks with CHANNEL=whatsapp and hands them to its channel sink', async () => {
    const db = await freshDatabase('wa_webhook');
    if (!db) throw new Error('DATABASE_URL is not set');
    cleanups.push(() => db.drop());
    const received: { statuses: ChannelStatus[][]; templates: TemplateStatusUpdate[][] } = { statuses: [], templates: [] };
    const server = await startServer(loadConfig({ ...base, ...whatsapp, DATABASE_URL: db.url }), pino({ level: 'silent' }), 'test', undefined, () => ({
      async applyStatuses(statuses) {
        received.statuses.push(statuses);
      },
      async applyTemplateUpdates(updates) {
        received.templates.push(updates);
      },
    }));
    cleanups.push(() => server.close());
    const url = `${server.url}/channels/whatsapp/webhook`;

    const handshake = await fetch(`${url}?hub.mode=subscribe&hub.verify_token=${whatsapp.WHATSAPP_VERIFY_TOKEN}&hub.challenge=42`);
    expect(await handshake.text()).toBe('42');
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            { field: 'messages', value: { statuses: [{ id: 'wamid.1', status: 'read', timestamp: '1750263773', biz_opaque_callback_data: 'msg_1' }] } },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', whatsapp.WHATSAPP_APP_SECRET).update(body).digest('hex')}`;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
    expect(res.status).toBe(200);
    expect(received.statuses).toEqual([[{ providerMessageId: 'wamid.1', messageId: 'msg_1', status: 'read', at: '2025-06-18T16:22:53.000Z', error: null }]]);
  });

  it('has no such route with the simulated channel', async () => {
    const db = await freshDatabase('wa_webhook_sim');
    if (!db) throw new Error('DATABASE_URL is not set');
    cleanups.push(() => db.drop());
    const server = await startServer(loadConfig({ ...base, DATABASE_URL: db.url }), pino({ level: 'silent' }), 'test');
    cleanups.push(() => server.close());
    expect((await fetch(`${server.url}/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`)).status).toBe(404);
  });
});
