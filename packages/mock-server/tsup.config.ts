import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

/**
 * The runtime-neutral core (main entry), the Node entry (`setupMockApi`), the browser entry
 * (`setupMockWorker`) and the `engagekit-mock` command. The reference server's app is built into the
 * mock rather than depended on: the mock needs its app and memory store, not its database drivers.
 */
export default defineConfig([
  ...libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', node: 'src/node.ts', browser: 'src/browser.ts' },
    inline: { '@engagekit/reference-server': '../reference-server/src/index.ts' },
    // zod's entry loads its 64 locales and the contract's all of zod: bundled, only the parts the mock
    // uses load. A Jest test file that loads the Node entry pays about a third less for it (the
    // `mock.load.vs-msw` row).
    bundle: ['zod', '@engagekit/contract'],
    // The browser entry runs in a bundler, which loads msw's ESM itself.
    cjsExternal: ['msw/browser'],
    // msw's interceptors read their HTTP parser's WebAssembly beside their module: beside node.cjs, once bundled.
    cjsAssets: [{ via: ['msw', '@mswjs/interceptors'], file: 'lib/node/llhttp/llhttp.wasm', to: 'llhttp/llhttp.wasm' }],
  }),
  binBuild({ dir: import.meta.dirname, entry: 'src/cli.ts' }),
]);
