/**
 * The embedded database's thread failing for good in a running server process (its heap run out
 * under a huge result): the server logs it and exits with code 1, for its supervisor to start it
 * again, rather than answer 503 for ever. The process runs the server as `engagekit-server` does
 * (startServer, from the package's source), with a small heap for the database thread, and makes the
 * thread fail itself once it is listening.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from './helpers.ts';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const source = (path: string) => JSON.stringify(new URL(`../src/${path}`, import.meta.url).href);

/** A server as main.ts starts it, whose database thread has a 48 MiB heap and is given about 300 MB of rows once it listens. */
const SCRIPT = `
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { loadConfig } from ${source('config.ts')};
import { startServer } from ${source('server.ts')};
import { openSqlStore } from ${source('store/sql/open.ts')};

let store;
const server = await startServer(loadConfig(), pino({ level: 'warn' }), 'test', async (options) => (store = await openSqlStore({ ...options, maxHeapMb: 48 })));
console.log('listening on ' + server.url);
await store.db.execute(sql\`select repeat('x', 1000) as s from generate_series(1, 300000)\`).catch(() => {});
`;

describe('the embedded database thread failing for good', () => {
  it('is logged, and the server process exits with code 1', async () => {
    // Inside the package, so that its imports resolve to the package's dependencies.
    const dir = new URL('../node_modules/.cache/', import.meta.url).pathname;
    mkdirSync(dir, { recursive: true });
    const script = join(dir, `engagekit-pglite-failure-${process.pid}.mjs`);
    writeFileSync(script, SCRIPT);
    cleanups.push(() => rmSync(script, { force: true }));

    const server = await startServerProcess({ RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' }, 60_000, script);
    cleanups.push(() => server.stop('SIGKILL'));
    // The thread fails on its own once the server listens: SIGCONT changes nothing, and stop() waits for the exit.
    const exited = await Promise.race([server.stop('SIGCONT'), new Promise<string>((ok) => setTimeout(() => ok('still running after 60 s'), 60_000).unref())]);
    expect(exited, server.output()).toBe(1);
    expect(server.output()).toContain('the embedded database failed; stopping (exit code 1)');
    expect(server.output()).toMatch(/The database thread failed: .*memory/);
  }, 90_000);
});
