#!/usr/bin/env node
// The `engagekit-mock` bin: the bundled CLI when built (`pnpm --filter @engagekit/mock-server build`), else its sources.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url);
await import(existsSync(dist) ? dist.href : new URL('../src/cli.ts', import.meta.url).href);
