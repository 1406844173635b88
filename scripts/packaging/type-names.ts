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
 *
 * The same holds for a type another package declares, one of ours or a dependency: TypeScript names it
 * by that package, which a project cannot import when it is not the project's own dependency (pnpm's
 * strict layout: TS2742), unless an entry of the package it does import re-exports it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The `types` file of each `import` of a package's `exports`, by subpath (`.`, `./node`). The
 * `require` ones are copies of these (scripts/build/cjs-declarations.ts).
 */
function typeEntries(dir: string): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const files = new Map<string, string>();
  for (const [subpath, target] of Object.entries(exports)) {
    if (typeof target !== 'object' || target === null) continue;
    const types = (target as Record<string, { types?: unknown } | undefined>).import?.types;
    if (typeof types === 'string') files.set(subpath, join(dir, types));
  }
  return files;
}

/**
 * A program of the entry declarations of the built package at `dir`, read once for both checks here:
 * its entries by subpath, its checker, what an entry exports, and the symbol an alias stands for.
 */
export function readDeclarations(dir: string) {
  const entries = typeEntries(dir);
  const program = ts.createProgram([...entries.values()], {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
    return module ? checker.getExportsOfModule(module) : [];
  };
  const target = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  return { dir, entries, checker, exportsOf, target };
}

export type Declarations = ReturnType<typeof readDeclarations>;

/**
 * Libraries whose types a user who handles them names through their own install, as their code is that
 * library's: a contract schema is zod's, the runtime's app is hono's, the server's tables are
 * drizzle's, the MCP server is the MCP SDK's, the mock's handlers go into the user's own MSW server,
 * the contract's OpenAPI document is zod-openapi's `oas31.OpenAPIObject`, and `client.api.agency` is
 * openapi-fetch's client (of whose types the SDK re-exports `Middleware`, the one its README has users
 * write).
 */
const OWN_VOCABULARY = new Set(['zod', 'zod-openapi', 'hono', 'drizzle-orm', '@modelcontextprotocol/sdk', 'msw', 'openapi-fetch']);

/** The package each directory of declaration files belongs to, read once: the walk meets a file many times. */
const packageOfDir = new Map<string, string | undefined>();

/** The name of the package a declaration file belongs to: the nearest package.json's. */
function packageOfFile(fileName: string): string | undefined {
  const dir = dirname(fileName);
  if (!packageOfDir.has(dir)) packageOfDir.set(dir, nearestPackageName(dir));
  return packageOfDir.get(dir);
}

function nearestPackageName(dir: string): string | undefined {
  for (let at = dir; at !== dirname(at); at = dirname(at)) {
    const manifest = join(at, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name) return name;
    }
  }
  return undefined;
}

/**
 * Whether a declaration is the platform's, named without an import: in a script file (TypeScript's
 * libs) or inside `declare global`. Also an ambient `declare module 'x'` and what is inside it
 * (@types/node's `node:http`, or a library augmenting another's module), named through `'x'`.
 */
function isPlatformDeclaration(declaration: ts.Node): boolean {
  for (let at: ts.Node | undefined = declaration; at; at = at.parent) {
    if (ts.isModuleDeclaration(at) && (at.flags & ts.NodeFlags.GlobalAugmentation || ts.isStringLiteral(at.name))) return true;
  }
  return !ts.isExternalModule(declaration.getSourceFile());
}

/** Whether an export is written `export type { X }` or `export { type X }`. */
function typeOnly(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
}

/**
 * The values each entry's declarations export, by subpath: what a user's code may import and call.
 * The packaging lint holds them against what the entry really exports when loaded.
 */
export function declaredValues({ entries, exportsOf, target }: Declarations): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [subpath, file] of entries) {
    const names = exportsOf(file)
      .filter((s) => !typeOnly(s) && target(s).flags & ts.SymbolFlags.Value)
      .map((s) => s.name);
    values.set(subpath, names.sort());
  }
  return values;
}

