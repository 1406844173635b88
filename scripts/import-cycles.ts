/**
 * `node scripts/import-cycles.ts`: fails when files of the packages import each other in a cycle,
 * type-only imports included (`pnpm test` runs it). A cycle makes the order modules load in matter, and
 * says two files are one concept split in two, or that a type sits in the wrong file. The graph is every
 * relative `import` and `export ... from` (static and dynamic) between the `.ts` files under
 * `packages/<name>/src`, as TypeScript's own pre-processor reads them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ROOT } from './build/ensure-built.ts';

/**
 * The cycles known and left for now, each as its files (from the repository's root), sorted: none, so
 * any cycle fails the check. A cycle listed here must say why it stays and what would end it; one
 * gone from the code must leave the list too.
 */
export const KNOWN_CYCLES: readonly (readonly string[])[] = [];

/** The `.ts` files under `dir`, recursively, leaving out `node_modules` and `dist`. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') files.push(...sourceFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Each file's imports of other files of `files` (relative specifiers only; another package is not a file of this graph). */
export function importGraph(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(read(file), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => known.has(target) && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The cycles of `graph`: each group of files that reach one another (Tarjan's strongly connected components of more than one file), its files sorted. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/**
 * The cycles among the packages' source files that `KNOWN_CYCLES` does not list (`unknown`), and the
 * listed ones the code no longer has (`gone`), as paths from `root`.
 */
export function checkCycles(root: string, knownCycles: readonly (readonly string[])[] = KNOWN_CYCLES): { unknown: string[][]; gone: string[][] } {
  const packages = join(root, 'packages');
  const files = readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        return sourceFiles(join(packages, entry.name, 'src'));
      } catch {
        return [];
      }
    });
  const found = cyclesOf(importGraph(files)).map((cycle) => cycle.map((file) => relative(root, file)));
  const foundKeys = new Set(found.map((cycle) => cycle.join('\n')));
  const knownKeys = new Set(knownCycles.map((cycle) => cycle.join('\n')));
  return {
    unknown: found.filter((cycle) => !knownKeys.has(cycle.join('\n'))),
    gone: knownCycles.filter((cycle) => !foundKeys.has(cycle.join('\n'))).map((cycle) => [...cycle]),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { unknown, gone } = checkCycles(ROOT);
  for (const cycle of gone) console.error(`import-cycles: a listed cycle is gone from the code; take it out of KNOWN_CYCLES:\n  ${cycle.join('\n    <-> ')}`);
  if (unknown.length > 0) {
    console.error(`import-cycles: ${unknown.length} import cycle(s) between files, type-only imports included:`);
    for (const cycle of unknown) console.error(`  ${cycle.join('\n    <-> ')}`);
  }
  if (unknown.length > 0 || gone.length > 0) process.exit(1);
  console.log('import-cycles: no import cycle between the packages’ files');
}
