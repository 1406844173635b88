import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'mock-server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // A project of their own (test/sessions/vitest.config.ts): one process for all of them, their files at once.
    exclude: [...configDefaults.exclude, 'test/sessions/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The reference server's app and the contract resolve to their builds: build them when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
