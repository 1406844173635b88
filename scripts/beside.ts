/**
 * A command that runs beside the others of `pnpm test` (scripts/test.ts). What it prints is held until
 * it joins the run, then printed at once, and as it comes from then on. A command started with
 * `waitsForGo` reads a line on stdin before its second half, which `join()` sends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { signalGroup } from './packaging/commands.ts';

export interface BesideOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The command reads a line on stdin before going on; `join()` sends it. */
  waitsForGo?: boolean;
  /** Where held and later output goes (the terminal's stdout unless given). */
  out?: NodeJS.WritableStream;
  /** Called when the command fails (a nonzero exit, a signal) before it joined, with what it printed. */
  onEarlyFailure?: (job: Beside, code: number | null, printed: string) => void;
}

export class Beside {
  readonly name: string;
  readonly child: ChildProcess;
  /** Its exit code (null after a signal). */
  readonly exited: Promise<number | null>;
  readonly #started = performance.now();
  readonly #held: Buffer[] = [];
  readonly #out: NodeJS.WritableStream;
  #joined = false;
  #endedAt: number | undefined;

  constructor(name: string, command: string, args: string[], options: BesideOptions = {}) {
    this.name = name;
    this.#out = options.out ?? process.stdout;
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.waitsForGo ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      // A group of its own, so that stop() reaches what it started (npm, apt-get) too.
      detached: true,
    });
    const take = (chunk: Buffer) => {
      if (this.#joined) this.#out.write(chunk);
      else this.#held.push(chunk);
    };
    // A command that ended before its go: the go goes nowhere.
    this.child.stdin?.on('error', () => {});
    this.child.stdout?.on('data', take);
    this.child.stderr?.on('data', take);
    this.exited = new Promise((resolve) => {
      this.child.on('error', (e) => {
        take(Buffer.from(`${command}: ${e.message}\n`));
        resolve(127);
      });
      // 'close': its output has all been read.
      this.child.on('close', (code) => resolve(code));
    });
    this.exited.then((code) => {
      this.#endedAt = performance.now();
      if (code !== 0 && !this.#joined) options.onEarlyFailure?.(this, code, this.printed());
    });
  }

  /** What it printed so far and holds. */
  printed(): string {
    return Buffer.concat(this.#held).toString();
  }

  /**
   * Prints what it held under a line naming it, sends the go when it waits for one, and waits for its
   * end; rejects unless it exits 0.
   */
  async join(): Promise<void> {
    const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const ran = this.#endedAt === undefined ? `for ${s(performance.now() - this.#started)} so far` : `took ${s(this.#endedAt - this.#started)}`;
    this.#out.write(`\n> ${this.name} (beside the checks above; ${ran})\n`);
    this.#out.write(this.printed());
    this.#held.length = 0;
    this.#joined = true;
    this.child.stdin?.end('go\n');
    const code = await this.exited;
    if (code !== 0) throw new Error(`${this.name} failed (exit ${code ?? 'by a signal'})`);
  }

  /** Signals its process group (SIGTERM unless told), unless it has ended. */
  stop(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) signalGroup(this.child.pid, signal);
  }
}
