/** The client's logging: which level is on, and where lines go. Decided once per client, so a call with logging off does no log work. */

/**
 * How much the client logs: `off`; `error`, calls that failed for good; `warn`, also each attempt a retry
 * follows; `info`, the same as `warn`; `debug`, every attempt.
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/**
 * Where log lines go: `console`, or any logger with these methods (pino, winston, consola). The SDK calls
 * them with one string, the line itself; it never logs headers, so the token never appears.
 */
export interface Logger {
  error(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  debug(message: string, details?: unknown): void;
}

/** Writes `message` at `level` when the client's level lets it through. */
export type Log = (level: 'error' | 'warn' | 'debug', message: string) => void;

/** The levels that log, in order: a level lets through its own and those before it. */
const LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * `ENGAGEKIT_LOG`, read when a client is created, never at import: browsers and workerd have no
 * `process`, and Deno without `--allow-env` throws on reading it (then there is none).
 */
function envLevel(): string | undefined {
  try {
    return globalThis.process?.env?.ENGAGEKIT_LOG;
  } catch {
    return undefined;
  }
}

/**
 * The log of one client, or `undefined` when its level is `off`. The level is `level` if given, else the
 * `ENGAGEKIT_LOG` environment variable (where `process.env` exists; an unknown value means `off`), else
 * `warn` when a `logger` is given and `off` without one. Lines go to `logger`, else `console`.
 */
export function createLog(level: LogLevel | undefined, logger: Logger | undefined): Log | undefined {
  const chosen = level ?? envLevel() ?? (logger ? 'warn' : 'off');
  const rank = LEVELS.indexOf(chosen as (typeof LEVELS)[number]);
  if (rank < 0) return undefined;
  const out = logger ?? console;
  return (at, message) => {
    if (LEVELS.indexOf(at) <= rank) out[at](`engagekit: ${message}`);
  };
}
