/**
 * Running commands for the packaging test: one that must exit 0 (`run`), and one that keeps running,
 * a server (`start`). A failure is a StepError naming the command line, with the tail of its output.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';

/** A command that failed: its line and what it printed. */
export class StepError extends Error {}

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs `command` in `cwd` with `env`; rejects with a StepError naming the command line and its output. */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Run> {
  const line = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, stderr });
        const why = err.killed ? `timed out after ${(options.timeoutMs ?? 300_000) / 1000} s` : `exited with ${err.code ?? err.signal}`;
        reject(new StepError(`\`${line}\` (in ${options.cwd}) ${why}:\n${tail(`${stdout}\n${stderr}`)}`));
      },
    );
  });
}

/** The command `name` that npm installed into `project` (its node_modules/.bin). */
export const installedBin = (project: string, name: string) => join(project, 'node_modules', '.bin', name);

export const tail = (text: string, lines = 60) => text.trim().split('\n').slice(-lines).join('\n');

/** A long-running command (a server), with its output so far and a way to stop it. */
export interface Started {
  line: string;
  child: ChildProcess;
  output(): string;
  /** The first match of `pattern` in its stdout; rejects if it exits or `timeoutMs` passes first. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Sends SIGTERM; resolves to the exit code. */
  stop(): Promise<number | null>;
}

export function start(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Started {
  const line = [command, ...args].join(' ');
  // A group of its own: `npx` runs the bin under npm and a shell, and SIGTERM to npm alone would
  // leave the bin running. Stopping signals the whole group, as a terminal's Ctrl-C does.
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    line,
    child,
    output: () => out,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new StepError(`\`${line}\` printed no ${pattern} in ${timeoutMs / 1000} s:\n${tail(out)}`)), timeoutMs);
        const check = () => {
          const m = pattern.exec(out);
          if (m) {
            clearTimeout(timer);
            child.stdout?.off('data', check);
            resolve(m);
          }
        };
        child.stdout?.on('data', check);
        check();
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new StepError(`\`${line}\` exited with ${code} before printing ${pattern}:\n${tail(out)}`));
        });
      });
    },
    async stop() {
      signalGroup(child.pid, 'SIGTERM');
      const code = await exited;
      // npm may be gone while the bin it started still drains: wait for the whole group.
      for (let waited = 0; signalGroup(child.pid, 0); waited += 100) {
        if (waited > 15_000) signalGroup(child.pid, 'SIGKILL');
        await new Promise((r) => setTimeout(r, 100));
      }
      return code;
    },
  };
}

/**
 * On Ctrl-C or SIGTERM: `cleanup` (synchronous, as the process exits right after), then the exit code
 * of a process that signal ended (130, 143).
 */
export function onStopSignal(cleanup: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanup(signal);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Signals the process group led by `pid`; false when the group is gone. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (!pid) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
