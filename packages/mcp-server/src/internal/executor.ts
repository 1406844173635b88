/**
 * `execute`: picks the target (the live API, or the rehearsal mock), turns the code into a script, runs
 * it in a fresh sandbox with the bridge's host functions, and reports what came of it, within the
 * answer's maximum. One run at a time: runs queue, so a reset never lands in the middle of another run.
 */
import { boundReport } from './bound.ts';
import type { BridgePolicy, BridgeTarget } from './bridge.ts';
import { createCallBridge } from './bridge.ts';
import { bounded, ERROR_FIELDS } from './crossing.ts';
import type { SdkMethod } from './docs-index.ts';
import { PRELUDE } from './prelude.ts';
import type { Rehearsal } from './rehearsal.ts';
import { RehearsalUnavailableError } from './rehearsal.ts';
import type { ExecuteReport, ReportedError } from './report.ts';
import { RunLog } from './run-log.ts';
import { type Breach, engineBreach, RunControl, type RunOutcome, type Sandbox, type SandboxLimits, type ThrownError } from './sandbox.ts';
import { CODE_FILE, codeLine, codeStack, mockUse, toScript } from './script.ts';

/** The limits of one run. */
export interface ExecuteLimits extends SandboxLimits {
  /** API calls a run may make, page fetches and retries included. */
  maxCalls: number;
  /** The most characters a tool answer holds (`--max-answer`): the report's JSON, and its text, each stay within it. */
  maxAnswerChars: number;
  /** How long a run that has ended waits for its calls still in flight before it lists them as "outcome unknown", in milliseconds. */
  settleMs: number;
}

/** What `execute` is asked. */
interface ExecuteRequest {
  code: string;
  /** Run against the rehearsal mock, whatever the server's target. */
  dryRun?: boolean;
  /** Start the rehearsal mock afresh before the run. */
  reset?: boolean;
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

/** The longest returned value, in characters of JSON: whatever the answer's maximum, a run never holds more on the host. */
const RESULT_LIMIT_CHARS = 1_000_000;

/** Runs `execute` requests one after another. */
export class Executor {
  readonly #options: ExecutorOptions;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ExecutorOptions) {
    this.#options = options;
  }

  /**
   * Runs one request once the runs before it are done, their host work included (a clock move or a call
   * still in flight when a limit ended a run finishes, or is aborted, before the next run starts).
   */
  execute(request: ExecuteRequest): Promise<ExecuteReport> {
    const control = new RunControl();
    const run = this.#queue.then(() => this.#execute(request, control));
    this.#queue = run.then(
      () => control.settled(),
      () => control.settled(),
    );
    return run.then((report) => boundReport(report, this.#options.limits.maxAnswerChars));
  }

  async #execute(request: ExecuteRequest, control: RunControl): Promise<ExecuteReport> {
    try {
      return await this.#run(request, control);
    } finally {
      control.finish();
    }
  }

  async #run(request: ExecuteRequest, control: RunControl): Promise<ExecuteReport> {
    const o = this.#options;
    const target = request.dryRun || o.defaultTarget === 'mock' ? 'mock' : 'api';
    const log = new RunLog();
    const report = (fields: Partial<ExecuteReport>): ExecuteReport => ({ target, ok: false, console: log.console, calls: log.snapshot(), ...fields });

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
    if (target === 'api') {
      const use = mockUse(script.script);
      if (use) {
        return report({
          error: {
            name: 'Refused',
            message: `The code uses \`mock\` (line ${use.line}), which only a rehearsal has, and this run goes to the live API: nothing was run or sent. Rehearse it with dry_run: true, or take the mock calls out for the live run.`,
            line: use.line,
          },
        });
      }
    }

