/**
 * Writes openapi.yaml and src/generated/paths.ts from the zod contract.
 * `--check` writes nothing and exits 1 when either file differs from what the schemas generate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderGeneratedFiles } from '../render.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const check = process.argv.includes('--check');

let drift = false;
for (const [rel, content] of Object.entries(await renderGeneratedFiles())) {
  const file = join(root, rel);
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current === content) continue;
  if (check) {
    drift = true;
    console.error(`${rel} is out of date: run \`pnpm --filter @engagekit/contract generate\` and commit it.`);
  } else {
    writeFileSync(file, content);
    console.log(`wrote ${rel}`);
  }
}
if (drift) process.exit(1);
