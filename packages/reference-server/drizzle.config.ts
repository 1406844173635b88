/**
 * drizzle-kit configuration: `pnpm --filter @engagekit/reference-server db:generate` writes a new
 * versioned SQL migration to `drizzle/` from the schema. The store applies them when it opens.
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/sql/schema.ts',
  out: './drizzle',
  strict: true,
});
