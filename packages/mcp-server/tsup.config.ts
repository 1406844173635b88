import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

/**
 * The server as a library (main entry: `createEngageMcpServer`) and the `engagekit-mcp` command.
 * scripts/build-index.ts then writes dist/docs-index.json beside them.
 */
export default defineConfig([
  ...libraryBuild({ dir: import.meta.dirname, entry: { index: 'src/index.ts' } }),
  // QuickJS loads its WebAssembly file from its own package; the mock (an optional peer) is loaded only
  // when a rehearsal needs it, from wherever the user installed it.
  binBuild({
    dir: import.meta.dirname,
    entry: 'src/cli.ts',
    external: ['@jitl/quickjs-wasmfile-release-sync', '@engagekit/mock-server'],
  }),
]);
