import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** Where the command keeps its code caches unless told otherwise: one file per build and Node version. */
export const CODE_CACHE_DIR = join(tmpdir(), 'engagekit-mock-code-cache');

/** A CommonJS bundle, run. */
export interface LoadedBundle {
  /** What the bundle exports. */
  exports: unknown;
  /** Whether V8 started from a code cache written by an earlier start of the same build. */
  fromCache: boolean;
  /**
   * Writes the cache when there was none (or V8 refused it), holding every function compiled so far:
   * call it once the command has done its start-up work and served a request or two, e.g. as it stops.
   * Failing to write is not an error.
   */
  save(): void;
}

/**
 * Runs a CommonJS bundle (`module.exports`, `require`, `__filename` as Node gives them) from a V8
 * code cache when an earlier start of the same bundle left one. Node's own compile cache
 * (`module.enableCompileCache`) keeps only what V8 compiles before the module runs; this one is
 * written after start-up, so the functions start-up calls (the contract's schemas, the app) skip
 * compiling too. The cache file is named by a hash of the source, the Node version and the
 * architecture, so a new build or another Node never reads a stale one. A `cacheDir` of null runs
 * the bundle without a cache.
 *
 * Fast path for the mock.startup.vs-prism row: about a fifth of the instructions from spawn to the
 * first 200 went to parsing and compiling the 750 kB bundle.
 */
export function loadWithCodeCache(file: string, cacheDir: string | null = CODE_CACHE_DIR): LoadedBundle {
  const source = readFileSync(file, 'utf8');
  // Named by the bundle (its name and where it is installed) and the Node that reads it, then by a
  // hash of its source: a new build at the same place replaces the cache of the one before.
  const prefix = `${basename(file).replace(/\W/g, '-')}-${hash('sha1', file).slice(0, 12)}-${process.version}-${process.arch}-`;
  const cacheFile = cacheDir && join(cacheDir, `${prefix}${hash('sha1', source)}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  let saved = fromCache || !cacheFile;
  return {
    exports: module.exports,
    fromCache,
    save() {
      if (saved || !cacheDir || !cacheFile) return;
      saved = true;
      try {
        mkdirSync(cacheDir, { recursive: true });
        // Several mocks may start at once: each writes a file of its own and renames it into place.
        const partial = `${cacheFile}.${process.pid}`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
        // The caches of earlier builds of the same bundle, for the same Node, are of no more use.
        for (const old of readdirSync(cacheDir)) {
          if (old.startsWith(prefix) && old.endsWith('.v8cache') && join(cacheDir, old) !== cacheFile) rmSync(join(cacheDir, old), { force: true });
        }
      } catch {}
    },
  };
}
