/**
 * Which of a built package's types its users cannot name. A type a public export reaches (a member's
 * type, a parameter, a base) ends up in what a user's code infers; when that code emits declarations
 * (`declaration`, or `composite` in a monorepo's project references), TypeScript must write the type's
 * name, and fails with TS2742 or TS4023 when no public entry exports it.
 *
 * A reached interface, class or enum must be exported by a public entry. A type alias may stay private
 * where TypeScript can write it out instead of naming it, which it does unless the alias is exported
 * from its own file: a shared chunk of the build that exports it offers TypeScript a path users
 * cannot import (TS2742).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The `types` files of each `import` and `require` of a package's `exports`. */
function typeEntries(dir: string): string[] {
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const files = new Set<string>();
  for (const target of Object.values(exports)) {
    if (typeof target !== 'object' || target === null) continue;
    for (const condition of ['import', 'require'] as const) {
      const types = (target as Record<string, { types?: unknown } | undefined>)[condition]?.types;
      if (typeof types === 'string') files.add(join(dir, types));
    }
  }
  return [...files];
}

const NAMED = ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;

/**
 * The types of the package at `dir` (built: its declaration files in place) that its public exports
 * reach and its users cannot name, as sentences: `ChannelState (dist/index.d.ts), reached from MockSnapshot`.
 */
export function unnamedTypes(dir: string): string[] {
  const entries = typeEntries(dir);
  const program = ts.createProgram(entries, {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const own = (file: ts.SourceFile) => !relative(dir, file.fileName).startsWith('..') && !file.fileName.includes('/node_modules/');
  const target = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

  const exported = new Set<ts.Symbol>();
  for (const entry of entries) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile);
    if (module) for (const symbol of checker.getExportsOfModule(module)) exported.add(target(symbol));
  }
  /** Whether the file declaring `symbol` exports it: an alias TypeScript may then name by that file. */
  const exportedByItsFile = (symbol: ts.Symbol, file: ts.SourceFile) => {
    const module = checker.getSymbolAtLocation(file);
    return module !== undefined && checker.getExportsOfModule(module).some((s) => target(s) === symbol);
  };

  const problems = new Set<string>();
  const seen = new Set<ts.Symbol>();
  const visit = (symbol: ts.Symbol, from: string) => {
    if (seen.has(symbol)) return;
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const file = declaration.getSourceFile();
      if (!own(file)) continue;
      const mustBeNamed = symbol.flags & NAMED || (symbol.flags & ts.SymbolFlags.TypeAlias && exportedByItsFile(symbol, file));
      if (mustBeNamed && !exported.has(symbol)) problems.add(`${symbol.name} (${relative(dir, file.fileName)}), reached from ${from}`);
      walk(declaration, symbol.name);
    }
  };
  const walk = (node: ts.Node, from: string) => {
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isTypeQueryNode(node)
        ? node.exprName
        : ts.isExpressionWithTypeArguments(node)
          ? node.expression
          : undefined;
    const symbol = name && checker.getSymbolAtLocation(name);
    if (symbol) visit(target(symbol), from);
    ts.forEachChild(node, (child) => walk(child, from));
  };
  for (const symbol of exported) visit(symbol, symbol.name);
  return [...problems];
}
