/**
 * Writes src/generated/paths.ts from packages/contract/openapi.yaml with openapi-typescript, so the
 * SDK's types are its own (the published .d.ts never imports @engagekit/contract).
 * `--check` writes nothing and exits 1 when the committed file differs from what the document generates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderPaths, SDK_PATHS_FILE } from './render-paths.ts';

const check = process.argv.includes('--check');
const content = await renderPaths();
let current = '';
try {
  current = readFileSync(SDK_PATHS_FILE, 'utf8');
} catch {}
if (current === content) {
  console.log('src/generated/paths.ts is up to date');
} else if (check) {
  console.error('src/generated/paths.ts is out of date: run `pnpm --filter @engagekit/sdk generate` and commit it.');
  process.exit(1);
} else {
  writeFileSync(SDK_PATHS_FILE, content);
  console.log('wrote src/generated/paths.ts');
}
