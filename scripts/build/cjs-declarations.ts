/**
 * The CommonJS build's type declarations, written from the ESM build's. tsup would bundle the
 * declarations a second time for CommonJS, which doubled the slowest part of `pnpm build` (about 14 s a
 * package here); the two came out the same but for their chunks' names and the extension of their
 * relative imports. So each `dist/<entry>.cjs` gets `dist/<entry>.d.cts`: its `.d.ts`, and every chunk
 * that imports, copied with `./x.js` made `./x.cjs` (TypeScript then reads `./x.d.cts`), so that a
 * CommonJS program's types never reach the ESM declarations.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** A relative `.js` import of declaration text: where its specifier starts, and the specifier. */
interface RelativeImport {
  start: number;
  specifier: string;
}

/**
 * The relative `.js` imports of declaration text, found by TypeScript's own scanner: `import ... from`,
 * `export ... from`, a bare `import './x.js'` and an `import('./x.js')` type; never text in a comment.
 */
function relativeJsImports(text: string): RelativeImport[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((f) => /^\.\.?\//.test(f.fileName) && f.fileName.endsWith('.js'))
    .map((f) => ({ start: text.indexOf(f.fileName, f.pos), specifier: f.fileName }));
}

/** `text` with its relative `.js` imports made `.cjs`. */
export function asCjsDeclaration(text: string): string {
  let out = text;
  for (const { start, specifier } of relativeJsImports(text).reverse()) {
    out = `${out.slice(0, start)}${specifier.slice(0, -'.js'.length)}.cjs${out.slice(start + specifier.length)}`;
  }
  return out;
}

/** The files a declaration file at `file` imports, as paths within dist without extension (`x`, `chunks/y`). */
function importsOf(file: string, text: string): string[] {
  return relativeJsImports(text).map((i) => posix.join(posix.dirname(file), i.specifier.slice(0, -'.js'.length)));
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
