import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

const pkg = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

/** The emulator (`createWhatsAppEmulator`) and the `engagekit-whatsapp-emulator` command. It depends on no package of ours. */
export default defineConfig([
  ...libraryBuild({ dir: import.meta.dirname, entry: { index: 'src/index.ts' } }),
  // The command loads zod from node_modules, as the entry does: one copy in the process.
  binBuild({ dir: import.meta.dirname, entry: 'src/cli.ts', external: Object.keys(pkg.dependencies) }),
]);
