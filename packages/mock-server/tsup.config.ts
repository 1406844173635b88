import { defineConfig } from 'tsup';
import { libraryBuild } from '../../scripts/build/library.ts';

/**
 * The runtime-neutral core (main entry), the Node entry (`setupMockApi`), the browser entry
 * (`setupMockWorker`) and the `engagekit-mock` command, in one build: each format's entries share its
 * chunks, so a class (`MockDataError`, `MockNetworkError`, the mock's own) is one class whichever entry
 * a process loads it through.
 *
 * The mock carries the API it serves: the runtime, the contract, and the libraries they run on (zod,
 * hono, jose), tree-shaken into those chunks. A partner's test file (each Jest or Vitest file a fresh
 * module registry) then loads a few files rather than some two hundred modules from node_modules, whose
 * loading cost more CPU than their code (the `mock.first-answer.vs-msw` and `mock.load.vs-msw` rows,
 * and `mock.startup.vs-node-http` for the command). Nothing of the mock imports them from node_modules
 * any more, so a process holds one copy of each, the bundled one. They stay dependencies: the mock's
 * declarations name their types, and they are what it runs, at the versions it was built with.
 *
 * msw stays a dependency loaded from node_modules: a partner's suite combines `mock.handlers` with its
 * own msw (`server.use(...)`), which works only if both are the same copy. The CommonJS build carries
 * msw's code (it ships only ES modules), as before.
 */
export default defineConfig(
  libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', node: 'src/node.ts', browser: 'src/browser.ts', cli: 'src/cli.ts' },
    bundle: ['@engagekit/runtime', '@engagekit/contract', 'zod', 'hono'],
    // The browser entry runs in a bundler, which loads ES modules: it has no CommonJS build.
    esmOnly: ['browser'],
    commands: ['cli'],
    // msw's cookie store, which ships CommonJS of its own: required from node_modules (with the public
    // suffix list it loads) rather than copied into the CommonJS build; a dependency here, in msw's range.
    cjsRequired: ['tough-cookie'],
    // msw's interceptors read their HTTP parser's WebAssembly beside their module: beside the CommonJS
    // chunks, once bundled.
    cjsAssets: [{ via: ['msw', '@mswjs/interceptors'], file: 'lib/node/llhttp/llhttp.wasm', to: 'llhttp/llhttp.wasm' }],
  }),
);
