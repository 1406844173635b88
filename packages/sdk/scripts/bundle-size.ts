/**
 * What an entry of the built SDK costs an app, bundled as an app's bundler does: with everything it can
 * load, what it imports dynamically included (without code splitting, esbuild inlines a dynamic import;
 * with it, the chunk is fetched on first use, and the app pays for it then), minified, ESM, for the
 * neutral platform, and gzipped. The same as, from the repository root:
 *
 *   npx esbuild packages/sdk/dist/index.js --bundle --minify --format=esm --platform=neutral | gzip -9 | wc -c
 *
 * The package test holds the main entry to its budget with it, and the `sdk.size` benchmark rows report
 * every entry.
 */
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The main entry's budget in bytes, minified and gzipped, openapi-fetch and webhook verification included.
 * 10 KiB held every method up to the campaigns' pause, resume and cancel, which took it to 10.1 KiB.
 */
export const MAIN_BUDGET_BYTES = 10 * 1024 + 256;

/** `entry` (a file of the SDK's dist) bundled, minified and gzipped: its size and the files it pulled in. */
export async function bundleSize(distDir: string, entry: string): Promise<{ gzipped: number; inputs: string[] }> {
  const result = await build({
    entryPoints: [join(distDir, entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { gzipped: gzipSync(code, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}
