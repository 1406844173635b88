/**
 * Keeps every built JavaScript file ASCII. esbuild escapes non-ASCII characters in strings, templates,
 * regular expressions and names, but keeps some comments of bundled dependencies as they are (zod's
 * has an em dash). One such character makes the whole file a two-byte string in V8: Node's ES module
 * loader decodes it the slow way, and the CommonJS loader reads and compiles it more slowly too. Serves
 * the rows `mock.startup.vs-node-http` and `mock.load.vs-msw`, and every partner test file that loads
 * the mock.
 */
import { transformSync } from 'esbuild';
import type { Options } from 'tsup';

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** A UTF-16 code unit outside ASCII (each half of a surrogate pair is one). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * `code` with each non-ASCII UTF-16 code unit replaced by `?`, which keeps every line and column (and so
 * the source map) as it was. Throws, naming `file`, unless the program is unchanged: both minify alike,
 * so the characters replaced were all in comments.
 */
export function asciiComments(code: string, file: string): string {
  if (!NON_ASCII.test(code)) return code;
  const ascii = code.replace(new RegExp(NON_ASCII, 'g'), '?');
  const program = (text: string) => transformSync(text, { minify: true, legalComments: 'none', logLevel: 'silent' }).code;
  if (program(ascii) !== program(code)) {
    throw new Error(`${file}: a non-ASCII character outside a comment, which esbuild did not escape; escape it in the source`);
  }
  return ascii;
}

/** The tsup plugin of `asciiComments`, for every chunk a build writes. */
export const asciiOutput: TsupPlugin = {
  name: 'ascii-output',
  renderChunk(code, info) {
    const ascii = asciiComments(code, info.path);
    return ascii === code ? undefined : { code: ascii };
  },
};
