/**
 * What an entry of the built SDK costs an app: bundled with everything it imports statically,
 * minified for the browser and gzipped. What it imports dynamically is left out: a bundler splits it
 * into a chunk of its own, fetched only when called (`webhooks.unwrap` loads the webhooks entry on first
 * use, a low-level client's first request loads openapi-fetch). The package test holds the main entry
 * to its budget with it, and the `sdk.size` benchmark row reports it.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/** The main entry's budget in bytes, minified and gzipped. */
export const MAIN_BUDGET_BYTES = 6 * 1024;

const lazyImportsExternal: Plugin = {
  name: 'lazy-imports-external',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined));
  },
};

/** `entry` (a file of the SDK's dist) bundled, minified and gzipped: its size and the files it pulled in. */
export async function bundleSize(distDir: string, entry: string): Promise<{ gzipped: number; inputs: string[] }> {
  const result = await build({
    plugins: [lazyImportsExternal],
    entryPoints: [join(distDir, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { gzipped: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}
