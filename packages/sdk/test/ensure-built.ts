/**
 * Builds packages/sdk (generate + tsup) when dist is missing or older than its sources. Several test
 * projects may ask at once: a lock directory makes them take turns, and the later ones find it fresh.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/sdk */
export const SDK_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** packages/sdk/dist */
export const DIST_DIR = join(SDK_DIR, 'dist');

const OUTPUTS = ['index', 'webhooks', 'validate'].flatMap((e) => [`${e}.js`, `${e}.cjs`, `${e}.d.ts`, `${e}.d.cts`]);

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((f) => newestMtime(join(path, f))));
}

function isFresh(): boolean {
  const outputs = OUTPUTS.map((f) => join(DIST_DIR, f));
  if (!outputs.every((f) => existsSync(f))) return false;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const sources = ['src', 'package.json', 'tsup.config.ts', '../contract/openapi.yaml'].map((p) => newestMtime(join(SDK_DIR, p)));
  return Math.max(...sources) <= built;
}

/** Makes sure dist holds a build of the current sources. */
export async function ensureBuilt(): Promise<void> {
  const lock = join(SDK_DIR, 'node_modules', '.ensure-built.lock');
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than five minutes belongs to a run that died.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (waited > 300_000 || age > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (isFresh()) return;
    const node = process.execPath;
    execFileSync(node, ['scripts/generate.ts'], { cwd: SDK_DIR, stdio: 'pipe' });
    execFileSync(node, [join(SDK_DIR, 'node_modules/tsup/dist/cli-default.js')], { cwd: SDK_DIR, stdio: 'pipe' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
