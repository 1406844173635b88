/**
 * The CommonJS build's type declarations, written from the ESM build's. tsup would bundle the
 * declarations a second time for CommonJS, which doubled the slowest part of `pnpm build` (about 14 s a
 * package here); the two came out the same but for their chunks' names and the extension of their
 * relative imports. So each `dist/<entry>.cjs` gets `dist/<entry>.d.cts`: its `.d.ts`, and every chunk
 * that imports, copied with `./x.js` made `./x.cjs` (TypeScript then reads `./x.d.cts`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Relative imports of declaration text, as written by the declaration bundler: `from './x.js'`, `import('./x.js')`. */
const RELATIVE_JS = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]+)\.js\2/g;

/** `text` with its relative `.js` imports made `.cjs`. */
export function asCjsDeclaration(text: string): string {
  return text.replace(RELATIVE_JS, (_, lead: string, quote: string, path: string) => `${lead}${quote}${path}.cjs${quote}`);
}

/** The files a declaration file at `file` imports, as paths within dist without extension (`x`, `chunks/y`). */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(RELATIVE_JS)].map((m) => posix.join(posix.dirname(file), m[3] as string));
}

/** Writes `dist/*.d.cts` for every CommonJS entry of `dist` that has a `.d.ts`; returns the files written. */
export function writeCjsDeclarations(dist: string): string[] {
  const entries = readdirSync(dist)
    .filter((f) => f.endsWith('.cjs') && existsSync(join(dist, f.replace(/\.cjs$/, '.d.ts'))))
    .map((f) => f.replace(/\.cjs$/, ''));
  const written: string[] = [];
  const pending = [...entries];
  const done = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (done.has(file)) continue;
    done.add(file);
    const text = readFileSync(join(dist, `${file}.d.ts`), 'utf8');
    writeFileSync(join(dist, `${file}.d.cts`), asCjsDeclaration(text));
    written.push(`${file}.d.cts`);
    pending.push(...importsOf(file, text));
  }
  return written.sort();
}
