import { defineConfig } from 'tsup';

/**
 * ESM + CJS + self-contained .d.ts for the three entries. Shared code (the error classes) is split into
 * chunks in both formats, so one process loading two entries gets one copy of each class.
 * `@engagekit/contract` is bundled into the validate entry (zod stays external: a peer dependency).
 */
export default defineConfig({
  entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts', validate: 'src/validate.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['@engagekit/contract'],
  external: ['zod', 'openapi-fetch'],
});
