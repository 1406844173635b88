import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

/**
 * The app and its parts (main entry), the stores (`./store`), the embedded database's worker thread,
 * and the `engagekit-server` command.
 */
export default defineConfig([
  ...libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', store: 'src/store/index.ts', 'pglite-worker': 'src/store/sql/pglite-worker.ts' },
    workers: ['pglite-worker'],
  }),
  // PGlite loads its WebAssembly and runs dist/pglite-worker.js; pg may load pg-native; pino its transports.
  binBuild({ dir: import.meta.dirname, entry: 'src/main.ts', external: ['@electric-sql/pglite', 'pg', 'pino'] }),
]);
