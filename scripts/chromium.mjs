/**
 * Where the browser tests find Chromium, and the one line that says what to do when they cannot.
 * Plain JavaScript, so `scripts/bootstrap.sh` can ask with any Node: `node scripts/chromium.mjs`
 * prints the path and exits 0, or prints that line and exits 1.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's package puts it here; `CHROMIUM_PATH` names another. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** The line bootstrap prints and the browser tests fail with when there is no Chromium. */
export function chromiumHint(path = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM) {
  return `No Chromium at ${path}: install Debian's package (apt-get install -y chromium, as root) or set CHROMIUM_PATH to a Chromium or Chrome binary.`;
}

/** Thrown by `chromiumPath()`: its stack is its message alone, so a test runner shows one line, not a trace. */
export class ChromiumMissingError extends Error {
  constructor() {
    super(chromiumHint());
    this.name = 'ChromiumMissingError';
    this.stack = this.message;
  }
}

/** The Chromium binary the browser tests launch; throws `ChromiumMissingError` when there is none. */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (!existsSync(path)) throw new ChromiumMissingError();
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(chromiumPath());
  } catch (e) {
    console.log(e instanceof ChromiumMissingError ? e.message : String(e));
    process.exitCode = 1;
  }
}
