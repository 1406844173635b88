/**
 * Builds the published packages whose dist is missing or older than what it is built from, in
 * dependency order. Everything in this repository that imports a package by name (tests, examples,
 * `pnpm start`) gets its dist, as a user does, so this runs before them. Several test projects may
 * ask at once: a lock directory makes them take turns, and the later ones find the builds fresh.
 *
 * `node scripts/build/ensure-built.ts [package ...]` does the same from the command line.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The published packages, each after the ones it is built from (BUILT_FROM). */
export const PACKAGES = ['contract', 'sdk', 'runtime', 'reference-server', 'mock-server', 'mcp-server', 'whatsapp-emulator'] as const;
export type PackageName = (typeof PACKAGES)[number];

/** The packages a package is built from (whose builds must be fresh first). */
const BUILT_FROM: Record<PackageName, PackageName[]> = {
  contract: [],
  sdk: ['contract'],
  runtime: ['contract'],
  'reference-server': ['contract', 'runtime'],
  'mock-server': ['contract', 'runtime'],
  'mcp-server': ['contract', 'sdk'],
  // It stands alone: no package of ours.
  'whatsapp-emulator': [],
};

/** Files beyond those a package is built from whose content a build reads: the MCP server's docs index quotes the SDK's README. */
const READS: Partial<Record<PackageName, string[]>> = { 'mcp-server': [join('packages', 'sdk', 'README.md')] };

/** packages/<name> */
export const packageDir = (name: PackageName) => join(ROOT, 'packages', name);

function newestMtime(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((f) => newestMtime(join(path, f))));
}

function oldestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.min(Number.POSITIVE_INFINITY, ...readdirSync(path).map((f) => oldestMtime(join(path, f))));
}

/** Every file the package.json's `exports` name inside dist, and dist/cli.js, which its command imports. */
function declaredOutputs(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown; bin?: Record<string, string> };
  const found = new Set<string>(pkg.bin ? [join(dir, 'dist', 'cli.js')] : []);
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/')) found.add(join(dir, value));
    } else if (value && typeof value === 'object') {
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(pkg.exports);
  return [...found];
}

/** Whether the package's dist holds a complete build newer than everything it is built from. */
export function isFresh(name: PackageName): boolean {
  const dir = packageDir(name);
  const dist = join(dir, 'dist');
  if (!existsSync(dist) || !declaredOutputs(dir).every((f) => existsSync(f))) return false;
  const inputs = [
    join(dir, 'src'),
    join(dir, 'package.json'),
    join(dir, 'tsup.config.ts'),
    // What the build runs after tsup (the mock's documents, the MCP server's docs index).
    join(dir, 'scripts'),
    join(ROOT, 'scripts', 'build'),
    // A package bundles or inlines what it is built from: their builds, sources and the document.
    ...BUILT_FROM[name].flatMap((dep) => ['dist', 'src', 'openapi.yaml'].map((p) => join(packageDir(dep), p))),
    ...(READS[name] ?? []).map((p) => join(ROOT, p)),
  ];
  return Math.max(...inputs.map(newestMtime)) <= oldestMtime(dist);
}

/** While a build runs, how often `ensureBuilt({ progress })` says it still does. */
const HEARTBEAT_MS = 5_000;

/**
 * `pnpm build` of one package, its output shown only when it fails. With `progress`, a line when it
 * starts, one every few seconds while it runs, and one when it is done, so a first `pnpm start` is never
 * silent for long.
 */
export async function build(name: PackageName, progress = false): Promise<void> {
  const say = (line: string) => progress && console.log(`engagekit: ${line}`);
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  say(`building @engagekit/${name} (packages/${name}) ...`);
  const heartbeat = setInterval(() => say(`  still building @engagekit/${name} (${elapsed()})`), HEARTBEAT_MS);
  try {
    await new Promise<void>((resolve, reject) => {
      execFile('pnpm', ['run', 'build'], { cwd: packageDir(name), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (e, stdout, stderr) => {
        if (e) reject(new Error(`Building @engagekit/${name} failed (pnpm run build in packages/${name}):\n${stdout}${stderr}`));
        else resolve();
      });
    });
  } finally {
    clearInterval(heartbeat);
  }
  say(`  built @engagekit/${name} in ${elapsed()}`);
}

/** Builds the stale ones of `names` (default: all) and of the packages they are built from; `progress` says so as it goes. */
export async function ensureBuilt(names: readonly PackageName[] = PACKAGES, { progress = false } = {}): Promise<void> {
  const lock = join(ROOT, 'node_modules', '.engagekit-build.lock');
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
    const wanted = new Set(names.flatMap((n) => [n, ...BUILT_FROM[n]]));
    // PACKAGES lists each package after the ones it is built from.
    for (const name of PACKAGES.filter((n) => wanted.has(n))) {
      if (!isFresh(name)) await build(name, progress);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Vitest global setup: every package built before a test imports one. */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const asked = process.argv.slice(2) as PackageName[];
  for (const name of asked) if (!PACKAGES.includes(name)) throw new Error(`Unknown package ${name}: one of ${PACKAGES.join(', ')}`);
  await ensureBuilt(asked.length ? asked : PACKAGES, { progress: true });
}
