/** What a run shows besides its result: one record per API call (and mock clock move), and the console output. */

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
  /** Milliseconds the call took on the host. */
  ms: number;
  /** Why it failed or was refused, for a person. */
  error?: string;
  /** For a clock move: what it was asked and where the clock stands after. */
  note?: string;
}

/** Console output kept per run: enough for a model to read, not enough to flood its context. */
const CONSOLE_LIMIT_CHARS = 20_000;

/** The calls and console output of one run. */
export class RunLog {
  readonly calls: CallRecord[] = [];
  readonly console: string[] = [];
  #chars = 0;
  #cut = false;

  /** Whether console output was cut at `CONSOLE_LIMIT_CHARS`. */
  get consoleCut(): boolean {
    return this.#cut;
  }

  /** Keeps a console line (`warn` and `error` lines marked as such) until the budget is spent. */
  print(level: string, text: string): void {
    if (this.#cut) return;
    const line = level === 'warn' || level === 'error' ? `[${level}] ${text}` : text;
    if (this.#chars + line.length > CONSOLE_LIMIT_CHARS) {
      this.#cut = true;
      this.console.push(`[console output cut at ${CONSOLE_LIMIT_CHARS} characters]`);
      return;
    }
    this.#chars += line.length;
    this.console.push(line);
  }
}
