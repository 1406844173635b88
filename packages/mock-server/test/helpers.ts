import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreateCampaignBody } from '@engagekit/contract';

/** packages/mock-server/dist/cli.js, the `engagekit-mock` command as the package ships it (the tests' global setup builds it). */
export const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
/** packages/mock-server */
export const PACKAGE_DIR = new URL('..', import.meta.url).pathname;

/** A process started for a test. */
export interface MockProcess {
  url: string;
  output: () => string;
  child: ChildProcess;
  /** Sends the signal (SIGTERM) to the process (group, when detached) and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `command args` and waits for its `listening on http://...` line. `detached` puts it in its own
 * process group (for `pnpm ... start`, whose node child must stop with it).
 */
export async function startProcess(command: string, args: string[], opts: { env?: Record<string, string>; detached?: boolean; timeoutMs?: number } = {}) {
  const child = spawn(command, args, {
    cwd: PACKAGE_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached ?? false,
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        ok(m[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code} before it was ready:\n${out}`));
    });
  });
  const proc: MockProcess = {
    url,
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        if (opts.detached && child.pid) process.kill(-child.pid, signal);
        else child.kill(signal);
      }
      return exited;
    },
  };
  return proc;
}

/** `node dist/cli.js ...args` on a free port unless `--port` is given. */
export function startMockProcess(args: string[] = [], env: Record<string, string> = {}) {
  return startProcess(process.execPath, [CLI, ...(args.includes('--port') ? [] : ['--port', '0']), ...args], { env });
}

/** Runs the CLI to completion (for commands that exit), with its output. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: PACKAGE_DIR, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += String(d);
  });
  child.stderr.on('data', (d) => {
    output += String(d);
  });
  return new Promise((ok) => child.once('exit', (code) => ok({ code, output })));
}

/** One request a receiver got. */
export interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP receiver that records every request and answers with `status(index)` (200 by default). */
export async function startReceiver(status: (index: number) => number = () => 200) {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const index = received.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }) - 1;
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      res.writeHead(status(index), { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    /** Resolves once `n` requests have arrived; rejects after `timeoutMs`. */
    waitFor(n: number, timeoutMs = 10_000) {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${n} requests arrived in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** An order body the API accepts. */
export { sampleOrder as orderBody } from '../../reference-server/test/helpers.ts';

/** A campaign body the API accepts. */
export function campaignBody(name: string): CreateCampaignBody {
  return {
    name,
    schedule_type: 'once',
    schedule: '2030-01-15T10:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  };
}
