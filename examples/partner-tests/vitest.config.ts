import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'partner-tests',
    include: ['test/**/*.test.ts'],
    // Only because this example lives beside the SDK's sources: build it when stale. A partner installs it from npm.
    globalSetup: ['test/build-sdk.ts'],
  },
});
