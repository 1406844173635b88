import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mock-server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The reference server's app and the contract resolve to their builds: build them when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
