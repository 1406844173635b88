import { defineProject } from 'vitest/config';

/**
 * The sessions of one `engagekit-mock` process: five files at once, each in a session of its own, and a
 * Python client over HTTP. A project of its own, so that its files run in parallel (as a partner's
 * suite does against one shared mock) and its process starts only when these files run.
 */
export default defineProject({
  test: {
    name: 'mock-sessions',
    include: ['*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    maxWorkers: 6,
    // The command as the package ships it (dist/cli.js): build it when stale, then start one process for every file.
    globalSetup: ['../../../../scripts/build/ensure-built.ts', './global-setup.ts'],
  },
});
