/** Minimal structured logger (pino fits). */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A logger that drops every line: the default where none is given. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
