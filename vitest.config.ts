import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'packages/mock-server/test/sessions/vitest.config.ts', 'examples/*/vitest.config.ts', 'scripts/vitest.config.ts'],
  },
});
