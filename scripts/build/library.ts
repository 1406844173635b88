/**
 * The one build of every published package: ESM and CommonJS from the same entries, with `.d.ts` and
 * `.d.cts` beside them. Each package's tsup.config.ts calls `libraryBuild` with its entries.
 *
 * Dependencies stay external in the ESM build, but for those a package names in `bundle`. The CommonJS
 * build bundles those and every dependency that ships only ESM (jose, msw, ...): Jest's `require`
 * cannot load an ES module, so a CommonJS entry that required one would fail in a partner's Jest suite.
 * Both builds split: the entries of a format share their chunks, so a module (and each class in it)
 * runs once in a process whichever of the package's entries it loads.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Options } from 'tsup';
import { asciiOutput } from './ascii.ts';

/** What a package builds. */
export interface LibraryBuildOptions {
  /** The package directory (where package.json is). */
  dir: string;
  /** Entry name -> source file, relative to `dir`. */
  entry: Record<string, string>;
  /** `neutral` for code that runs anywhere fetch does; `node` for Node-only code. Default `node`. */
  platform?: 'node' | 'neutral';
  /**
   * Workspace packages bundled into this one instead of depended on: package name -> its source entry,
   * relative to `dir`. The JavaScript comes from their builds; their declarations are inlined from
   * their sources (a build's declarations import chunks of its own, which would not come along).
   */
  inline?: Record<string, string>;
  /**
   * Dependencies bundled into both builds, tree-shaken, although they ship modules of their own: those
   * whose entry loads far more than this package uses, which every fresh module registry (each Jest test
   * file, each node:test process) pays for. Their declarations still come from the installed package,
   * so they stay dependencies. A package that bundles a library bundles every dependency of ours that
   * imports it too (the runtime and the contract import zod): one left to node_modules would load the
   * library's installed copy beside the bundled one.
   */
  bundle?: string[];
  /** Entries that are a worker thread's script: loaded by path, so built once, as ESM, without declarations. */
  workers?: string[];
  /**
   * Entries that are a command's script (the package's bin/ file imports dist/<name>.js): built as ESM
   * only, without declarations, in the same build as the entries, so the command shares their chunks.
   * What a command imports dynamically becomes a file of its own, whose modules run at its top level:
   * Node's compile cache, which keeps only a file's top-level code, then holds them (see `binBuild`), for
   * the `mock.startup.vs-node-http` row.
   */
  commands?: string[];
  /**
   * Entries built as ES modules only: a browser entry, which bundlers load as ESM. Its package.json
   * export has no `require` condition.
   */
  esmOnly?: string[];
  /**
   * Dependencies of a package bundled into the CommonJS build (an ES-module-only one) that ship
   * CommonJS of their own: left to `require` there rather than copied in, so they must be
   * dependencies of this package too, in the range the bundled package asks for.
   */
  cjsRequired?: string[];
  /**
   * Files a dependency bundled into the CommonJS build reads beside its own module at run time, copied
   * to the same place beside the bundle: `via` is the chain of packages that leads to it from this one.
   */
  cjsAssets?: { via: string[]; file: string; to: string }[];
}

interface PackageJson {
  type?: string;
  main?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

/** Whether an installed package offers nothing to `require`: type module and no `require` condition or `.cjs` main. */
export function isEsmOnly(pkg: PackageJson): boolean {
  if (pkg.type !== 'module') return false;
  if (JSON.stringify(pkg.exports ?? {}).includes('"require"')) return false;
  return !pkg.main?.endsWith('.cjs');
}

/** The installed package.json of `name`, a dependency of the package at `dir`. */
function dependencyManifest(dir: string, name: string): PackageJson {
  // Not require.resolve: a package need not export its package.json. Look in node_modules, as Node does.
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'node_modules', name, 'package.json');
    if (existsSync(file)) return readJson(file);
    if (at === dirname(at)) throw new Error(`${name}, a dependency of ${dir}, is not installed: run pnpm install.`);
  }
}

/** The real directory of the package `chain` leads to: each a dependency of the one before, the first of `dir`'s. */
function packageDirVia(dir: string, chain: string[]): string {
  let at = dir;
  for (const name of chain) {
    for (let up = at; ; up = dirname(up)) {
      const candidate = join(up, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) {
        at = realpathSync(candidate);
        break;
      }
      if (up === dirname(up)) throw new Error(`${name} (via ${chain.join(' -> ')}) is not installed under ${dir}: run pnpm install.`);
    }
  }
  return at;
}

/** The dependencies of the package at `dir` that ship only ESM, as installed there. */
export function esmOnlyDependencies(dir: string): string[] {
  const own = readJson(join(dir, 'package.json'));
  return Object.keys({ ...own.dependencies, ...own.peerDependencies }).filter((name) => isEsmOnly(dependencyManifest(dir, name)));
}

