import { defineProject } from 'vitest/config';

export default defineProject({
  // Limits a loaded machine cannot reach: the type-names tests build TypeScript programs, and Beside's start processes.
  test: { name: 'scripts', include: ['**/*.test.ts'], testTimeout: 30_000 },
});
