/**
 * Hostile webhook targets: every form of an address that is not global unicast, IPv6 forms of private
 * IPv4 addresses among them, is refused at registration, on PATCH and at delivery, and a name that
 * resolves to a public address and then to a private one (DNS rebinding) is never connected to.
 */
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../runtime/src/http/auth.ts';
import { createRuntime } from '../../runtime/src/runtime.ts';
import { createMemoryStore } from '../../runtime/src/store/memory/store.ts';
import type { Store } from '../../runtime/src/store/ports.ts';
import type { WebhookTransport } from '../../runtime/src/webhooks/transport.ts';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { createNodeTransport } from '../src/webhooks/node-transport.ts';
import { sampleOrder } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

/** Hosts (with `PORT` where a receiver on 127.0.0.1 listens) that must never receive a webhook. */
const HOSTILE_HOSTS = [
  // IPv4-mapped, in the forms the URL parser rewrites (`::ffff:127.0.0.1` becomes `::ffff:7f00:1`).
  '[::ffff:127.0.0.1]:PORT',
  '[0:0:0:0:0:ffff:7f00:1]:PORT',
  '[::ffff:169.254.169.254]',
  '[::ffff:10.0.0.1]',
  '[::ffff:192.168.1.1]',
  // IPv4-compatible, NAT64 (well-known and local-use), 6to4 and Teredo.
  '[::7f00:1]:PORT',
  '[::127.0.0.1]:PORT',
  '[64:ff9b::7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::]',
  '[2002:a9fe:a9fe::1]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  // IPv6 outside global unicast, and special ranges inside it.
  '[fec0::1]',
  '[fd00::1]',
  '[fe80::1]',
  '[ff02::1]',
  '[::]',
  '[::1]:PORT',
  '[2001:db8::1]',
  '[2001:2::1]',
  // IPv4 ranges beyond private and loopback, and spellings the URL parser turns into 127.0.0.1.
  '0.0.0.0:PORT',
  '100.64.0.1',
  '192.0.2.1',
  '198.18.0.1',
  '224.0.0.1',
  '255.255.255.255',
  '2130706433:PORT',
  '0x7f.1:PORT',
  'localhost.:PORT',
];

const urlsFor = (port: number | string) => HOSTILE_HOSTS.map((host) => `http://${host.replace('PORT', String(port))}/hooks`);