const NAMED = ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;

/**
 * The types of a built package that its public exports reach and its users cannot name, as sentences:
 * `ChannelState (dist/index.d.ts), reached from MockSnapshot`.
 */
export function unnamedTypes({ dir, entries, checker, exportsOf, target }: Declarations): string[] {
  const own = (file: ts.SourceFile) => !relative(dir, file.fileName).startsWith('..') && !file.fileName.includes('/node_modules/');

  const exported = new Set<ts.Symbol>();
  for (const file of entries.values()) for (const symbol of exportsOf(file)) exported.add(target(symbol));
  /** Whether users can name the declaration's symbol: exported, or inside an exported namespace. */
  const named = (symbol: ts.Symbol, declaration: ts.Node): boolean => {
    if (exported.has(symbol)) return true;
    for (let at = declaration.parent; at; at = at.parent) {
      if (ts.isModuleDeclaration(at)) {
        const namespace = checker.getSymbolAtLocation(at.name);
        if (namespace && exported.has(target(namespace))) return true;
      }
    }
    return false;
  };
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
      if (own(file)) {
        const mustBeNamed = symbol.flags & NAMED || (symbol.flags & ts.SymbolFlags.TypeAlias && exportedByItsFile(symbol, file));
        if (mustBeNamed && !named(symbol, declaration)) problems.add(`${symbol.name} (${relative(dir, file.fileName)}), reached from ${from}`);
        walk(declaration, symbol.name);
        continue;
      }
      const where = packageOfFile(file.fileName);
      // A module (`import * as contract from '@engagekit/contract'`) is followed by the names used in it.
      if (!where || OWN_VOCABULARY.has(where) || ts.isSourceFile(declaration) || isPlatformDeclaration(declaration)) continue;
      const byName = namedElsewhere(symbol);
      if (byName && !exported.has(symbol)) problems.add(`${symbol.name} (${where}), reached from ${from}`);
      // Our other packages' types are followed as our own: what they reach, users reach too. Of a
      // dependency, what TypeScript writes out rather than names (an alias of another type, a value's
      // type reached by `typeof`) is followed to what it names.
      if (where.startsWith('@engagekit/') || !byName) walk(declaration, symbol.name);
    }
  };
  /**
   * Whether TypeScript names a type another package declares by that package's path, which a user's
   * project cannot import when the package is not its own dependency (pnpm's strict layout: TS2742):
   * an interface, class or enum, or an alias that names its type (a union or object type written in
   * it, or an instantiation of a generic type; an alias of a named type without type arguments or of
   * an indexed access is written out).
   */
  const namedElsewhere = (symbol: ts.Symbol) =>
    Boolean(symbol.flags & NAMED) || (Boolean(symbol.flags & ts.SymbolFlags.TypeAlias) && checker.getDeclaredTypeOfSymbol(symbol).aliasSymbol === symbol);
  /** The names a node refers to: `A.B` is both `A.B` and `A` (an enum's member names its enum). */
  const referred = (node: ts.Node): ts.Node[] => {
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isTypeQueryNode(node)
        ? node.exprName
        : ts.isImportTypeNode(node)
          ? node.qualifier
          : ts.isExpressionWithTypeArguments(node)
            ? node.expression
            : undefined;
    if (!name) return [];
    let first: ts.Node = name;
    while (ts.isQualifiedName(first) || ts.isPropertyAccessExpression(first)) first = ts.isQualifiedName(first) ? first.left : first.expression;
    return first === name ? [name] : [name, first];
  };
  const walk = (node: ts.Node, from: string) => {
    for (const name of referred(node)) {
      const symbol = checker.getSymbolAtLocation(name);
      if (symbol) visit(target(symbol), from);
    }
    ts.forEachChild(node, (child) => walk(child, from));
  };
  for (const symbol of exported) visit(symbol, symbol.name);
  return [...problems];
}
