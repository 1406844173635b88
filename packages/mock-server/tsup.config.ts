import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

/**
 * The runtime-neutral core (main entry), the Node entry (`setupMockApi`), the browser entry
 * (`setupMockWorker`) and the `engagekit-mock` command with its memory engine. The reference server's app is built into the
 * mock rather than depended on: the mock needs its app and memory store, not its database drivers.
 */
export default defineConfig([
  ...libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', node: 'src/node.ts', browser: 'src/browser.ts' },
    inline: { '@engagekit/reference-server': '../reference-server/src/index.ts' },
    // The browser entry runs in a bundler, which loads msw's ESM itself.
    cjsExternal: ['msw/browser'],
    // msw's interceptors read their HTTP parser's WebAssembly beside their module: beside node.cjs, once bundled.
    cjsAssets: [{ via: ['msw', '@mswjs/interceptors'], file: 'lib/node/llhttp/llhttp.wasm', to: 'llhttp/llhttp.wasm' }],
  }),
  binBuild({ dir: import.meta.dirname, entry: 'src/cli.ts' }),
  // The memory engine the command loads (src/cli/code-cache.ts): one CommonJS file, so V8 can start it
  // from a code cache, which it keeps for scripts and not for ES modules. Without whitespace and
  // comments (names kept), a third less to read, hash and scan at every start.
  {
    ...binBuild({ dir: import.meta.dirname, entry: 'src/cli/http-mode.ts' }),
    name: 'bin-memory-engine',
    entry: { 'cli-memory-engine': 'src/cli/http-mode.ts' },
    format: 'cjs',
    banner: {},
    minifyWhitespace: true,
    minifySyntax: true,
  },
]);
