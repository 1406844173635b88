import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'runtime',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The contract resolves to its build: build it when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
