#!/usr/bin/env node
// The `engagekit-whatsapp-emulator` command: the emulator bundled into dist/cli.js by the package's build. A
// file of its own, so installing the workspace links the command before anything is built.
import module from 'node:module';

module.enableCompileCache?.();
await import('../dist/cli.js');
