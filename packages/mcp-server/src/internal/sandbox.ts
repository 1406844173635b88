/**
 * The sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten, its synchronous release build).
 * Code in it has its own heap inside the WebAssembly module's memory and the ECMAScript built-ins, and
 * reaches the host only through the functions a run hands its prelude. Node's `vm` shares the host's
 * heap and engine; this does not.
 *
 * Each run gets a fresh QuickJS runtime and context (memory limit, stack limit, an interrupt handler
 * with a deadline) on one shared WebAssembly module. Host functions answer synchronously or with a
 * promise; the run drives the sandbox's job queue itself, waking when a host promise settles.
 */
import {
  type CustomizeVariantOptions,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';

/** A host function: JSON text in (its arguments), JSON text out, at once or later. */
export type HostFunction = (argsJson: string) => string | Promise<string>;

/** What a run may use. */
export interface SandboxLimits {
  /** Wall time of the whole run, host calls included, in milliseconds. */
  timeMs: number;
  /** The sandbox's heap, in bytes. */
  memoryBytes: number;
}

/**
 * Why a run was ended from outside the code: a limit of the engine (`time`, `memory`, `stack`), a code
 * waiting on nothing (`deadlock`), or a host function's `stop` (`calls`: the call limit; `read-only`: a
 * write refused). Told apart by `kind`, never by the message.
 */
export interface Breach {
  kind: 'time' | 'memory' | 'stack' | 'deadlock' | 'calls' | 'read-only';
  message: string;
}

/** An error the code threw (or a call rejected with), as the sandbox described it. */
export interface ThrownError {
  name: string;
  message: string;
  stack?: string;
  [key: string]: unknown;
}

/** How a run ended. */
export type RunOutcome = { kind: 'returned'; json: string } | { kind: 'threw'; error: ThrownError } | { kind: 'breach'; breach: Breach };

/** What one run evaluates. */
interface RunSpec {
  /**
   * JavaScript source of a function `(host, setup) => finish`: it installs the globals, and `finish`
   * turns the code's promise into a promise of one JSON text. See prelude.ts.
   */
  prelude: string;
  /** The host functions the prelude gets, as properties of its `host` argument. */
  host: Record<string, HostFunction>;
  /** JSON the prelude gets as `setup`. */
  setup: unknown;
  /** The code: a script whose value is a promise (the wrapped async function, called). */
  code: string;
  /** The file name errors and stacks give the code. */
  filename: string;
  limits: SandboxLimits;
  /** Set by a host function to end the run (a policy breach): checked between jobs and by the interrupt handler. */
  control: RunControl;
}

/** Lets host functions end a run, and carries its abort signal to the calls they make. */
export class RunControl {
  #breach: Breach | undefined;
  readonly #abort = new AbortController();
  readonly #inflight = new Set<Promise<unknown>>();
  #wake: (() => void) | undefined;

  /** Aborted once the run is over and its calls in flight had their time (`finish`): host work still going should stop. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The breach that ended the run, if one did. */
  get breach(): Breach | undefined {
    return this.#breach;
  }

  /** Ends the run with `breach` (the first one counts). */
  stop(breach: Breach): void {
    this.#breach ??= breach;
    this.#wake?.();
  }

  /** Called once the run is over and its calls had their time to end: what is still in flight is aborted. */
  finish(): void {
    this.#abort.abort(new Error('The run is over.'));
  }

  /** Keeps count of host work the run started (a call, a clock move), which may outlive it. */
  track(work: Promise<unknown>): void {
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work)).catch(() => {});
  }

  /** Resolves once the host work the run started has ended: what follows it should not overlap it. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inflight]);
  }

  /** @internal The run's loop waits on this. */
  set wake(fn: (() => void) | undefined) {
    this.#wake = fn;
  }
}

/**
 * Emscripten's own error printer, silenced: a runtime that ran out of memory can fail its leak check as
 * it is freed, and Emscripten would print that abort to stderr. The run has ended with its limit by
 * then, and the module is replaced (see `run`); the server's stderr is for its own lines.
 * (`emscriptenModule`'s properties go to Emscripten as they are; `printErr` is one of its settings.)
 */
const QUIET: CustomizeVariantOptions = { emscriptenModule: { printErr: () => {} } as CustomizeVariantOptions['emscriptenModule'] };

