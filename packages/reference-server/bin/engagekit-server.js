#!/usr/bin/env node
// The `engagekit-server` command: the server bundled into dist/cli.js by the package's build. A file of
// its own, so installing the workspace links the command before anything is built.
import '../dist/cli.js';
