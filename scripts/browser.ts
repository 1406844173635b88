import { type Browser, chromium } from 'playwright-core';
import { chromiumPath } from './chromium.mjs';

/**
 * Headless Chromium as these machines allow it (root, no network beyond loopback); playwright gives it
 * a fresh profile. Without a Chromium it fails with the one line `scripts/bootstrap.sh` prints.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
