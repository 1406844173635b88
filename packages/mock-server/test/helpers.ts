import { type ChildProcess, spawn } from 'node:child_process';
import type { CreateCampaignBody } from '@engagekit/contract';
import type { MockApi } from '../src/index.ts';

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

/** The webhook receiver the reference server's tests use: one helper for both packages. */
export { startReceiver } from '../../runtime/test/receiver.ts';
/** An order body the API accepts. */
export { sampleOrder as orderBody } from '../../runtime/test/sample-order.ts';

/** A campaign body the API accepts. */
export function campaignBody(name: string): CreateCampaignBody {
  return {
    name,
    schedule_type: 'once',
    schedule: '2030-01-15T10:00:00Z',
    template_payload: { template_name: 'welcome', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
  };
}

/** Calls the API through `mock.fetch` as the company (or with `token`); the answer's `data`, or an Error naming the status and message. */
export function mockCaller(mock: Pick<MockApi, 'fetch' | 'company'>) {
  return async <T>(method: string, path: string, body?: unknown, token = mock.company.token): Promise<T> => {
    const res = await mock.fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: T; message: string };
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${json.message}`);
    return json.data;
  };
}
