import { defineConfig } from 'tsup';
import { libraryBuild } from '../../scripts/build/library.ts';

/** The schemas and operation table (main entry), the document generator, and the `paths` types. */
export default defineConfig(
  libraryBuild({
    dir: import.meta.dirname,
    platform: 'neutral',
    entry: { index: 'src/index.ts', document: 'src/document.ts', paths: 'src/generated/paths.ts' },
  }),
);
