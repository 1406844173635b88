import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tarballSize } from './pack.ts';

const dir = mkdtempSync(join(tmpdir(), 'engagekit-tarball-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('counts the files of a gzipped tarball and their bytes, past directories, empty files and long names', () => {
  const pkg = join(dir, 'package');
  mkdirSync(join(pkg, 'dist', 'a-directory-whose-name-is-long-enough-to-need-more-than-the-hundred-bytes-of-a-header'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{}');
  writeFileSync(join(pkg, 'dist', 'empty.js'), '');
  writeFileSync(join(pkg, 'dist', 'block.js'), 'x'.repeat(513));
  writeFileSync(join(pkg, 'dist', 'a-directory-whose-name-is-long-enough-to-need-more-than-the-hundred-bytes-of-a-header', 'deep.d.ts'), 'y'.repeat(1024));
  const tarball = join(dir, 'package.tgz');
  execFileSync('tar', ['-czf', tarball, '-C', dir, 'package']);
  expect(tarballSize(tarball)).toEqual({ files: 4, unpackedBytes: 2 + 513 + 1024, packedBytes: statSync(tarball).size });
});
