import { defineConfig } from 'tsup';
import { libraryBuild } from '../../scripts/build/library.ts';

/**
 * The four entries, for any runtime with fetch. Shared code (the error classes) is split into chunks
 * in both formats, so one process loading two entries gets one copy of each class.
 * `@engagekit/contract` is bundled into the validate entry (zod stays external: a peer dependency), and
 * its `paths` types, which every entry is typed by, into the declarations.
 */
export default defineConfig(
  libraryBuild({
    dir: import.meta.dirname,
    platform: 'neutral',
    entry: { index: 'src/index.ts', admin: 'src/admin.ts', webhooks: 'src/webhooks.ts', validate: 'src/validate.ts' },
    inline: { '@engagekit/contract': '../contract/src/index.ts', '@engagekit/contract/paths': '../contract/src/generated/paths.ts' },
  }),
);
