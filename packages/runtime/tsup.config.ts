import { defineConfig } from 'tsup';
import { libraryBuild } from '../../scripts/build/library.ts';

/** The runtime (main entry) and what a Store implementation builds on (`./store`). */
export default defineConfig(libraryBuild({ dir: import.meta.dirname, entry: { index: 'src/index.ts', store: 'src/store/index.ts' } }));
