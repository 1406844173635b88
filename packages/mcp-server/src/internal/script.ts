/**
 * The code `execute` gets, turned into the script the sandbox runs: wrapped as the body of an async
 * function (top-level `await` and `return` work), TypeScript types stripped by Node's own
 * `module.stripTypeScriptTypes` (whitespace in their place, so lines and columns stay where they were).
 * No TypeScript compiler runs: types are removed, not checked.
 */
import module from 'node:module';

/** The file name the sandbox gives the code: stacks and syntax errors name it. */
export const CODE_FILE = 'code.ts';

/** The lines around the code: the body of an async function, called at once. */
const WRAP_START = '(async () => {';
const WRAP_END = '})()';

/** The wrapper adds one line before the code: a line in the script is this much past the code's. */
const LINE_OFFSET = 1;

/** The code as a script, or why it is not one. */
type Script = { script: string } | { error: { name: string; message: string; line?: number } };

/** Wraps and strips `code`. */
export function toScript(code: string): Script {
  const wrapped = `${WRAP_START}\n${code}\n${WRAP_END}`;
  try {
    return { script: module.stripTypeScriptTypes(wrapped) };
  } catch (e) {
    return { error: parseError(e as Error & { code?: string }) };
  }
}

/**
 * A stripping error, for a person: Node's message, and the line with a caret under the place (its stack
 * starts with `:LINE`, the line and the caret).
 */
function parseError(e: Error & { code?: string }): { name: string; message: string; line?: number } {
  const frame = /^:(\d+)\n([\s\S]*?)\n\n/.exec(e.stack ?? '');
  const line = frame ? Number(frame[1]) - LINE_OFFSET : undefined;
  const unsupported = e.code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX';
  // The frame shows the wrapper's lines around a short code: they are not the code's.
  const shown = frame?.[2]
    ?.split('\n')
    .filter((l) => l !== WRAP_START && l !== WRAP_END)
    .join('\n');
  const message = `${e.message}${shown ? `\n${shown}` : ''}${
    unsupported ? '\nOnly type annotations can be stripped: write the code without enums, namespaces and parameter properties.' : ''
  }`;
  return { name: 'SyntaxError', message, ...(line !== undefined ? { line } : {}) };
}

/** The first place in the code a sandbox stack names, as a line of the code (not of the script). */
export function codeLine(stack: string | undefined): number | undefined {
  const m = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack ?? '');
  return m ? Number(m[1]) - LINE_OFFSET : undefined;
}

/** The frames of a sandbox stack that are in the code, with the code's line numbers. */
export function codeStack(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const frames = stack
    .split('\n')
    .filter((l) => l.includes(CODE_FILE))
    .map((l) => l.trim().replace(new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)`), (_m, n: string) => `${CODE_FILE}:${Number(n) - LINE_OFFSET}`));
  return frames.length ? frames.join('\n') : undefined;
}
