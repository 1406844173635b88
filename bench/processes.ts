/**
 * The bench's processes: starting the servers a row measures (its own scripts, the mock's command,
 * Prism), waiting until they answer, stopping them, and reading another process's CPU time and memory
 * from `/proc` without touching it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** Spawns a server and resolves once GET /api/v2/health on `port` answers 200, with the milliseconds that took. */
export async function spawnUntilHealthy(
  command: string,
  args: string[],
  port: number,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = spawn(command, args, { stdio: 'ignore', env: { ...process.env, ADMIN_TOKEN: 'bench-admin-token-0123456789', ...env } });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/health`);
      await res.arrayBuffer();
      if (res.status === 200) return { child, ms: performance.now() - t0 };
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command} ${args.join(' ')} did not answer in 30 s`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Stops `child` with SIGTERM; resolves once it has exited (at once when it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((ok) => {
    if (child.exitCode !== null) return ok();
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

const DOCUMENT = new URL('../packages/contract/openapi.yaml', import.meta.url).pathname;
const PRISM = new URL('node_modules/.bin/prism', import.meta.url).pathname;

/** `prism mock` serving the contract's document on a free port, until it answers. */
export async function startPrism(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { child } = await spawnUntilHealthy(PRISM, ['mock', DOCUMENT, '--port', String(port), '--host', '127.0.0.1', '-v', 'error'], port);
  return { url: `http://127.0.0.1:${port}`, child };
}

/** A bench server script running in a process of its own. */
export interface ScriptServer {
  url: string;
  /** Its process id, for `cpuSeconds`. */
  pid: number;
  stop(): Promise<void>;
}

/** Runs a bench server script (relative to this folder) in its own process, until it prints the URL it listens on. */
export async function startScriptServer(script: string, env: Record<string, string>): Promise<ScriptServer> {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m?.[1]) ok(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`${script} exited ${code}`)));
  });
  return {
    url,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((ok) => {
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

/** A bare node:http server in its own process answering every request with `body`: the peer of the server rows. */
export function startPeerServer(body: string, contentType = 'application/json'): Promise<ScriptServer> {
  return startScriptServer('./peer-server.ts', { PEER_BODY: body, PEER_TYPE: contentType });
}

/** Clock ticks a second of `/proc/<pid>/stat`'s CPU times (100 on Linux, asked once). */
let ticksPerSecond: number | undefined;

/**
 * CPU seconds (user + system, every thread) a process has used so far, from `/proc/<pid>/stat`: read
 * before and after a load, it gives another process's CPU without touching it. Null when the process
 * is gone or the system has no `/proc`.
 */
export function cpuSeconds(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // The command name (field 2) may hold spaces, so fields are counted after its closing parenthesis: utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** The pid of the process listening on `url`'s port (the reference server's child process). */
export function pidListeningOn(url: string): number {
  const port = new URL(url).port;
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(out);
  if (!m?.[1]) throw new Error(`no process found listening on port ${port}: ${out}`);
  return Number(m[1]);
}

/** VmRSS and VmHWM (peak) of a process, in MB, from /proc/<pid>/status. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}