/** The variant a module namespace holds: its default export, or the default's (as ESM and CommonJS builds wrap it). */
function variantOf(m: unknown): QuickJSSyncVariant {
  let v = m as { type?: unknown; default?: unknown };
  while (v && v.type === undefined && v.default) v = v.default as typeof v;
  return v as unknown as QuickJSSyncVariant;
}

/** QuickJS's own recursion limit, in bytes of its stack: below the depth at which the host's stack would overflow first. */
const MAX_STACK_BYTES = 256 * 1024;

/** Runs code in fresh QuickJS runtimes on one WebAssembly module, replaced if a run ever leaves it unusable. */
export class Sandbox {
  #module: Promise<QuickJSWASMModule> | undefined;

  /** Loads the WebAssembly module now rather than at the first run. */
  async warm(): Promise<void> {
    await this.#load();
  }

  #load(): Promise<QuickJSWASMModule> {
    if (!this.#module) {
      // The variant's module and its WebAssembly load with the first run (or `warm()`), not with this file.
      const variant = import('@jitl/quickjs-wasmfile-release-sync').then((m): QuickJSSyncVariant => newVariant(variantOf(m), QUIET));
      const loading = newQuickJSWASMModuleFromVariant(variant);
      this.#module = loading;
      // A module that failed to load is tried again at the next run.
      loading.catch(() => {
        if (this.#module === loading) this.#module = undefined;
      });
    }
    return this.#module;
  }

  /** Runs `spec` to its end: the JSON it returned, what it threw, or the limit it broke. Never rejects for the code's sake. */
  async run(spec: RunSpec): Promise<RunOutcome> {
    const module = await this.#load();
    const deadline = Date.now() + spec.limits.timeMs;
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(spec.limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => Date.now() > deadline || spec.control.breach !== undefined);
    const context = runtime.newContext();
    const run = new Run(context, spec, deadline);
    let healthy = true;
    try {
      return await run.drive(runtime);
    } catch (e) {
      // The host's own stack overflowed inside the WebAssembly code: this module is done for.
      healthy = false;
      if (e instanceof RangeError) return { kind: 'breach', breach: { kind: 'stack', message: stackMessage() } };
      throw e;
    } finally {
      run.close();
      try {
        context.dispose();
        runtime.dispose();
      } catch {
        healthy = false;
      }
      // A run that ended badly may have left QuickJS's state inconsistent: the next run loads a fresh module.
      if (!healthy) this.#module = undefined;
    }
  }
}

const stackMessage = () => 'The code recursed too deeply (stack overflow). Make the recursion shallower, or use a loop.';

/** One run's handles and its host calls in flight. */
class Run {
  readonly #context: QuickJSContext;
  readonly #spec: RunSpec;
  readonly #deadline: number;
  readonly #handles: QuickJSHandle[] = [];
  readonly #pending = new Set<{ dispose(): void }>();
  #closed = false;
  #wake: () => void = () => {};

  constructor(context: QuickJSContext, spec: RunSpec, deadline: number) {
    this.#context = context;
    this.#spec = spec;
    this.#deadline = deadline;
  }

