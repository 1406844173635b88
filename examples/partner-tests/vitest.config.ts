import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'partner-tests',
    include: ['test/**/*.test.ts'],
    // Only because this example lives beside the packages' sources: build them when stale. A partner installs them from npm.
    globalSetup: ['../../scripts/build/ensure-built.ts', './test/shared-mock.ts'],
  },
});
