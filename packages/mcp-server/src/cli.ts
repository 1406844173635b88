#!/usr/bin/env node
/**
 * `engagekit-mcp`: the engagekit MCP server. On stdio (the default) stdout carries the protocol, so
 * everything else goes to stderr. With `--transport http` it prints a line containing
 * `listening on http://HOST:PORT/mcp`. SIGTERM and SIGINT close it and exit 0; a configuration it
 * cannot run exits 2 with a message saying what to change.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type CliConfig, ConfigError, readConfig, USAGE } from './config.ts';
import { serveHttp } from './http.ts';
import { RehearsalUnavailableError } from './internal/rehearsal.ts';
import { createEngageMcpServer, DEFAULT_LIMITS } from './server.ts';

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};

let config: CliConfig;
try {
  config = readConfig(process.argv.slice(2), process.env);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  fail(e.message);
}
config ??= { kind: 'help' };

if (config.kind === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const engage = createEngageMcpServer(config.kind === 'serve' ? config.server : {});
if (config.kind === 'version') {
  process.stdout.write(`${engage.version}\n`);
  process.exit(0);
}
if (config.kind !== 'serve') process.exit(0);

try {
  await engage.start();
} catch (e) {
  if (!(e instanceof RehearsalUnavailableError)) throw e;
  fail(e.message);
}

const { server } = config;
const limits = server.limits ?? {};
const docsOnly = server.tools && !server.tools.includes('execute');
process.stderr.write(
  docsOnly
    ? `engagekit-mcp ${engage.version}: search_docs only (no code runs, no API is reached)\n`
    : `engagekit-mcp ${engage.version}: ${server.target === 'mock' ? 'every run against an in-process mock' : `runs against ${server.api?.baseUrl}`}${server.readOnly ? ', read-only' : ''}, limits ${(limits.timeMs ?? DEFAULT_LIMITS.timeMs) / 1000} s, ${Math.round((limits.memoryBytes ?? DEFAULT_LIMITS.memoryBytes) / 2 ** 20)} MB, ${limits.maxCalls ?? DEFAULT_LIMITS.maxCalls} calls a run, answers up to ${limits.maxAnswerChars ?? DEFAULT_LIMITS.maxAnswerChars} characters\n`,
);

let close: () => Promise<void>;
if (config.transport === 'http') {
  const serving = await serveHttp(engage, { host: config.host, port: config.port });
  close = async () => {
    await serving.close();
    await engage.close();
  };
  console.log(`engagekit-mcp listening on ${serving.url}`);
} else {
  const transport = new StdioServerTransport();
  close = () => engage.close();
  // The client closing stdin ends the session, and the process with it.
  process.stdin.once('end', () => void close().then(() => process.exit(0)));
  await engage.connect(transport);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    await close();
    process.exit(0);
  });
}
