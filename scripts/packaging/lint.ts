/**
 * `pnpm lint:packages`: lints each published package as it would be published (run after the build).
 *
 * - publint (`--strict`): exports, files and formats;
 * - arethetypeswrong on the packed tarball: types resolve under node10, node16 (CJS and ESM) and bundlers;
 * - its imports: every package the built JavaScript imports is a dependency (or peer) of the package,
 *   and no CommonJS file requires a package that ships only ESM (Jest's `require` cannot load one);
 * - its types: every type its exports reach can be named by a user's code that emits declarations,
 *   our other packages' types included, in a project that does not depend on them itself (pnpm's
 *   strict layout); of its dependencies' types, all but those of the libraries `type-names.ts` names.
 *
 * Exits 1 naming each problem.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { PACKAGES, type PackageName, packageDir, ROOT } from '../build/ensure-built.ts';
import { packAll } from './pack.ts';
import { type Declarations, declaredValues, readDeclarations, unnamedTypes } from './type-names.ts';

/** Entry points arethetypeswrong cannot judge: files that are not JavaScript. */
const NOT_JAVASCRIPT: Partial<Record<PackageName, string[]>> = {
  contract: ['./openapi.yaml'],
  'mock-server': ['./fixtures.schema.json', './control-openapi.json'],
  'mcp-server': ['./docs-index.json'],
};

/**
 * Entry points for browsers only, which Node cannot load (msw/browser is not for Node) and which ship
 * as ES modules only, for bundlers: arethetypeswrong and the Node loading check leave them out; a
 * browser test loads them.
 */
const BROWSER_ONLY: Partial<Record<PackageName, string[]>> = { 'mock-server': ['./browser'] };

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const execFileAsync = promisify(execFile);

/** The package a bare specifier names: `@scope/name/sub` -> `@scope/name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The bare specifiers the built files import, and those a file `require`s (with that file), read by esbuild. */
async function importsOf(dir: string): Promise<{ imported: Set<string>; required: Map<string, string> }> {
  const dist = join(dir, 'dist');
  const files = readdirSync(dist).filter((f) => /\.c?js$/.test(f));
  const result = await build({
    // Distinct output names: index.js and index.cjs would both become index.js.
    entryPoints: files.map((f) => ({ in: join(dist, f), out: f.replace(/\./g, '_') })),
    bundle: true,
    write: false,
    metafile: true,
    outdir: join(dist, '.lint'),
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const imported = new Set<string>();
  const required = new Map<string, string>();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    for (const record of input.imports) {
      // `<runtime>` is esbuild's own helpers, which it imports where a file uses `require` as a value (the
      // `__require` of a CommonJS chunk that the build made through ESM): no package.
      if (!record.external || isBuiltin(record.path) || record.path === '<runtime>') continue;
      imported.add(record.path);
      if (record.kind === 'require-call') required.set(record.path, file);
    }
  }
  return { imported, required };
}

/** Whether Node loads `file` as an ES module: `.mjs`, or `.js` under a package.json of type module. */
function isEsmFile(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module';
  }
  return false;
}

/** The problems with what the package at `dir` imports, as sentences. */
export async function dependencyProblems(name: PackageName): Promise<string[]> {
  const dir = packageDir(name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: object; peerDependencies?: object };
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }));
  const { imported, required } = await importsOf(dir);
  const problems: string[] = [];
  for (const dep of imported) {
    if (!declared.has(packageOf(dep))) problems.push(`its build imports ${dep}, which is not among its dependencies`);
  }
  for (const [specifier, file] of required) {
    let target: string;
    try {
      target = createRequire(join(ROOT, file)).resolve(specifier);
    } catch (e) {
      // A subpath Node may not load at all (msw/browser under the node condition) is a bundler's affair.
      if ((e as { code?: string }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') continue;
      throw e;
    }
    if (isEsmFile(target)) problems.push(`${file} requires ${specifier}, an ES module in Node: bundle it into the CommonJS build`);
  }
  return problems;
}

/** The package's JavaScript entry points for Node: `@engagekit/<name>/<subpath>` by subpath (`.`, `./node`). */
function entryPoints(name: PackageName): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  return new Map(
    Object.entries(pkg.exports)
      .filter(([subpath, target]) => typeof target === 'object' && !BROWSER_ONLY[name]?.includes(subpath))
      .map(([subpath]) => [subpath, `@engagekit/${name}${subpath.slice(1)}`]),
  );
}