    let bridgeTarget: BridgeTarget | undefined;
    let mockHost: Awaited<ReturnType<Rehearsal['mockBridge']>> | undefined;
    let webhookMark = 0;
    try {
      if (target === 'mock') {
        if (request.reset) await o.rehearsal.reset();
        bridgeTarget = await o.rehearsal.target();
        mockHost = await o.rehearsal.mockBridge(log);
        webhookMark = await o.rehearsal.webhookMark();
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
      ...(mockHost ? { mock: mockHost } : {}),
    };
    const outcome = await o.sandbox.run({
      prelude: PRELUDE,
      host,
      setup: { methods: o.methods.map((m) => ({ name: m.name, paged: m.pageParamsIndex !== undefined })), mock: target === 'mock', errorFields: ERROR_FIELDS },
      code: script.script,
      filename: CODE_FILE,
      limits: { timeMs: o.limits.timeMs, memoryBytes: o.limits.memoryBytes },
      control,
    });
    // Calls the code started and did not wait for (or that a limit cut short) get a bounded time to end.
    await log.settled(o.limits.settleMs);
    const ended = fromOutcome(outcome, o.limits, request.code);
    if (target !== 'mock') return report(ended);
    const [mockTime, webhooks] = await Promise.all([o.rehearsal.now(), o.rehearsal.webhooksSince(webhookMark)]);
    return report({ ...ended, ...(mockTime ? { mockTime } : {}), ...(webhooks.length ? { webhooks } : {}) });
  }
}

/** The name a breach's error has in the report. */
const breachName = (kind: Breach['kind']) => (kind === 'read-only' ? 'Refused' : 'LimitExceeded');

/** The result or error fields of a report, from how the run ended. */
function fromOutcome(outcome: RunOutcome, limits: SandboxLimits, code: string): Partial<ExecuteReport> {
  if (outcome.kind === 'breach') {
    const { kind, message } = outcome.breach;
    return { error: { name: breachName(kind), message, limit: kind } };
  }
  const thrown = outcome.kind === 'threw' ? outcome.error : (JSON.parse(outcome.json) as { value?: unknown; error?: ThrownError }).error;
  if (thrown) {
    // An engine error the code's promise rejected with (it reached the host through the prelude) is a limit too.
    const breach = engineBreach(thrown, limits);
    return breach ? fromOutcome({ kind: 'breach', breach }, limits, code) : { error: sandboxError(thrown, code) };
  }
  const { json } = outcome as { json: string };
  if (json.length > RESULT_LIMIT_CHARS) {
    const message = `The returned value is ${json.length.toLocaleString('en-US')} characters of JSON; a run may return ${RESULT_LIMIT_CHARS.toLocaleString('en-US')}. Return a summary, or fewer items.`;
    return { error: { name: 'LimitExceeded', message, limit: 'result' } };
  }
  const answer = JSON.parse(json) as { value?: unknown };
  return { ok: true, ...('value' in answer ? { result: answer.value } : {}) };
}

/** What the sandbox threw, bounded, with the code's line numbers and, where the sandbox lacks something, a hint. */
function sandboxError(e: ThrownError, code: string): ReportedError {
  const stack = typeof e.stack === 'string' ? e.stack : undefined;
  const line = codeLine(stack) ?? (typeof e.lineNumber === 'number' ? e.lineNumber - 1 : undefined);
  const out: ReportedError = bounded(e);
  const source = line !== undefined ? code.split('\n')[line - 1]?.trim() : undefined;
  const extra = hint(out.name, out.message, source);
  // QuickJS says only "not a function": the line it was on names what was called.
  const named = out.name === 'TypeError' && out.message === 'not a function' && source ? `not a function: ${source.slice(0, 200)}` : out.message;
  out.message = extra && !/[.!?]$/.test(named) ? `${named}.${extra}` : `${named}${extra}`;
  if (line !== undefined) out.line = line;
  const frames = codeStack(stack);
  if (frames) out.stack = frames.slice(0, 2_000);
  return out;
}

/** What the sandbox has instead, when the code reached for something it does not. */
function hint(name: string, message: string, source: string | undefined): string {
  const offered = ' The sandbox offers `client`, `console` and, in a rehearsal, `mock.clock`, with the JavaScript built-ins: nothing else.';
  if (name === 'ReferenceError' && /is not defined/.test(message)) return offered;
  if (/could not load module/.test(message)) return ` The sandbox loads no modules: import() and require are not available.${offered}`;
  if (name === 'SyntaxError' && /\bimport\b/.test(message)) return ` The code is the body of a function: there are no imports.${offered}`;
  if (name === 'TypeError' && message === 'not a function') {
    if (source && /\b(fetch|require|setTimeout|setInterval|setImmediate|queueMicrotask)\b/.test(source))
      return ` fetch, require and timers are not there.${offered}`;
    if (source && /\bclient\./.test(source)) return " execute's description lists the client's methods.";
  }
  return '';
}
