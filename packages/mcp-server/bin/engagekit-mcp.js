#!/usr/bin/env node
// The `engagekit-mcp` command: the server bundled into dist/cli.js by the package's build. A file of its
// own, so installing the workspace links the command before anything is built.
import module from 'node:module';

// Node keeps the bundle's compiled code in its compile cache, so each start after the first skips
// compiling it. Only what is imported after this line is cached.
module.enableCompileCache?.();
await import('../dist/cli.js');
