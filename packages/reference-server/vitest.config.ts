import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'reference-server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The contract, and the SDK the webhook tests verify deliveries with, resolve to their builds.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
