/** Debian's package puts it here; `CHROMIUM_PATH` names another. */
export declare const DEFAULT_CHROMIUM: string;
/** The line bootstrap prints and the browser tests fail with when there is no Chromium. */
export declare function chromiumHint(path?: string): string;
/** Thrown by `chromiumPath()`: its stack is its message alone, so a test runner shows one line, not a trace. */
export declare class ChromiumMissingError extends Error {}
/** The Chromium binary the browser tests launch; throws `ChromiumMissingError` when there is none. */
export declare function chromiumPath(): string;