/**
 * Loads every entry point with `require` and with `import` in a Node of its own (the package refers to
 * itself by name), and finds there every value its type declarations export: a class declared but not
 * exported would compile in a user's code and fail when it runs.
 */
async function loadProblems(name: PackageName, declarations: Declarations): Promise<string[]> {
  const problems: string[] = [];
  const declared = declaredValues(declarations);
  for (const [subpath, entry] of entryPoints(name)) {
    for (const [how, args] of [
      ['require', ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)}))))`]],
      ['import', ['--input-type=module', '-e', `console.log(JSON.stringify(Object.keys(await import(${JSON.stringify(entry)}))))`]],
    ] as const) {
      try {
        const { stdout } = await execFileAsync(process.execPath, [...args], { cwd: packageDir(name), encoding: 'utf8' });
        const loaded = new Set(JSON.parse(stdout) as string[]);
        const missing = (declared.get(subpath) ?? []).filter((value) => !loaded.has(value));
        if (missing.length > 0) problems.push(`${how}('${entry}') lacks ${missing.join(', ')}, which its type declarations export`);
      } catch (e) {
        problems.push(`${how}('${entry}') fails: ${tail((e as { stderr?: string }).stderr ?? String(e))}`);
      }
    }
  }
  return problems;
}

const tail = (text: string) => text.trim().split('\n').slice(0, 6).join(' | ');

/** Every check of one package: the lines it prints, and what failed. */
async function lintPackage(name: PackageName, tarball: string): Promise<{ lines: string[]; failures: string[] }> {
  const lines = [`@engagekit/${name}`];
  const failures: string[] = [];
  const run = async (label: string, cmd: string, args: string[]) => {
    try {
      await execFileAsync(cmd, args, { cwd: packageDir(name), encoding: 'utf8' });
      lines.push(`  ok  ${label}`);
    } catch (e) {
      const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
      failures.push(`@engagekit/${name}, ${label}:\n${stdout}${stderr}`);
      lines.push(`  FAIL ${label}`);
    }
  };
  await run('publint --strict', bin('publint'), ['--strict']);
  const exclude = [...(NOT_JAVASCRIPT[name] ?? []), ...(BROWSER_ONLY[name] ?? [])];
  const declarations = readDeclarations(packageDir(name));
  await run('attw', bin('attw'), [tarball, ...(exclude.length ? ['--exclude-entrypoints', ...exclude] : [])]);
  for (const [label, problems] of [
    ['imports are dependencies; no CommonJS file requires an ES module', await dependencyProblems(name)],
    [`${[...entryPoints(name).values()].join(', ')} load with require and import, with every value their types export`, await loadProblems(name, declarations)],
    [
      "every type its exports reach is exported (no TS2742 or TS4023 where users emit declarations, pnpm's strict layout included)",
      unnamedTypes(declarations).map((t) => `${t} is not exported by any public entry`),
    ],
  ] as const) {
    if (problems.length === 0) lines.push(`  ok  ${label}`);
    else {
      failures.push(`@engagekit/${name}: ${problems.join('; ')}`);
      lines.push(`  FAIL ${problems.join('; ')}`);
    }
  }
  return { lines, failures };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'engagekit-lint-'));
  try {
    const tarballs = packAll(dir);
    // Two lanes of packages side by side: each check is a Node process of its own, mostly CPU, and
    // the 2-core CI machine took 27 s for the packages one after another.
    const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
    const results = PACKAGES.map((name, i) => {
      const result = (lanes[i % 2] as Promise<unknown>).then(() => lintPackage(name, tarballs[name]));
      lanes[i % 2] = result;
      return result;
    });
    for (const result of results) {
      const { lines, failures: failed } = await result;
      console.log(lines.join('\n'));
      failures.push(...failed);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\n${failures.join('\n\n')}`);
    process.exit(1);
  }
}
