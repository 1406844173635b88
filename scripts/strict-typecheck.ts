/**
 * Typechecks every `.ts` file of `dir` (and below) under `strict`, as a user's project compiles them:
 * ES2022 modules resolved the bundler's way, DOM and Node types, and the global types of `types` beside
 * Node's (`vitest/globals` for a test file's `it` and `expect`). Writes `dir/tsconfig.json` and resolves
 * to what tsc printed: empty when everything typechecks. For tests that check generated code (client
 * generators' output, the API reference's code samples, the READMEs' code) against the packages as built.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

export async function strictTypecheck(dir: string, types: string[] = []): Promise<string> {
  const compilerOptions = {
    strict: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: ['node', ...types],
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts'] }));
  return promisify(execFile)(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: dir }).then(
    ({ stdout }) => stdout,
    (e: { stdout?: string; message?: string }) => e.stdout || String(e.message),
  );
}
