/**
 * The API reference at /docs in Chromium, served by the server process as a user runs it (no network
 * beyond loopback): it renders the document, shows the server it was loaded from and the SDK calls, and
 * offers none of the buttons for Scalar's hosted services.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser.ts';
import { type ServerProcess, startServerProcess } from './helpers.ts';

describe('the API reference in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServerProcess({ RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/docs`);
    await page.getByText('Create a campaign').first().waitFor({ timeout: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the document with the server it was loaded from as its one server', async () => {
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(document.servers).toEqual([{ url: server.url, description: expect.any(String) }]);
  });

  it('shows that server, not a fixed address', async () => {
    await expect.poll(async () => (await page.content()).includes(server.url), { timeout: 15_000 }).toBe(true);
    expect(await page.content()).not.toContain('{baseUrl}');
  });

  it('shows the SDK call of an operation', async () => {
    // biome-ignore lint/performance/useDomNodeTextContent: what is shown, as highlighted code reads
    await expect.poll(async () => (await page.locator('body').innerText()).includes('await client.agency.sync()'), { timeout: 15_000 }).toBe(true);
  });

  it('offers no buttons for hosted services (Ask AI, Generate MCP, Deploy)', async () => {
    // biome-ignore lint/performance/useDomNodeTextContent: what is shown, not text in hidden nodes
    const text = await page.locator('body').innerText();
    for (const label of ['Ask AI', 'Generate MCP', 'Deploy']) expect(text, label).not.toContain(label);
  });
});
