/**
 * The browser entry in Chromium: `setupMockWorker` bundled for the browser (esbuild, platform browser:
 * a Node built-in anywhere in the graph fails the bundle), MSW's worker copied by `initWorker`, and a
 * page whose own fetch calls reach the mock.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/browser.ts';
import { initWorker } from '../src/cli/init.ts';
import type { BrowserWindow } from './fixtures/browser-app.ts';

let dir = '';
let server: Server;
let browser: Browser;
let page: Page;
let origin = '';
let inputs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engagekit-browser-'));
  const result = await build({
    entryPoints: [new URL('./fixtures/browser-app.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outfile: join(dir, 'app.js'),
    metafile: true,
    logLevel: 'silent',
  });
  inputs = Object.keys(result.metafile.inputs);
  initWorker(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>app</title><script type="module" src="/app.js"></script>');
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    try {
      const file = readFileSync(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': types[extname(path) || '.html'] ?? 'application/octet-stream' }).end(file);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(origin);
  await page.evaluate(() => (window as unknown as BrowserWindow).ready);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('setupMockWorker in Chromium', () => {
  it('bundles for the browser without Node built-ins', () => {
    expect(inputs.filter((i) => i.startsWith('node:') || /(^|\/)(pino|pg|@electric-sql|@hono\/node-server)\//.test(i))).toEqual([]);
    // The API itself, from the runtime package's build: a dependency, not a copy.
    expect(inputs.some((i) => i.includes('runtime/dist/index.js'))).toBe(true);
  });

  it('answers the page’s own fetch calls to the mock’s base URL through the service worker', async () => {
    const result = await page.evaluate(async () => {
      const { mock } = window as unknown as BrowserWindow;
      const headers = { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' };
      const added = await fetch('https://api.engagekit-browser.test/api/order/addOrder', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          company_id: mock.company.company_id,
          company_order_id: 'B-1',
          totalAmount: 10,
          firstName: 'Bea',
          phoneNumber: '+14155550100',
          postalCode: '1',
          streetAddress1: 'x',
        }),
      });
      const list = await fetch(`https://api.engagekit-browser.test/agency/getCustomers?uuid=${mock.company.uuid}`, { headers });
      const state = await mock.state();
      return {
        added: added.status,
        list: list.status,
        customers: ((await list.json()) as { total: number }).total,
        orders: state.orders.map((o) => o.company_order_id),
      };
    });
    expect(result).toEqual({ added: 201, list: 200, customers: 1, orders: ['B-1'] });
  });

  it('injects faults and delivers webhooks in the page', async () => {
    const result = await page.evaluate(async () => {
      const { mock } = window as unknown as BrowserWindow;
      const headers = { authorization: `Bearer ${mock.company.token}`, 'content-type': 'application/json' };
      mock.fail('getCampaignData', { status: 503 });
      const failed = await fetch(`https://api.engagekit-browser.test/agency/getCampaignData?uuid=${mock.company.uuid}`, { headers });
      const types: string[] = [];
      mock.onWebhook((w) => {
        types.push(w.event.type);
      });
      await fetch('https://api.engagekit-browser.test/api/order/updateOrder/B-1', {
        method: 'PUT',
        headers,
        body: JSON.stringify({ company_id: mock.company.company_id, companyOrderStatus: 'Shipped' }),
      });
      const webhook = await mock.waitForWebhook((w) => w.event.type === 'order.updated');
      return {
        failed: failed.status,
        code: ((await failed.json()) as { code: string }).code,
        signed: webhook.headers['webhook-signature']?.startsWith('v1,'),
        types,
      };
    });
    expect(result).toEqual({ failed: 503, code: 'unavailable', signed: true, types: ['order.updated'] });
  });

  it('leaves the page’s other requests alone', async () => {
    const status = await page.evaluate(async () => (await fetch('/index.html')).status);
    expect(status).toBe(200);
  });
});
