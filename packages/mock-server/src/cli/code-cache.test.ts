import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWithCodeCache } from './code-cache.ts';

/** A CommonJS bundle in a directory of its own, and an empty cache directory beside it. */
function bundle(source: string) {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, source);
  return { file, cacheDir: join(dir, 'cache') };
}

/**
 * Loads the bundle in a Node process of its own, calls it, saves the cache: what one start of the
 * command does. (In this process V8 would find the source compiled already and read no cache.)
 */
function startInChild(file: string, cacheDir: string): { fromCache: boolean; answer: number } {
  const script = `const { loadWithCodeCache } = await import(${JSON.stringify(CODE_CACHE_MODULE)});
const loaded = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
const answer = loaded.exports.answer();
loaded.save();
console.log(JSON.stringify({ fromCache: loaded.fromCache, answer }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout);
}

const CODE_CACHE_MODULE = new URL('./code-cache.ts', import.meta.url).pathname;

const SOURCE = `const { join } = require('node:path');
exports.answer = () => 42;
exports.where = join(__dirname, 'x');
module.exports.self = __filename;`;

describe('loadWithCodeCache', () => {
  it('runs a CommonJS bundle with require, exports, module, __filename and __dirname', () => {
    const { file, cacheDir } = bundle(SOURCE);
    const loaded = loadWithCodeCache(file, cacheDir);
    const exports = loaded.exports as { answer(): number; where: string; self: string };
    expect(exports.answer()).toBe(42);
    expect(exports.self).toBe(file);
    expect(exports.where).toBe(join(file, '..', 'x'));
    expect(loaded.fromCache).toBe(false);
  });

  it('starts from the cache the first start saved, and saves nothing more then', () => {
    const { file, cacheDir } = bundle(SOURCE);
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: false, answer: 42 });
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: true, answer: 42 });
    expect(readdirSync(cacheDir)).toHaveLength(1);
  });

  it('reads no cache of an earlier build, and replaces it', () => {
    const { file, cacheDir } = bundle(SOURCE);
    startInChild(file, cacheDir);
    const [before] = readdirSync(cacheDir);
    // The same length, another source: V8 alone would not see the difference.
    writeFileSync(file, SOURCE.replace('42', '43'));
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: false, answer: 43 });
    const after = readdirSync(cacheDir);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: true, answer: 43 });
  });

  it('ignores a cache V8 refuses, and writes a good one', () => {
    const { file, cacheDir } = bundle(SOURCE);
    startInChild(file, cacheDir);
    const [name] = readdirSync(cacheDir) as [string];
    writeFileSync(join(cacheDir, name), 'not a code cache');
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: false, answer: 42 });
    expect(startInChild(file, cacheDir)).toEqual({ fromCache: true, answer: 42 });
  });

  it('runs without a cache given no directory, and one it cannot write is no error', () => {
    const { file } = bundle(SOURCE);
    const uncached = loadWithCodeCache(file, null);
    expect(uncached.fromCache).toBe(false);
    expect(() => uncached.save()).not.toThrow();
    const unwritable = loadWithCodeCache(file, join(file, 'not-a-directory'));
    expect(() => unwritable.save()).not.toThrow();
  });
});
