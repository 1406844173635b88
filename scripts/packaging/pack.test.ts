import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { scratchFiles } from '../scratch-files.ts';
import { tarballSize } from './pack.ts';

it('counts the files of a gzipped tarball and their bytes, past directories, empty files and long names', () => {
  const long = 'a-directory-whose-name-is-long-enough-to-need-more-than-the-hundred-bytes-of-a-header';
  const dir = scratchFiles('engagekit-tarball-', {
    'package/package.json': '{}',
    'package/dist/empty.js': '',
    'package/dist/block.js': 'x'.repeat(513),
    [`package/dist/${long}/deep.d.ts`]: 'y'.repeat(1024),
  });
  const tarball = join(dir, 'package.tgz');
  execFileSync('tar', ['-czf', tarball, '-C', dir, 'package']);
  expect(tarballSize(tarball)).toEqual({ files: 4, unpackedBytes: 2 + 513 + 1024, packedBytes: statSync(tarball).size });
});
