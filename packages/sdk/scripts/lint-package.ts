/**
 * Lints the built package as it would be published: publint (exports, files, formats) and
 * @arethetypeswrong/cli (types resolve under node10, node16 CJS and ESM, and bundlers) on the packed
 * tarball. Run after `pnpm build`; exits non-zero when either complains.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

run(bin('publint'), ['--strict']);
const dir = mkdtempSync(join(tmpdir(), 'engagekit-sdk-pack-'));
try {
  // pnpm packs what pnpm publishes (workspace: ranges resolved); npm_execpath is pnpm when run as a script.
  const pnpm = process.env.npm_execpath?.includes('pnpm') ? process.env.npm_execpath : 'pnpm';
  const packArgs = ['pack', '--pack-destination', dir];
  if (pnpm.endsWith('.cjs') || pnpm.endsWith('.js')) run(process.execPath, [pnpm, ...packArgs]);
  else run(pnpm, packArgs);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`);
  run(bin('attw'), [join(dir, tarball)]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
