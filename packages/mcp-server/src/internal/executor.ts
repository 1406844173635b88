/**
 * `execute`: picks the target (the live API, or the rehearsal mock), turns the code into a script, runs
 * it in a fresh sandbox with the bridge's host functions, and reports what came of it. One run at a
 * time: runs queue, so a reset never lands in the middle of another run.
 */
import type { BridgePolicy, BridgeTarget } from './bridge.ts';
import { createCallBridge } from './bridge.ts';
import type { SdkMethod } from './docs-index.ts';
import { PRELUDE } from './prelude.ts';
import type { Rehearsal } from './rehearsal.ts';
import { RehearsalUnavailableError } from './rehearsal.ts';
import { type CallRecord, RunLog } from './run-log.ts';
import { engineBreach, RunControl, type RunOutcome, type Sandbox, type SandboxLimits, type ThrownError } from './sandbox.ts';
import { CODE_FILE, codeLine, codeStack, toScript } from './script.ts';

/** The most JSON a run may return, in characters: more would flood the assistant's context. */
const RESULT_LIMIT_CHARS = 200_000;

/** The limits of one run. */
export interface ExecuteLimits extends SandboxLimits {
  /** API calls a run may make, page fetches included. */
  maxCalls: number;
}

/** What `execute` is asked. */
interface ExecuteRequest {
  code: string;
  /** Run against the rehearsal mock, whatever the server's target. */
  dryRun?: boolean;
  /** Start the rehearsal mock afresh before the run. */
  reset?: boolean;
}

/** An error, as the report gives it. */
export interface ReportedError {
  /** `NotFoundError`, `TypeError`, ... or `LimitExceeded`, `Refused`, `RehearsalUnavailable`. */
  name: string;
  message: string;
  status?: number;
  code?: string;
  requestId?: string;
  issues?: unknown;
  /** The SDK method that failed, for an API error. */
  operation?: string;
  /** Where in the code, as a line of the code. */
  line?: number;
  stack?: string;
  /** Which limit, when a limit ended the run. */
  limit?: 'time' | 'memory' | 'stack' | 'calls' | 'read-only' | 'deadlock' | 'result';
}

/** What one run of `execute` comes to. */
export interface ExecuteReport {
  /** Where the code's calls went: `api` (the live API) or `mock` (a rehearsal). */
  target: 'api' | 'mock';
  /** True when the code ran to its end and returned. */
  ok: boolean;
  /** The returned value (absent when the code returned nothing or failed). */
  result?: unknown;
  error?: ReportedError;
  /** What the code printed, a line per console call. */
  console: string[];
  /** One record per API call (and mock clock move), in order. */
  calls: CallRecord[];
  /** In a rehearsal, the mock's time when the run ended. */
  mockTime?: string;
}

/** What an executor needs. */
interface ExecutorOptions {
  sandbox: Sandbox;
  methods: SdkMethod[];
  /** The live API, when configured. */
  api: BridgeTarget | undefined;
  rehearsal: Rehearsal;
  /** Where runs go unless `dry_run` says the mock. */
  defaultTarget: 'api' | 'mock';
  readOnly: boolean;
  limits: ExecuteLimits;
}

