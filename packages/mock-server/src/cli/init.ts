import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** MSW's service worker script, from the msw this package depends on (so worker and library versions match). */
export function workerScriptPath(): string {
  return fileURLToPath(import.meta.resolve('msw/mockServiceWorker.js'));
}

/**
 * Copies `mockServiceWorker.js` into a web app's public directory (created when missing), where
 * `setupMockWorker().start()` registers it from (`/mockServiceWorker.js`). Returns the file written.
 */
export function initWorker(publicDir: string): string {
  const dir = resolve(publicDir);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, 'mockServiceWorker.js');
  copyFileSync(workerScriptPath(), target);
  return target;
}
