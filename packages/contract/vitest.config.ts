import { defineProject } from 'vitest/config';

export default defineProject({
  // A limit a loaded machine cannot reach: the document tests build the whole OpenAPI document.
  test: { name: 'contract', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000 },
});