  /** Evaluates the prelude and the code, then runs jobs until the code's promise settles or the run must end. */
  async drive(runtime: QuickJSRuntime): Promise<RunOutcome> {
    const ctx = this.#context;
    const finish = this.#evaluate(`(${this.#spec.prelude})`, 'prelude.js');
    if ('outcome' in finish) return finish.outcome;
    const hostObject = this.#keep(ctx.newObject());
    for (const [name, fn] of Object.entries(this.#spec.host)) {
      const handle = ctx.newFunction(name, (args) => this.#callHost(fn, ctx.getString(args)));
      ctx.setProp(hostObject, name, handle);
      handle.dispose();
    }
    const setup = this.#keep(ctx.newString(JSON.stringify(this.#spec.setup)));
    const installed = ctx.callFunction(finish.handle, ctx.undefined, hostObject, setup);
    if (installed.error) return this.#threw(installed.error);
    const finishFn = this.#keep(installed.value);

    const main = this.#evaluate(this.#spec.code, this.#spec.filename);
    if ('outcome' in main) return main.outcome;
    const done = ctx.callFunction(finishFn, ctx.undefined, main.handle);
    if (done.error) return this.#threw(done.error);
    const result = this.#keep(done.value);

    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return this.#threw(jobs.error);
      const breach = this.#breach();
      if (breach) return { kind: 'breach', breach };
      const state = ctx.getPromiseState(result);
      if (state.type === 'fulfilled') {
        const json = ctx.getString(state.value);
        state.value.dispose();
        return { kind: 'returned', json };
      }
      if (state.type === 'rejected') return this.#threw(state.error);
      if (this.#pending.size === 0) {
        return {
          kind: 'breach',
          breach: {
            kind: 'deadlock',
            message:
              'The code is waiting for a promise that nothing will settle (the sandbox has no timers or events: only client calls and mock.clock.advance() settle later).',
          },
        };
      }
      await this.#sleep();
    }
  }

  /** Stops answering host calls; their handles go with the context. */
  close(): void {
    this.#closed = true;
    for (const deferred of this.#pending) deferred.dispose();
    this.#pending.clear();
    for (const handle of this.#handles) if (handle.alive) handle.dispose();
  }

  #keep(handle: QuickJSHandle): QuickJSHandle {
    this.#handles.push(handle);
    return handle;
  }

  #evaluate(source: string, filename: string): { handle: QuickJSHandle } | { outcome: RunOutcome } {
    const result = this.#context.evalCode(source, filename, { type: 'global', strict: true });
    if (result.error) return { outcome: this.#threw(result.error) };
    return { handle: this.#keep(result.value) };
  }

  /** A limit passed, or a host function stopped the run. */
  #breach(): Breach | undefined {
    if (this.#spec.control.breach) return this.#spec.control.breach;
    if (Date.now() > this.#deadline) return timeBreach(this.#spec.limits.timeMs);
    return undefined;
  }

  /** What the code threw, or the limit that an engine error stands for. */
  #threw(handle: QuickJSHandle): RunOutcome {
    const dumped = this.#context.dump(handle) as unknown;
    handle.dispose();
    const breach = this.#breach();
    if (breach) return { kind: 'breach', breach };
    const error = asThrown(dumped);
    const engine = engineBreach(error, this.#spec.limits);
    return engine ? { kind: 'breach', breach: engine } : { kind: 'threw', error };
  }

  /** Calls a host function for the sandbox: its answer as a string handle, or a promise handle settled later. */
  #callHost(fn: HostFunction, args: string): QuickJSHandle {
    const ctx = this.#context;
    let answer: string | Promise<string>;
    try {
      answer = fn(args);
    } catch (e) {
      answer = JSON.stringify({ error: { name: 'Error', message: (e as Error).message } });
    }
    if (typeof answer === 'string') return ctx.newString(answer);
    this.#spec.control.track(answer);
    const deferred = ctx.newPromise();
    this.#pending.add(deferred);
    void answer
      .catch((e: unknown) => JSON.stringify({ error: { name: 'Error', message: (e as Error)?.message ?? String(e) } }))
      .then((text) => {
        if (this.#closed || !deferred.alive) return;
        const value = ctx.newString(text);
        deferred.resolve(value);
        value.dispose();
        this.#pending.delete(deferred);
        this.#wake();
      });
    return deferred.handle;
  }

  /** Waits until a host call settles, the run is stopped, or the deadline passes. */
  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, this.#deadline - Date.now() + 1));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
      this.#spec.control.wake = done;
    });
  }
}

/**
 * The limit an error of the engine itself stands for (QuickJS throws these as `InternalError`s, which
 * reach the host directly or, once the code's promise rejects with them, through the prelude).
 */
export function engineBreach(error: { name: string; message: string }, limits: SandboxLimits): Breach | undefined {
  if (error.name !== 'InternalError') return undefined;
  if (error.message === 'out of memory') {
    const mb = Math.round(limits.memoryBytes / 2 ** 20);
    return { kind: 'memory', message: `The code ran out of memory: a run may use ${mb} MB. Work on fewer items at a time.` };
  }
  if (error.message === 'stack overflow') return { kind: 'stack', message: stackMessage() };
  if (error.message === 'interrupted') return timeBreach(limits.timeMs);
  return undefined;
}

const timeBreach = (timeMs: number): Breach => ({
  kind: 'time',
  message: `The code ran out of time: a run may take ${timeMs / 1000} s, API calls included. Is there an endless loop, or too many calls one after another?`,
});

/** What QuickJS's dump of a thrown value gives, as an error with a name and a message. */
function asThrown(value: unknown): ThrownError {
  if (value && typeof value === 'object' && 'message' in value) {
    const v = value as Record<string, unknown>;
    return { ...v, name: typeof v.name === 'string' ? v.name : 'Error', message: String(v.message) };
  }
  return { name: 'Error', message: `The code threw a value that is not an Error: ${JSON.stringify(value) ?? String(value)}` };
}
