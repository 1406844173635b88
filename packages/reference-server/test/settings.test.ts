/**
 * The settings page in a real browser: Debian's Chromium driven by playwright-core against the real
 * server, with a real receiver getting the test event. A screenshot is kept in test-results/.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/browser.ts';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'settings-admin-token-0123456789';
const ARTIFACTS = new URL('../test-results/', import.meta.url).pathname;

describe('the settings page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let token = '';
  let agencyOnly = '';
  let uuid = '';
  const violations: string[] = [];
  // The page marks itself aria-busy while a task (a save and the refresh after it) is under way.
  const settled = () => page.waitForSelector('body[aria-busy=false]', { state: 'attached' });

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServerProcess({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' });
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    uuid = (await (await fetch(`${server.url}/api/v2/companies`, { method: 'POST', headers: admin, body: '{"name":"Browser Co"}' })).json()).data.uuid;
    const issue = async (body: unknown) =>
      (await (await fetch(`${server.url}/api/v2/companies/${uuid}/tokens`, { method: 'POST', headers: admin, body: JSON.stringify(body) })).json()).data.token;
    token = await issue({});
    agencyOnly = await issue({ scopes: ['agency'] });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    // Every Content-Security-Policy violation, from the page's first script on, for the last test.
    await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}`),
      );
    });
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) violations.push(message.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('refuses a token that is not a company token, saying so', async () => {
    await page.goto(`${server.url}/settings`);
    await page.fill('#token', 'not-a-token');
    await page.click('#signin-form button[type=submit]');
    await expect.poll(() => page.textContent('#notice')).toContain('That is not a company token');
    expect(await page.isVisible('#main')).toBe(false);
  });

  it('refuses a company token without the orders scope, saying which scope webhooks need', async () => {
    await page.fill('#token', agencyOnly);
    await page.click('#signin-form button[type=submit]');
    await expect.poll(() => page.textContent('#notice')).toContain('this token lacks the orders scope, which webhooks need');
    expect(await page.isVisible('#main')).toBe(false);
  });

  it('signs in, adds an endpoint, shows and copies its secret, sends a test event, redelivers, edits and deletes', async () => {
    await page.fill('#token', token);
    await page.click('#signin-form button[type=submit]');
    await page.waitForSelector('#main:not([hidden])');
    expect(await page.textContent('#company')).toBe(uuid);

    // Add an endpoint for order.created only.
    await page.fill('#create input[name=url]', receiver.url);
    await page.fill('#create input[name=description]', 'warehouse');
    await page.check('#create input[value="order.created"]');
    await page.click('#create button[type=submit]');
    await settled();
    await page.waitForSelector('#detail:not([hidden]) #secret');
    const api = await (await fetch(`${server.url}/api/v2/companies/${uuid}/webhooks`, { headers: { authorization: `Bearer ${token}` } })).json();
    const endpoint = api.data[0];
    expect(endpoint).toMatchObject({ url: receiver.url, description: 'warehouse', events: ['order.created'] });
    expect(await page.textContent('#endpoints tbody')).toContain(receiver.url);

    // The secret is hidden until asked for, then shown and copied.
    expect(await page.textContent('#secret')).not.toContain('whsec_');
    await page.click('button[data-action=reveal]');
    expect(await page.textContent('#secret')).toBe(endpoint.secret);
    await page.click('button[data-action=copy]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(endpoint.secret);

    // A test event reaches the receiver, signed with that secret, and the log shows it.
    await page.click('button[data-action=test]');
    await receiver.waitFor(1);
    const first = receiver.received[0];
    const event = new Webhook(endpoint.secret).verify(first?.body ?? '', first?.headers as Record<string, string>) as { test: boolean; type: string };
    expect(event).toMatchObject({ test: true, type: 'order.created' });
    await expect
      .poll(
        async () => {
          await page.click('button[data-action=reload]');
          return page.textContent('#deliveries tbody');
        },
        { timeout: 10_000 },
      )
      .toContain('succeeded');
    await settled();

    // Redeliver: the same event id again.
    await page.click('#deliveries button[data-action=redeliver]');
    await receiver.waitFor(2);
    expect(receiver.received[1]?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    // The page re-renders the endpoint with both deliveries in its log before anything else is edited.
    await expect.poll(() => page.locator('#deliveries tbody tr[data-delivery]').count()).toBe(2);
    await settled();

    // Edit: subscribe to both events and disable.
    await page.check('#edit input[value="order.updated"]');
    await page.uncheck('#edit input[name=enabled]');
    await page.click('#edit button[type=submit]');
    await settled();
    expect(await page.textContent('#notice')).toBe('Saved.');
    const edited = await (
      await fetch(`${server.url}/api/v2/companies/${uuid}/webhooks/${endpoint.id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(edited.data).toMatchObject({ enabled: false, events: ['order.created', 'order.updated'] });
    expect(await page.textContent('#endpoints tbody')).toContain('disabled');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}settings.png`, fullPage: true });

    // Delete.
    await page.click('button[data-action=delete]');
    await settled();
    expect(await page.textContent('#endpoints tbody')).toContain('No endpoints yet.');
    expect(await page.isVisible('#detail')).toBe(false);
    const after = await (await fetch(`${server.url}/api/v2/companies/${uuid}/webhooks`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(after.data).toEqual([]);
  }, 60_000);

  it('keeps the person signed in across a reload, and signs out', async () => {
    await page.reload();
    await page.waitForSelector('#main:not([hidden])');
    await page.click('button[data-action=signout]');
    await page.waitForSelector('#signin:not([hidden])');
    expect(await page.isVisible('#main')).toBe(false);
  });

  it('is served with framing protection, nosniff and its policy, and reported no violation of it throughout', async () => {
    for (const path of ['/settings', '/settings/app.js', '/settings/app.css']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
    }
    expect(violations).toEqual([]);
  });
});
