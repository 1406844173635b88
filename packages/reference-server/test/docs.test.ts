/**
 * The API reference at /docs in Chromium, served by the server process as a user runs it (no network
 * beyond loopback): it renders the document, shows the server it was loaded from and the SDK calls, and
 * offers none of the buttons for Scalar's hosted services. Its Content-Security-Policy lets all that
 * through (no violation reported, no console error) and keeps the page out of frames.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../scripts/browser.ts';
import { type ServerProcess, startServerProcess } from './helpers.ts';

describe('the API reference in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  /** What the page reported from its first script on: CSP violations, console errors, uncaught errors. */
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.exposeFunction('reportViolation', (text: string) => problems.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(text: string): void }).reportViolation(
          `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`,
        ),
      );
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
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

  it('answers with framing protection, nosniff, and a policy that allows this server alone and the start script by its hash', async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    // No script but this server's and the start script, and no other origin for anything.
    expect(/script-src [^;]*/.exec(policy)?.[0]).not.toMatch(/unsafe/);
    expect(policy).not.toMatch(/unsafe-eval|https?:|\*/);
    expect((await fetch(`${server.url}/docs/scalar.js`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('renders under that policy with no violation reported and no console error', async () => {
    // The page has rendered (beforeAll) and shown its operations and code samples (the tests above).
    await page.getByText('Create a campaign').first().click();
    // Scalar's styles applied.
    const rules = await page.evaluate(() => (document.getElementById('scalar-style') as HTMLStyleElement | null)?.sheet?.cssRules.length ?? 0);
    expect(rules).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('stays out of frames', async () => {
    const framing = await browser.newPage();
    try {
      const blocked = new Promise<string>((ok) =>
        framing.on('console', (message) => {
          if (/frame-ancestors|Refused to (display|frame)/.test(message.text())) ok(message.text());
        }),
      );
      await framing.setContent(`<iframe src="${server.url}/docs"></iframe>`);
      expect(await blocked).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
      const frame = framing.frames().find((f) => f !== framing.mainFrame());
      expect(await frame?.locator('#app').count()).toBe(0);
    } finally {
      await framing.close();
    }
  });
});
