/**
 * `pnpm build` of a published package: empties its dist, then runs tsup with the package's
 * tsup.config.ts (its ESM and CommonJS builds run side by side, so neither may clean), then writes the
 * CommonJS build's declarations from the ESM build's (`cjs-declarations.ts`).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeCjsDeclarations } from './cjs-declarations.ts';

const dir = process.cwd();
rmSync(join(dir, 'dist'), { recursive: true, force: true });
// tsup exports no subpaths: find its CLI beside its package.json.
const tsup = join(createRequire(join(dir, 'package.json')).resolve('tsup/package.json'), '..', 'dist', 'cli-default.js');
execFileSync(process.execPath, [tsup, ...process.argv.slice(2)], { cwd: dir, stdio: 'inherit' });
writeCjsDeclarations(join(dir, 'dist'));
