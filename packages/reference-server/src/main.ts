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
import type { Tracing } from './tracing/tracing.ts';

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
// Tracing, when asked for, starts before the server's code loads pg and node:http, which it patches;
// otherwise no OpenTelemetry code is loaded at all.
let tracing: Tracing | undefined;
if (config.OTEL_EXPORTER_OTLP_ENDPOINT || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  try {
    tracing = (await import('./tracing/start.ts')).startTracing(config.OTEL_SERVICE_NAME, version);
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    console.error(
      `OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry packages are not installed (${(e as Error).message.split('\n')[0]}). Install them beside the server:\n  npm install @opentelemetry/api @opentelemetry/sdk-node @opentelemetry/exporter-trace-otlp-http @opentelemetry/instrumentation-http @opentelemetry/instrumentation-pg @opentelemetry/instrumentation-undici`,
    );
    process.exit(2);
  }
}
const { startServer } = await import('./server.ts');
const server = await startServer(config, logger, version, undefined, undefined, tracing);

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
    await tracing?.shutdown().catch(() => {});
    process.exit(0);
  });
}

// Only now, with SIGTERM handled: a supervisor that stops the server as soon as it reads the ready line
// gets a drain and exit code 0.
for (const line of server.notices) console.log(line);
console.log(
  `engagekit reference server ${version}, API ${apiVersion} (${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${resolve(config.DATA_DIR)}`}) listening on ${server.url}`,
);
