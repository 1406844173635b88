/**
 * What a user downloads: each of the installs a user makes (the SDK in an app, the mock and the SDK in a
 * test suite, the reference server for a deployment) from the packed tarballs, with npm, into a fresh
 * project of its own, beside its peer (msw@3 alone for the mock) in the same run. The packaging test
 * holds them to their limits; `pnpm bench` reports them as rows (`install.*`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PackageName, packageDir } from '../build/ensure-built.ts';
import { run } from './commands.ts';

/** What one install brought. */
export interface InstallWeight {
  /** Packages under node_modules, nested ones included (`npm ls --all --parseable`, the project itself left out). */
  packages: number;
  /** Apparent size of node_modules in bytes (as `du -sb` counts it). */
  bytes: number;
  /** Wall time of `npm install`, in seconds. */
  seconds: number;
}

/** An install a user makes: what they name to npm, the tarballs standing for our packages. */
export interface InstallCase {
  /** Row id, e.g. `install.mock+sdk`. */
  id: string;
  /** Arguments to `npm install`: tarball paths or registry specs. */
  specs: string[];
  /** `-D`, as a test suite's dependencies are added. */
  dev?: boolean;
}

/** Apparent size of everything under `path`, as `du -sb` counts it (files and directories, links not followed). */
export function apparentSize(path: string): number {
  const s = statSync(path, { throwIfNoEntry: false, bigint: false });
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  let total = s.size;
  for (const entry of readdirSync(path)) total += apparentSize(join(path, entry));
  return total;
}

/**
 * Installs `specs` with npm into a new project under `dir` and weighs its node_modules; `then`, when
 * given, runs in the project before it is removed.
 */
export async function measureInstall(
  dir: string,
  install: InstallCase,
  env: NodeJS.ProcessEnv,
  then?: (project: string) => Promise<void>,
): Promise<InstallWeight> {
  const project = join(dir, install.id.replace(/[^a-z0-9.+-]/gi, '_'));
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'weighed-app', version: '1.0.0', private: true }, null, 2)}\n`);
  try {
    const t0 = performance.now();
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...(install.dev ? ['-D'] : []), ...install.specs], { cwd: project, env });
    const seconds = (performance.now() - t0) / 1000;
    const { stdout } = await run('npm', ['ls', '--all', '--parseable'], { cwd: project, env });
    // The first line is the project itself; one line per installed copy after it.
    const packages = new Set(stdout.trim().split('\n').slice(1)).size;
    const weight = { packages, bytes: apparentSize(join(project, 'node_modules')), seconds };
    await then?.(project);
    return weight;
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** Megabytes, as the limits are written (10^6 bytes). */
export const megabytes = (bytes: number) => bytes / 1e6;

/** The peer of the mock's install: MSW alone, which a partner would otherwise add to a test suite. */
export const MSW_PEER = 'msw@3';

/** What each install may weigh, held by the packaging test and reported by `pnpm bench` (rows `install.*`). */
export const INSTALL_LIMITS = {
  /** `npm install @engagekit/sdk` in an app. */
  sdk: { maxPackages: 5, maxBytes: 2e6 },
  /** `npm install -D @engagekit/mock-server @engagekit/sdk` in a test suite: against `msw@3` alone in the same run. */
  mockAndSdk: { maxPackages: 65, maxBytesVsMsw: 2.0, maxSecondsVsMsw: 1.5 },
  /** `npm install @engagekit/reference-server` for a deployment. */
  server: { maxPackages: 100, maxBytes: 100e6 },
} as const;

/** `@engagekit/*` packages `name` depends on at run time, itself first, each once. */
export function withOwnDependencies(name: PackageName): PackageName[] {
  const found: PackageName[] = [];
  const visit = (n: PackageName) => {
    if (found.includes(n)) return;
    found.push(n);
    const pkg = JSON.parse(readFileSync(join(packageDir(n), 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) if (dep.startsWith('@engagekit/')) visit(dep.slice('@engagekit/'.length) as PackageName);
  };
  visit(name);
  return found;
}

/**
 * The installs a user makes, from the tarballs. What our packages depend on of ours comes from its
 * tarball too (npm would fetch it from the registry), so it is weighed as a user gets it.
 */
export function userInstalls(tarballs: Record<PackageName, string>): {
  sdk: InstallCase;
  msw: InstallCase;
  mockAndSdk: InstallCase;
  server: InstallCase;
  mcp: InstallCase;
} {
  const specs = (...names: PackageName[]) => [...new Set(names.flatMap(withOwnDependencies))].map((n) => tarballs[n]);
  return {
    sdk: { id: 'install.sdk', specs: specs('sdk') },
    msw: { id: 'install.msw', specs: [MSW_PEER], dev: true },
    mockAndSdk: { id: 'install.mock+sdk', specs: specs('mock-server', 'sdk'), dev: true },
    server: { id: 'install.server', specs: specs('reference-server') },
    mcp: { id: 'install.mcp', specs: specs('mcp-server') },
  };
}

/** What is over its limit in the weighed installs (deterministic figures only: packages and bytes); empty when all hold. */
export function overLimits(w: { sdk: InstallWeight; msw: InstallWeight; mockAndSdk: InstallWeight; server: InstallWeight }): string[] {
  const over: string[] = [];
  const mb = (bytes: number) => `${megabytes(bytes).toFixed(1)} MB`;
  const { sdk, mockAndSdk, server } = INSTALL_LIMITS;
  if (w.sdk.packages > sdk.maxPackages) over.push(`install.sdk: ${w.sdk.packages} packages, more than ${sdk.maxPackages}`);
  if (w.sdk.bytes > sdk.maxBytes) over.push(`install.sdk: ${mb(w.sdk.bytes)}, more than ${mb(sdk.maxBytes)}`);
  if (w.mockAndSdk.packages > mockAndSdk.maxPackages) over.push(`install.mock+sdk: ${w.mockAndSdk.packages} packages, more than ${mockAndSdk.maxPackages}`);
  const ratio = w.mockAndSdk.bytes / w.msw.bytes;
  if (ratio > mockAndSdk.maxBytesVsMsw)
    over.push(`install.mock+sdk: ${mb(w.mockAndSdk.bytes)}, ${ratio.toFixed(2)}x ${MSW_PEER}'s ${mb(w.msw.bytes)}, more than ${mockAndSdk.maxBytesVsMsw}x`);
  if (w.server.packages > server.maxPackages) over.push(`install.server: ${w.server.packages} packages, more than ${server.maxPackages}`);
  if (w.server.bytes > server.maxBytes) over.push(`install.server: ${mb(w.server.bytes)}, more than ${mb(server.maxBytes)}`);
  return over;
}
