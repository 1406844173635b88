import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Prism version the contract is tested with. */
const PRISM_VERSION = '5.16.0';

/** What to tell a person whose install has no Prism. */
export const PRISM_MISSING = `The prism engine runs @stoplight/prism-cli, an optional peer dependency of @engagekit/mock-server, and it is not installed.
Install it beside the mock:  npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}   (or: pnpm add -D @stoplight/prism-cli@${PRISM_VERSION})
Or leave out --engine prism: the default memory engine is stateful and needs nothing more.`;

/** Prism's CLI script, resolved from `from` (default: this package), or null when Prism is not installed. */
export function findPrism(from: string = import.meta.url): string | null {
  try {
    const pkgPath = createRequire(from).resolve('@stoplight/prism-cli/package.json');
    const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: { prism?: string } }).bin?.prism;
    return bin ? join(dirname(pkgPath), bin) : null;
  } catch {
    return null;
  }
}

/** packages/contract/openapi.yaml, wherever the contract package is installed. */
function contractDocument(): string {
  return fileURLToPath(import.meta.resolve('@engagekit/contract/openapi.yaml'));
}

async function freePort(host: string): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, host, () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

const accepts = (port: number, host: string) =>
  new Promise<boolean>((ok) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });

/**
 * Starts `prism mock openapi.yaml` on the port (a free one for 0) and resolves once it accepts
 * connections. With a seed, Prism generates dynamic examples from it; without, it serves the
 * document's static examples.
 */
export async function startPrism(opts: { prismBin: string; port: number; host: string; seed: number | string | undefined; timeoutMs?: number }) {
  const port = opts.port === 0 ? await freePort(opts.host) : opts.port;
  const args = [opts.prismBin, 'mock', contractDocument(), '--port', String(port), '--host', opts.host, '-v', 'warn'];
  if (opts.seed !== undefined) args.push('--dynamic', '--seed', String(opts.seed));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode} before it was ready.`);
    if (await accepts(port, opts.host)) break;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Prism did not accept connections on ${opts.host}:${port} within ${(opts.timeoutMs ?? 30_000) / 1000} s.`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    exited,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