async function companyApp() {
  const { fetch, store } = await inProcessApp();
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const company = (await (await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme' }) })).json()).data;
  const token = (await (await fetch(`/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' })).json()).data.token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return { fetch, store, company, headers };
}

describe('hostile webhook targets', () => {
  it('answer 400 naming url at registration, with a company token, and say which setting allows private targets', async () => {
    const { fetch, company, headers } = await companyApp();
    for (const url of urlsFor(3191)) {
      const res = await fetch(`/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url }) });
      expect(res.status, url).toBe(400);
      const { issues } = await res.json();
      expect(issues, url).toEqual([{ path: 'url', message: expect.stringMatching(/^must be a public address.*WEBHOOK_ALLOW_PRIVATE=1/) }]);
    }
    const list = await (await fetch(`/api/v2/companies/${company.uuid}/webhooks`, { headers })).json();
    expect(list.data).toEqual([]);
  });

  it('answer 400 naming url on PATCH, which leaves the endpoint where it was', async () => {
    const { fetch, company, headers } = await companyApp();
    const base = `/api/v2/companies/${company.uuid}/webhooks`;
    const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ url: 'https://hooks.example.com/x' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()).data;
    for (const url of urlsFor(3191)) {
      const res = await fetch(`${base}/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ url }) });
      expect(res.status, url).toBe(400);
      expect((await res.json()).issues[0], url).toMatchObject({ path: 'url', message: expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE=1/) });
    }
    expect((await (await fetch(`${base}/${id}`, { headers })).json()).data.url).toBe('https://hooks.example.com/x');
  });

  describe('at delivery', () => {
    const cleanups: (() => unknown)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** The runtime (app, dispatcher) on a memory store, with private targets refused, sending through `transport` (fetch when none). */
    async function runtimeWith(opts: { transport?: WebhookTransport; resolveHost?: (host: string) => Promise<string[]> }) {
      const store: Store = createMemoryStore();
      const runtime = createRuntime({
        store,
        config: {
          jwtSecret: 'test-jwt-secret-0123456789abcdef0123456789',
          adminTokenHash: hashToken(TEST_ADMIN_TOKEN),
          rateLimitPerMinute: 0,
          webhookAllowPrivate: false,
        },
        ...(opts.resolveHost ? { resolveHost: opts.resolveHost } : {}),
        webhooks: { retrySchedule: [0], pollIntervalMs: 50, ...(opts.transport ? { transport: opts.transport } : {}) },
      });
      await runtime.start();
      cleanups.push(() => runtime.close(1000));
      const fetch = (path: string, init?: RequestInit) => Promise.resolve(runtime.app.request(path, init));
      const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
      const company = (await (await fetch('/api/v2/companies', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Acme' }) })).json()).data;
      const token = (await (await fetch(`/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' })).json()).data.token;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const deliveries = async (endpointId: string) => (await store.listDeliveries(company.uuid, endpointId, { page: 1, limit: 10 })).items;
      const addOrder = (id: string) => fetch('/api/order/addOrder', { method: 'POST', headers, body: JSON.stringify(sampleOrder(company.company_id, id)) });
      return { store, fetch, company, headers, addOrder, deliveries };
    }

    for (const via of ['fetch', 'node:http'] as const) {
      it(`refuse every form, through ${via}, for endpoints stored while private targets were allowed: nothing reaches a receiver`, async () => {
        const receiver = await startReceiver();
        cleanups.push(receiver.close);
        const transport = via === 'node:http' ? createNodeTransport() : undefined;
        if (transport) cleanups.push(() => transport.close());
        const { store, company, addOrder, deliveries } = await runtimeWith(transport ? { transport } : {});
        const urls = urlsFor(new URL(receiver.url).port);
        const now = new Date().toISOString();
        for (const [i, url] of urls.entries()) {
          await store.createEndpoint({
            id: `wh_${i}`,
            company_uuid: company.uuid,
            url,
            description: '',
            events: [],
            enabled: true,
            disabled_reason: null,
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
            previous_secrets: [],
            created_at: now,
            updated_at: now,
          });
        }
        expect((await addOrder('ORD-1')).status).toBe(201);
        for (const [i, url] of urls.entries()) {
          const [delivery] = await vi.waitFor(
            async () => {
              const found = await deliveries(`wh_${i}`);
              if (found[0]?.status !== 'failed') throw new Error(`${url}: not failed yet`);
              return found;
            },
            { timeout: 10_000, interval: 20 },
          );
          expect(delivery?.attempts[0]?.error, url).toMatch(/^not sent: the URL must be a public address.*WEBHOOK_ALLOW_PRIVATE=1/);
        }
        expect(receiver.received).toEqual([]);
      });
    }

    it('refuse a name that resolved to a public address at registration and resolves to a private one at delivery (DNS rebinding)', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const asked: string[] = [];
      // Public to the first question, loopback to every one after.
      const answer = (host: string) => {
        asked.push(host);
        return asked.length === 1 ? '93.184.216.34' : '127.0.0.1';
      };
      const transport = createNodeTransport({ resolve: async (host): Promise<LookupAddress[]> => [{ address: answer(host), family: 4 }] });
      cleanups.push(() => transport.close());
      const { fetch, company, headers, addOrder, deliveries } = await runtimeWith({ transport, resolveHost: async (host) => [answer(host)] });
      const url = `http://rebind.test:${new URL(receiver.url).port}/hooks`;
      const created = await fetch(`/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()).data;
      expect((await addOrder('ORD-1')).status).toBe(201);
      const [delivery] = await vi.waitFor(
        async () => {
          const found = await deliveries(id);
          if (found[0]?.status !== 'failed') throw new Error('not failed yet');
          return found;
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(delivery?.attempts[0]?.error).toMatch(/^not sent: the URL must be a public address: rebind\.test resolves to 127\.0\.0\.1 \(loopback\)/);
      expect(receiver.received).toEqual([]);
      // Once at registration, once by the connection: the attempt resolved the name once, and connects only to what that answer said.
      expect(asked).toEqual(['rebind.test', 'rebind.test']);
    });
  });
});
