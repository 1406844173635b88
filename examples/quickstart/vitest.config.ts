import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'quickstart',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Only because this example lives beside the packages' sources: build them when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
