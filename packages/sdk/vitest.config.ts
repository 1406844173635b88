import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'sdk',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The built package is what the smoke, size and browser tests check: build it when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json', ignoreSourceErrors: true },
  },
});
