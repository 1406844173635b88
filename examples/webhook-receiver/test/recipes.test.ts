/**
 * The receiver recipes (Express with `express.raw`, Hono, a fetch-style handler) on loopback, each sent
 * a real test event by the reference server: each verifies it against the raw body and hands over the
 * typed event, and refuses the same delivery with its body changed.
 */
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '@engagekit/sdk/webhooks';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../../packages/reference-server/test/helpers.ts';
import { expressReceiver } from '../recipes/express.ts';
import { fetchReceiver } from '../recipes/fetch-handler.ts';
import { honoReceiver } from '../recipes/hono.ts';

const ADMIN_TOKEN = 'recipes-example-admin-token';
const PATH = '/engagekit/webhooks';

type Recipe = (secret: string, handle: (event: WebhookEvent) => void) => Promise<{ url: string; close(): Promise<void> }>;

/** Each recipe served on a free loopback port. */
const recipes: Record<string, Recipe> = {
  express: async (secret, handle) => {
    const server = expressReceiver(secret, handle).listen(0, '127.0.0.1');
    await new Promise((ok) => server.once('listening', ok));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`, close: () => new Promise((ok) => server.close(() => ok())) };
  },
  hono: (secret, handle) => listen(honoReceiver(secret, handle).fetch),
  'fetch handler': (secret, handle) => listen(fetchReceiver(secret, handle)),
};

function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((ok) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      ok({ url: `http://127.0.0.1:${info.port}${PATH}`, close: () => new Promise((done) => server.close(() => done())) }),
    );
  });
}

describe('webhook receiver recipes against the reference server', () => {
  let server: ServerProcess;
  let uuid = '';
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()).data;
  };

  beforeAll(async () => {
    server = await startServerProcess({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' });
    uuid = (await api('POST', '/api/v2/companies', { name: 'Recipes Co' })).uuid;
  });

  afterAll(async () => {
    await server?.stop();
  });

  it.each(Object.keys(recipes))('%s: takes a delivery the server signed, and refuses it with its body changed', async (name) => {
    // The endpoint makes the secret, so the recipe starts after it and the endpoint is pointed at it then.
    const endpoint = await api('POST', `/api/v2/companies/${uuid}/webhooks`, { url: 'http://127.0.0.1:9/placeholder', enabled: false });
    const received: WebhookEvent[] = [];
    const raw: { body: string; headers: Record<string, string> }[] = [];
    const recipe = await (recipes[name] as Recipe)(endpoint.secret, (event) => void received.push(event));
    // A recording proxy in front of the recipe keeps the exact delivery, to replay it changed.
    const proxy = await listen(async (request) => {
      const body = await request.text();
      raw.push({ body, headers: Object.fromEntries(request.headers) });
      return fetch(recipe.url, { method: 'POST', headers: request.headers, body });
    });
    try {
      await api('PATCH', `/api/v2/companies/${uuid}/webhooks/${endpoint.id}`, { url: proxy.url, enabled: true });
      await api('POST', `/api/v2/companies/${uuid}/webhooks/${endpoint.id}/test`, { event_type: 'order.updated' });
      for (let i = 0; i < 600 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toEqual([expect.objectContaining({ type: 'order.updated', test: true })]);

      const delivery = raw[0] as { body: string; headers: Record<string, string> };
      const changed = delivery.body.replace('"order.updated"', '"order.created"');
      expect(changed).not.toBe(delivery.body);
      const refused = await fetch(recipe.url, { method: 'POST', headers: delivery.headers, body: changed });
      expect(refused.status).toBe(400);
      expect(received).toHaveLength(1);
    } finally {
      await proxy.close();
      await recipe.close();
    }
  });
});