/** The tsup configurations (ESM, then CommonJS) of a package. */
export function libraryBuild(options: LibraryBuildOptions): Options[] {
  const inline = Object.keys(options.inline ?? {});
  const bundle = options.bundle ?? [];
  const paths = Object.fromEntries(Object.entries(options.inline ?? {}).map(([name, source]) => [name, [source]]));
  const esmOnly = esmOnlyDependencies(options.dir);
  const byPath = [...(options.workers ?? []), ...(options.commands ?? [])];
  const modules = Object.fromEntries(Object.entries(options.entry).filter(([name]) => !byPath.includes(name)));
  const cjsModules = Object.fromEntries(Object.entries(modules).filter(([name]) => !options.esmOnly?.includes(name)));
  const common: Options = {
    entry: options.entry,
    outDir: 'dist',
    platform: options.platform ?? 'node',
    target: options.platform === 'neutral' ? 'es2022' : 'node22',
    // No maps: the JavaScript is not minified, so a stack trace already points at readable code, and
    // maps were much of what the packages added to a user's install (the `install.*` rows).
    sourcemap: false,
    // The build script empties dist first: the two formats build side by side.
    clean: false,
    splitting: true,
    removeNodeProtocol: false,
    dts: { entry: modules, resolve: inline, compilerOptions: { paths } },
    plugins: [asciiOutput],
  };
  return [
    { ...common, name: 'esm', format: 'esm', noExternal: [...inline, ...bundle] },
    {
      ...common,
      name: 'cjs',
      format: 'cjs',
      entry: cjsModules,
      // Its declarations are the ESM build's, copied by scripts/build/run.ts (cjs-declarations.ts).
      dts: false,
      // Split, as the ESM build is. tsup turns split ESM chunks into CommonJS with sucrase, whose rewrite
      // of class fields breaks some compiled dependency code (jose's errors: `super(m), this.name = ...`
      // becomes a syntax error); with `treeshake` it hands each chunk to rollup instead, which converts
      // it as written. The safest preset keeps every side effect rollup cannot rule out.
      splitting: true,
      treeshake: { preset: 'safest' },
      // import.meta.url, in the CommonJS build, from the file's own path.
      shims: true,
      noExternal: [...inline, ...bundle, ...esmOnly],
      ...(options.cjsRequired
        ? {
            esbuildOptions(o) {
              o.external = [...(o.external ?? []), ...(options.cjsRequired ?? [])];
            },
          }
        : {}),
      async onSuccess() {
        for (const asset of options.cjsAssets ?? []) {
          const to = join(options.dir, 'dist', asset.to);
          mkdirSync(dirname(to), { recursive: true });
          copyFileSync(join(packageDirVia(options.dir, asset.via), asset.file), to);
        }
      },
    },
  ];
}

/** What a package's command builds into. */
export interface BinBuildOptions {
  /** The package directory (where package.json is). */
  dir: string;
  /** The command's source, relative to `dir`. It builds to dist/cli.js, which the package's bin/ file imports. */
  entry: string;
  /** Dependencies left to node_modules: those that load files of their own (WebAssembly, workers, assets). */
  external?: string[];
}

/**
 * A command as ESM files of its own, its third-party dependencies bundled in (but for those named
 * `external`), so it starts without resolving and loading hundreds of modules; our own packages it
 * depends on load from node_modules. Bundled CommonJS dependencies get a `require` of their own. (A
 * command that runs what its package's entries run, as `engagekit-mock` does, is one of `libraryBuild`'s
 * `commands` instead, sharing their chunks.)
 *
 * Split: what the command imports dynamically becomes a file of its own, whose modules run at its top
 * level. Unsplit, esbuild wraps each of those modules in a function run on first use; V8 compiles such
 * functions anew at every start, and Node's compile cache keeps only the code compiled with the file,
 * its top level. Split, the cache holds them.
 */
export function binBuild(options: BinBuildOptions): Options {
  const own = readJson(join(options.dir, 'package.json'));
  const external = options.external ?? [];
  // Our own packages are dependencies, loaded from node_modules: never a copy inside a command.
  const ours = Object.keys(own.dependencies ?? {}).filter((name) => name.startsWith('@engagekit/'));
  return {
    name: 'bin',
    entry: { cli: options.entry },
    outDir: 'dist',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    clean: false,
    splitting: true,
    removeNodeProtocol: false,
    plugins: [asciiOutput],
    external: [...external, ...ours],
    noExternal: Object.keys({ ...own.dependencies, ...own.devDependencies }).filter((name) => !external.includes(name) && !ours.includes(name)),
    banner: { js: "import { createRequire as __engagekitRequire } from 'node:module'; const require = __engagekitRequire(import.meta.url);" },
  };
}
