import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'whatsapp-emulator',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The command's test runs the built bin: build it when stale.
    globalSetup: ['../../scripts/build/ensure-built.ts'],
  },
});