/** Runs `execute` requests one after another. */
export class Executor {
  readonly #options: ExecutorOptions;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ExecutorOptions) {
    this.#options = options;
  }

  /**
   * Runs one request once the runs before it are done, their host work included (a clock move or a call
   * still in flight when a limit ended a run finishes before the next run starts).
   */
  execute(request: ExecuteRequest): Promise<ExecuteReport> {
    const control = new RunControl();
    const run = this.#queue.then(() => this.#execute(request, control));
    this.#queue = run.then(
      () => control.settled(),
      () => control.settled(),
    );
    return run;
  }

  async #execute(request: ExecuteRequest, control: RunControl): Promise<ExecuteReport> {
    const o = this.#options;
    const target = request.dryRun || o.defaultTarget === 'mock' ? 'mock' : 'api';
    const log = new RunLog();
    const report = (fields: Partial<ExecuteReport>): ExecuteReport => ({ target, ok: false, console: log.console, calls: log.calls, ...fields });

    if (request.reset && target === 'api') {
      return report({
        error: {
          name: 'Refused',
          message: 'reset starts the rehearsal mock afresh, but this run goes to the live API. Add dry_run: true to reset the mock and run there.',
        },
      });
    }
    const script = toScript(request.code);
    if ('error' in script) return report({ error: script.error });

    let bridgeTarget: BridgeTarget | undefined;
    let clock: Awaited<ReturnType<Rehearsal['clockBridge']>> | undefined;
    try {
      if (target === 'mock') {
        if (request.reset) await o.rehearsal.reset();
        bridgeTarget = await o.rehearsal.target();
        clock = await o.rehearsal.clockBridge(log);
      } else {
        bridgeTarget = o.api;
      }
    } catch (e) {
      if (e instanceof RehearsalUnavailableError) return report({ error: { name: 'RehearsalUnavailable', message: e.message } });
      throw e;
    }
    if (!bridgeTarget) {
      return report({
        error: {
          name: 'NotConfigured',
          message:
            'No live API is configured: set ENGAGEKIT_BASE_URL, ENGAGEKIT_TOKEN and ENGAGEKIT_UUID where the server starts, or pass dry_run: true to run against the mock.',
        },
      });
    }

    const policy: BridgePolicy = { readOnly: o.readOnly, maxCalls: o.limits.maxCalls };
    const host = {
      call: createCallBridge({ methods: o.methods, target: bridgeTarget, policy, control, log }),
      console: (json: string) => {
        const [level, text] = JSON.parse(json) as [string, string];
        log.print(level, text);
        return '{}';
      },
      ...(clock ? { clock } : {}),
    };
    const outcome = await o.sandbox.run({
      prelude: PRELUDE,
      host,
      setup: { methods: o.methods.map((m) => ({ name: m.name, paged: m.pageParamsIndex !== undefined })), mock: target === 'mock' },
      code: script.script,
      filename: CODE_FILE,
      limits: { timeMs: o.limits.timeMs, memoryBytes: o.limits.memoryBytes },
      control,
    });
    const mockTime = target === 'mock' ? await o.rehearsal.now() : undefined;
    return { ...report(fromOutcome(outcome, o.limits)), ...(mockTime ? { mockTime } : {}) };
  }
}

/** The result or error fields of a report, from how the run ended. */
function fromOutcome(outcome: RunOutcome, limits: SandboxLimits): Partial<ExecuteReport> {
  if (outcome.kind === 'breach') {
    const { kind, message } = outcome.breach;
    const limit = kind === 'stopped' ? (message.startsWith('Refused') ? 'read-only' : 'calls') : kind;
    return { error: { name: limit === 'read-only' ? 'Refused' : 'LimitExceeded', message, limit } };
  }
  const thrown = outcome.kind === 'threw' ? outcome.error : (JSON.parse(outcome.json) as { value?: unknown; error?: ThrownError }).error;
  if (thrown) {
    // An engine error the code's promise rejected with (it reached the host through the prelude) is a limit too.
    const breach = engineBreach(thrown, limits);
    return breach ? fromOutcome({ kind: 'breach', breach }, limits) : { error: sandboxError(thrown) };
  }
  const { json } = outcome as { json: string };
  if (json.length > RESULT_LIMIT_CHARS) {
    const message = `The returned value is ${json.length.toLocaleString('en-US')} characters of JSON; a run may return ${RESULT_LIMIT_CHARS.toLocaleString('en-US')}. Return a summary, or fewer items.`;
    return { error: { name: 'LimitExceeded', message, limit: 'result' } };
  }
  const answer = JSON.parse(json) as { value?: unknown };
  return { ok: true, ...('value' in answer ? { result: answer.value } : {}) };
}

/** What the sandbox threw, with the code's line numbers and, where the sandbox lacks something, a hint. */
function sandboxError(e: { name: string; message: string; stack?: unknown; [key: string]: unknown }): ReportedError {
  const stack = typeof e.stack === 'string' ? e.stack : undefined;
  const line = codeLine(stack) ?? (typeof e.lineNumber === 'number' ? e.lineNumber - 1 : undefined);
  const extra = hint(e.name, e.message);
  const message = extra && !/[.!?]$/.test(e.message) ? `${e.message}.${extra}` : `${e.message}${extra}`;
  const out: ReportedError = { name: e.name, message };
  for (const field of ['status', 'code', 'requestId', 'issues', 'operation'] as const)
    if (e[field] !== undefined) (out as unknown as Record<string, unknown>)[field] = e[field];
  if (line !== undefined) out.line = line;
  const frames = codeStack(stack);
  if (frames) out.stack = frames;
  return out;
}

/** What the sandbox has instead, when the code reached for something it does not. */
function hint(name: string, message: string): string {
  const offered = ' The sandbox offers `client`, `console` and, in a rehearsal, `mock.clock`, with the JavaScript built-ins: nothing else.';
  if (name === 'ReferenceError' && /is not defined/.test(message)) return offered;
  if (/could not load module/.test(message)) return ` The sandbox loads no modules: import() and require are not available.${offered}`;
  if (name === 'SyntaxError' && /\bimport\b/.test(message)) return ` The code is the body of a function: there are no imports.${offered}`;
  if (name === 'TypeError' && /not a function/.test(message)) return ` If that was fetch, require or a timer: they are not there.${offered}`;
  return '';
}
