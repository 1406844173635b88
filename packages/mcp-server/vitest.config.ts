import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mcp-server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The tests drive the built package (its docs index lives in dist), the SDK and the mock: build them when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
