import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const runtimeSource = (file: string) => fileURLToPath(new URL(`../runtime/src/${file}`, import.meta.url));

export default defineProject({
  // The SQL store builds on the runtime's store interface; the runtime's shared suites run here on
  // it. Both take the runtime from its source, so a test holds one copy of its classes (the built
  // package is what the server's command runs, which the end-to-end tests start).
  resolve: {
    alias: [
      { find: /^@engagekit\/runtime$/, replacement: runtimeSource('index.ts') },
      { find: /^@engagekit\/runtime\/store$/, replacement: runtimeSource('store/index.ts') },
    ],
  },
  test: {
    name: 'reference-server',
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      // The runtime's shared suites, on this package's stores (test/sql-stores.ts names them).
      '../runtime/test/store/conformance.test.ts',
      '../runtime/src/domain/orders.test.ts',
      '../runtime/src/domain/campaigns.test.ts',
      '../runtime/src/domain/campaign-control.test.ts',
      '../runtime/src/domain/campaign-runs-refusals.test.ts',
    ],
    setupFiles: ['test/sql-stores.ts'],
    // PGlite runs on a thread of its own in each store these tests open, many to a process: V8's
    // write protection of code pages (memory protection keys) has aborted such a process with
    // "Check failed: jit_page.has_value()" while threads made and freed WebAssembly code. The tests
    // run without it; a server's one PGlite thread is not that churn.
    execArgv: ['--no-memory-protection-keys'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The contract, and the SDK the webhook tests verify deliveries with, resolve to their builds.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
