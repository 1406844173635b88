/**
 * `engagekit-server` (`npx @engagekit/reference-server`; `pnpm start` in the repository): the reference
 * server. Reads the environment once (config.ts), migrates the database, prints the admin token and the
 * demo company, and serves until SIGTERM or SIGINT, when it answers not ready for DRAIN_DELAY_MS, then
 * drains in-flight requests and exits 0.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiVersion } from '@engagekit/contract';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}

const logger = pino({ level: config.LOG_LEVEL, base: { service: 'engagekit-reference-server' } });
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const server = await startServer(config, logger, version);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainDelayMs: config.DRAIN_DELAY_MS }, 'draining');
    const force = setTimeout(() => {
      logger.warn({}, 'in-flight requests did not finish in 10 s; exiting');
      process.exit(0);
    }, config.DRAIN_DELAY_MS + 10_000);
    force.unref();
    await server.close();
    process.exit(0);
  });
}

// Only now, with SIGTERM handled: a supervisor that stops the server as soon as it reads the ready line
// gets a drain and exit code 0.
for (const line of server.notices) console.log(line);
console.log(
  `engagekit reference server ${version}, API ${apiVersion} (${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${resolve(config.DATA_DIR)}`}) listening on ${server.url}`,
);
