/**
 * What a run shows besides its result: one record per API call that left the host (and per mock clock
 * move or refused call), and the console output. A call is listed when it starts, so one still in
 * flight when the run ends is listed too.
 */
/** One call the code made through `client` (or `mock.clock`). */
export interface CallRecord {
  /** The SDK method (`campaigns.create`) or the clock's (`mock.clock.advance`). */
  operation: string;
  /** The contract's operationId (API calls only). */
  operationId?: string;
  /** The HTTP method (API calls only). */
  method?: string;
  /** The page asked for, for a page of a list. */
  page?: number;
  /** The HTTP status answered; absent when no answer came. */
  status?: number;
  /** The answer's `x-request-id`. */
  requestId?: string;
  /** True when the server answered a write's retry with the first answer (`Idempotent-Replayed`): nothing new was written. */
  replayed?: boolean;
  /** True for a call still in flight when the run ended: it left the host, and its outcome is unknown. */
  inFlight?: boolean;
  /** Milliseconds the call took on the host (until the run ended, for one in flight). */
  ms: number;
  /** Why it failed or was refused, for a person. */
  error?: string;
  /** For a clock move: what it was asked and where the clock stands after. */
  note?: string;
}

/** Console output kept per run: enough for a model to read, not enough to flood its context. */
const CONSOLE_LIMIT_CHARS = 20_000;

const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/** The calls and console output of one run. */
export class RunLog {
  readonly calls: CallRecord[] = [];
  readonly console: string[] = [];
  readonly #pending = new Map<CallRecord, number>();
  #settle: (() => void) | undefined;
  #chars = 0;
  #cut = false;

  /** Lists a call as it starts; `done` fills in its outcome. */
  begin(record: Omit<CallRecord, 'ms'>): { done(outcome: Partial<CallRecord>): void } {
    const started = performance.now();
    const entry: CallRecord = { ...record, ms: 0 };
    this.calls.push(entry);
    this.#pending.set(entry, started);
    return {
      done: (outcome) => {
        if (!this.#pending.delete(entry)) return;
        Object.assign(entry, outcome, { ms: elapsed(started) });
        if (this.#pending.size === 0) this.#settle?.();
      },
    };
  }

  /** Resolves once no call is in flight, or after `ms`, whichever is first. */
  async settled(ms: number): Promise<void> {
    if (this.#pending.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#settle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** The calls as they stand: one still in flight is marked so, its outcome unknown. Copies, which later outcomes leave alone. */
  snapshot(): CallRecord[] {
    return this.calls.map((c) => {
      const started = this.#pending.get(c);
      return started === undefined ? { ...c } : { ...c, inFlight: true, ms: elapsed(started), error: 'in flight when the run ended: outcome unknown' };
    });
  }

  /** Whether console output was cut at `CONSOLE_LIMIT_CHARS`. */
  get consoleCut(): boolean {
    return this.#cut;
  }

  /** Keeps a console line (`warn` and `error` lines marked as such) until the budget is spent. */
  print(level: string, text: string): void {
    if (this.#cut) return;
    const raw = level === 'warn' || level === 'error' ? `[${level}] ${text}` : text;
    const room = CONSOLE_LIMIT_CHARS - this.#chars;
    this.console.push(raw.length > room ? raw.slice(0, room) : raw);
    this.#chars += Math.min(raw.length, room);
    if (raw.length > room) {
      this.#cut = true;
      this.console.push(`[console output cut at ${CONSOLE_LIMIT_CHARS.toLocaleString('en-US')} characters]`);
    }
  }
}
