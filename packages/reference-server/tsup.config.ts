import { defineConfig } from 'tsup';
import { binBuild, libraryBuild } from '../../scripts/build/library.ts';

/**
 * The OpenTelemetry packages tracing loads (src/tracing/start.ts): optional peer dependencies, never
 * bundled. `@opentelemetry/api` is bundled: prom-client loads it (a no-op until an SDK registers).
 */
const OPENTELEMETRY = [
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-undici',
  '@opentelemetry/sdk-node',
];

/**
 * The app and its parts (main entry), the stores (`./store`), the embedded database's worker thread,
 * and the `engagekit-server` command.
 */
export default defineConfig([
  ...libraryBuild({
    dir: import.meta.dirname,
    entry: { index: 'src/index.ts', store: 'src/store/index.ts', 'pglite-worker': 'src/store/sql/pglite-worker.ts' },
    workers: ['pglite-worker'],
  }),
  // PGlite loads its WebAssembly and runs dist/pglite-worker.js; pg may load pg-native; pino its transports.
  // OpenTelemetry patches pg and node:http through require hooks, and is installed only by those who trace.
  binBuild({ dir: import.meta.dirname, entry: 'src/main.ts', external: ['@electric-sql/pglite', 'pg', 'pino', ...OPENTELEMETRY] }),
]);
