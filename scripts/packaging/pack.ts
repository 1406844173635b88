/**
 * Packs the published packages as `pnpm publish` would (workspace ranges turned into versions), one
 * tarball each, into a directory.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
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

/** What a tarball holds: its files, their bytes unpacked, and its own bytes. */
export interface TarballSize {
  files: number;
  unpackedBytes: number;
  packedBytes: number;
}

/**
 * Counts the regular files of a gzipped tarball and their bytes, from its 512-byte headers (the size
 * an octal field at byte 124, the type at byte 156): what the packaging test reports of each package,
 * read from the tarball it installs rather than packed again.
 */
export function tarballSize(file: string): TarballSize {
  const tar = gunzipSync(readFileSync(file));
  let files = 0;
  let unpackedBytes = 0;
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = Number.parseInt(
      tar
        .toString('latin1', at + 124, at + 136)
        .replace(/\0.*$/, '')
        .trim() || '0',
      8,
    );
    // npm's and pnpm's tarballs write sizes in octal; a base-256 size (files of 8 GiB and more) is not read.
    if (!Number.isFinite(size)) throw new Error(`${file}: a tar header at byte ${at} has a size this reader does not read`);
    const type = String.fromCharCode(tar[at + 156] ?? 0);
    if (type === '0' || type === '\0') {
      files++;
      unpackedBytes += size;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return { files, unpackedBytes, packedBytes: statSync(file).size };
}
