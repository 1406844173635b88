#!/usr/bin/env node
/**
 * `engagekit-mock`: the HTTP mock (memory engine: the reference app on an in-memory store; prism
 * engine: Prism on openapi.yaml), and `engagekit-mock init <publicDir>` for the browser worker.
 * Prints the tokens and the company, then a line containing `listening on http://HOST:PORT`.
 * SIGTERM and SIGINT stop it and exit 0.
 */
import { initWorker } from './cli/init.ts';
import { type CliCommand, CliUsageError, parseCli, USAGE } from './cli/options.ts';
import { findPrism, PRISM_MISSING, startPrism } from './cli/prism.ts';

let command: CliCommand;
try {
  command = parseCli(process.argv.slice(2), process.env);
} catch (e) {
  if (!(e instanceof CliUsageError)) throw e;
  console.error(e.message);
  process.exit(2);
}

if (command.kind === 'help') {
  console.log(USAGE);
  process.exit(0);
}

if (command.kind === 'init') {
  const written = initWorker(command.publicDir);
  console.log(`Wrote ${written}. setupMockWorker().start() registers it from /mockServiceWorker.js.`);
  process.exit(0);
}

let close: () => Promise<void>;
/** What to print once SIGTERM is handled: the notices, then the ready line. */
let ready: string[];
let stopping = false;
if (command.engine === 'prism') {
  const prismBin = findPrism();
  if (!prismBin) {
    console.error(PRISM_MISSING);
    process.exit(2);
  }
  // Prism listens on a free port of loopback; the port asked for is the front's, which refuses session prefixes.
  const prism = await startPrism({ prismBin, port: 0, host: '127.0.0.1', seed: command.seed });
  const { servePrismFront } = await import('./cli/prism-front.ts');
  const front = await servePrismFront({ host: command.host, port: command.port, prismUrl: prism.url });
  ready = [
    'Prism answers with the examples of openapi.yaml: no state, no control endpoints, no sessions, any bearer token is accepted.',
    `engagekit mock (prism engine${command.seed !== undefined ? `, seed ${command.seed}` : ''}) listening on ${front.url}`,
  ];
  close = async () => {
    await front.close();
    await prism.close();
  };
  void prism.exited.then((code) => {
    if (stopping) return;
    console.error(`Prism exited (${code}).`);
    process.exit(code ?? 1);
  });
} else {
  // Loaded only here: the app and its contract are what make the other commands slow to start.
  const { serveMemoryMock } = await import('./cli/http-mode.ts');
  let running: Awaited<ReturnType<typeof serveMemoryMock>>;
  try {
    running = await serveMemoryMock(command);
  } catch (e) {
    // Sample data that cannot load: the message names the file, the place in it and the problem.
    if ((e as Error)?.name !== 'MockDataError') throw e;
    console.error((e as Error).message);
    process.exit(2);
  }
  ready = [...running.notices, `engagekit mock (memory engine${command.seed !== undefined ? `, seed ${command.seed}` : ''}) listening on ${running.url}`];
  close = running.close;
}

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

// Only now, with SIGTERM handled: a test that stops the mock as soon as it reads the ready line gets exit code 0.
for (const line of ready) console.log(line);
