/**
 * The built ESM bundle in headless Chromium: a page served from 127.0.0.1 imports dist/index.js and
 * dist/webhooks.js and makes real calls. The reference server has no CORS, so the page's origin is a
 * small proxy that serves the page and the bundle and forwards API paths to the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/browser.ts';
import { packageDir } from '../../../scripts/build/ensure-built.ts';
import { type ServerProcess, startServerProcess } from '../../reference-server/test/helpers.ts';

const ADMIN_TOKEN = 'sdk-browser-admin-token-0123456789';
const SDK_DIR = packageDir('sdk');
const DIST_DIR = join(SDK_DIR, 'dist');
const OPENAPI_FETCH_ESM = join(SDK_DIR, 'node_modules', 'openapi-fetch', 'dist', 'index.mjs');

/** What the page does with the SDK; it leaves its findings in `window.__result`. Plain JS, run by the browser. */
const PAGE_SCRIPT = `
import { createClient, NotFoundError, EngageError } from '/sdk/index.js';
import { signWebhook, verifyWebhook } from '/sdk/webhooks.js';
const q = new URLSearchParams(location.search);
const out = {};
try {
  const client = createClient({ baseUrl: location.origin, token: q.get('token'), uuid: q.get('uuid') });
  const created = await client.campaigns.create({
    name: q.get('name'), schedule_type: 'once', schedule: '2030-01-15T10:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  });
  out.created = created;
  const first = await client.campaigns.list({ limit: 100 }).withResponse();
  out.listed = { status: first.status, ids: first.data.data.map((c) => c.id), total: first.data.total };
  out.iterated = [];
  for await (const c of client.campaigns.list({ limit: 1 })) out.iterated.push(c.name);
  const err = await client.campaigns.get('cmp_missing').catch((e) => e);
  out.error = { name: err.name, status: err.status, code: err.code, requestId: err.requestId, is: NotFoundError.is(err), base: EngageError.is(err) };
  const event = { id: 'evt_1', type: 'order.created', created_at: '2026-01-05T08:00:00.000Z', data: { order: {
    id: 'ord_1', company_id: 'ACME', company_order_id: 'ORD-1', phoneNumber: '+919800000001', totalAmount: 1, version: 1, products: [],
    created_at: '2026-01-05T08:00:00.000Z', updated_at: '2026-01-05T08:00:00.000Z' } } };
  const body = JSON.stringify(event);
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  out.verified = (await verifyWebhook(body, new Headers(await signWebhook(body, secret)), secret)).data.order.company_order_id;
  out.vector = (await signWebhook('{"test": 2432232314}', secret, { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330 }))['webhook-signature'];
} catch (e) {
  out.failure = String((e && e.stack) || e);
}
window.__result = out;
`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>engagekit SDK in a browser</title>
<script type="importmap">{ "imports": { "openapi-fetch": "/vendor/openapi-fetch.js" } }</script>
<script type="module">${PAGE_SCRIPT}</script>
</head><body></body></html>`;

/** Serves the page and the bundle, and forwards everything else to `api` (recording what it forwarded). */
async function startOrigin(api: string) {
  const forwarded: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  const target = new URL(api);
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const pathname = new URL(path, 'http://x').pathname;
    const send = (type: string, body: string | Buffer) => res.writeHead(200, { 'content-type': type }).end(body);
    if (pathname === '/') return send('text/html; charset=utf-8', PAGE);
    if (pathname === '/vendor/openapi-fetch.js') return send('text/javascript', readFileSync(OPENAPI_FETCH_ESM));
    const file = /^\/sdk\/([\w.-]+\.js)$/.exec(pathname)?.[1];
    if (file) return existsSync(join(DIST_DIR, file)) ? send('text/javascript', readFileSync(join(DIST_DIR, file))) : res.writeHead(404).end();
    if (pathname === '/favicon.ico') return res.writeHead(404).end();
    forwarded.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path, headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

describe('the SDK in headless Chromium', () => {
  let api: ServerProcess;
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  let browser: Browser;
  let company: { uuid: string; token: string };

  beforeAll(async () => {
    api = await startServerProcess({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: '1' });
    const admin = (path: string, body: unknown) =>
      fetch(api.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
        .then((r) => r.json() as Promise<{ data: Record<string, string> }>)
        .then((j) => j.data);
    const created = await admin('/api/v2/companies', { name: 'Browser Co' });
    const token = await admin(`/api/v2/companies/${created.uuid}/tokens`, {});
    company = { uuid: String(created.uuid), token: String(token.token) };
    origin = await startOrigin(api.url);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await origin?.close();
    await api?.stop();
  });

  it('creates a campaign and lists it through the built ESM bundle, with typed errors and Web Crypto webhooks', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    const name = `browser-${Date.now().toString(36)}`;
    await page.goto(`${origin.url}/?${new URLSearchParams({ token: company.token, uuid: company.uuid, name })}`);
    await page.waitForFunction(() => '__result' in window, undefined, { timeout: 20_000 });
    const result = (await page.evaluate('window.__result')) as Record<string, unknown> & {
      created: { id: string; name: string; status: string };
      listed: { status: number; ids: string[]; total: number };
    };

    expect(result.failure).toBeUndefined();
    // 404 answers show in the console as failed resources; anything else is a real error.
    expect(pageErrors.filter((e) => !e.includes('404'))).toEqual([]);
    expect(result.created).toMatchObject({ name, status: 'scheduled' });
    expect(result.listed).toEqual({ status: 200, ids: [result.created.id], total: 1 });
    expect(result.iterated).toEqual([name]);
    expect(result.error).toEqual({ name: 'NotFoundError', status: 404, code: 'not_found', requestId: expect.stringMatching(/^req_/), is: true, base: true });
    expect(result.verified).toBe('ORD-1');
    expect(result.vector).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');

    // The calls really went over HTTP from the page, with the SDK's headers.
    const create = origin.forwarded.find((f) => f.method === 'POST' && f.path.startsWith('/agency/createCampaign?'));
    expect(create?.path).toBe(`/agency/createCampaign?uuid=${company.uuid}`);
    expect(create?.headers.authorization).toBe(`Bearer ${company.token}`);
    expect(create?.headers['idempotency-key']).toMatch(/^engagekit-/);
    expect(origin.forwarded.filter((f) => f.method === 'GET' && f.path.startsWith('/agency/getCampaignData?')).length).toBeGreaterThanOrEqual(2);
    // And the server holds what the page created.
    const stored = await fetch(`${api.url}/agency/getCampaign/${result.created.id}?uuid=${company.uuid}`, {
      headers: { authorization: `Bearer ${company.token}` },
    });
    expect(((await stored.json()) as { data: { name: string } }).data.name).toBe(name);
    await page.close();
  }, 60_000);
});
