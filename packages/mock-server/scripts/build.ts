/**
 * Bundles the `engagekit-mock` CLI into dist/cli.js: one plain-JavaScript file, so the bin starts
 * without loading and type-stripping hundreds of TypeScript modules.
 */
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Some bundled dependencies are CommonJS and call require().
  banner: { js: "import { createRequire as __engagekitRequire } from 'node:module'; const require = __engagekitRequire(import.meta.url);" },
  logLevel: 'warning',
});
