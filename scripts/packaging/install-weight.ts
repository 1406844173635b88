/**
 * What a user downloads: each of the installs a user makes (the SDK in an app, the mock and the SDK in a
 * test suite, the reference server for a deployment) from the packed tarballs, with npm, into a fresh
 * project of its own, beside its peer (msw@3 alone for the mock) in the same run. The packaging test
 * holds them to their limits; `pnpm bench` reports them as rows (`install.*`).
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Installs `specs` with npm into a new project under `dir` and weighs its node_modules; the project is removed after. */
export async function measureInstall(dir: string, install: InstallCase, env: NodeJS.ProcessEnv): Promise<InstallWeight> {
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
    return { packages, bytes: apparentSize(join(project, 'node_modules')), seconds };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** Megabytes, as the limits are written (10^6 bytes). */
export const megabytes = (bytes: number) => bytes / 1e6;
