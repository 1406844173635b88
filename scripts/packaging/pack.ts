/**
 * Packs the published packages as `pnpm publish` would (workspace ranges turned into versions), one
 * tarball each, into a directory.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES, type PackageName, packageDir } from '../build/ensure-built.ts';

/** Tarball path by package. */
export type Tarballs = Record<PackageName, string>;

/** `pnpm pack` of every published package into `dir` (run after the build). */
export function packAll(dir: string): Tarballs {
  const tarballs = {} as Tarballs;
  for (const name of PACKAGES) {
    const before = new Set(readdirSync(dir));
    execFileSync('pnpm', ['pack', '--pack-destination', dir], { cwd: packageDir(name), stdio: 'pipe' });
    const made = readdirSync(dir).filter((f) => f.endsWith('.tgz') && !before.has(f));
    if (made.length !== 1) throw new Error(`pnpm pack in packages/${name} wrote ${made.length} tarballs into ${dir}`);
    tarballs[name] = join(dir, made[0] as string);
  }
  return tarballs;
}
