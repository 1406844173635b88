import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

const pkg = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

/**
 * The runtime-neutral core (main entry), the Node entry (`setupMockApi`), the browser entry
 * (`setupMockWorker`) and the `engagekit-mock` command. The API itself is `@engagekit/runtime`, a
 * dependency: none of it is copied in.
 */
export default defineConfig([
  ...libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', node: 'src/node.ts', browser: 'src/browser.ts' },
    // The browser entry runs in a bundler, which loads ES modules: it has no CommonJS build.
    esmOnly: ['browser'],
    // msw's cookie store, which ships CommonJS of its own: required from node_modules (with the public
    // suffix list it loads) rather than copied into node.cjs; a dependency here, in msw's range.
    cjsRequired: ['tough-cookie'],
    // msw's interceptors read their HTTP parser's WebAssembly beside their module: beside node.cjs, once bundled.
    cjsAssets: [{ via: ['msw', '@mswjs/interceptors'], file: 'lib/node/llhttp/llhttp.wasm', to: 'llhttp/llhttp.wasm' }],
  }),
  // The command loads its dependencies from node_modules, as the entries do: a bundled copy of zod or
  // hono beside the runtime's own would be two copies in one process.
  binBuild({ dir: import.meta.dirname, entry: 'src/cli.ts', external: Object.keys(pkg.dependencies) }),
]);
