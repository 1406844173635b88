import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../scratch-files.ts';
import { declaredValues, readDeclarations, unnamedTypes } from './type-names.ts';

/**
 * A built package of declaration files only: `files` under its dist, an entry `.` and `./extra`, and
 * `modules` (paths under node_modules) as its installed dependencies.
 */
function builtPackage(files: Record<string, string>, modules: Record<string, string> = {}): string {
  const exports = {
    '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
    './extra': { import: { types: './dist/extra.d.ts', default: './dist/extra.js' } },
  };
  const dist = Object.entries({ 'extra.d.ts': 'export {};\n', ...files }).map(([name, text]) => [`dist/${name}`, text]);
  return scratchFiles('engagekit-type-names-', {
    'package.json': JSON.stringify({ name: 'fixture', type: 'module', exports }),
    ...Object.fromEntries(dist),
    ...Object.fromEntries(Object.entries(modules).map(([name, text]) => [`node_modules/${name}`, text])),
  });
}

/** An installed package `name` whose types are `types`. */
const installed = (name: string, types: string) => ({
  [`${name}/package.json`]: JSON.stringify({ name, type: 'module', exports: { '.': { types: './index.d.ts', default: './index.js' } } }),
  [`${name}/index.d.ts`]: types,
});

// Declaration files as tsup's declaration bundler writes them: declarations, then one list of exports (a
// .d.ts module without such a list would export every declaration). A shared chunk exports under letters.
const CHUNK = `interface Limits { max: number }
type Shared = { limits: Limits };
export type { Shared as S, Limits as L };
`;

/** The problems without the paths that reached each type (`, reached from Api`), sorted. */
const withoutPaths = (problems: string[]) => problems.map((p) => p.replace(/, reached from \w+$/, '')).sort();

describe('unnamedTypes', () => {
  it('names each interface, class or enum a public export reaches that no public entry exports, however it is reached', () => {
    const dir = builtPackage({
      'chunk.d.ts': CHUNK,
      'index.d.ts': `import { S as Shared } from './chunk.js';
interface Hidden { a: string }
interface Base { b: string }
declare class Core { get(): Promise<Hidden>; }
declare enum Mode { On = 0 }
interface Api extends Base { hidden: Hidden; shared: Shared }
declare function create(mode: Mode): Core;
export { create };
export type { Api };
`,
    });
    const problems = unnamedTypes(readDeclarations(dir));
    // Each type once, by the first path that reaches it: Hidden by Api's member or by Core's method.
    expect(withoutPaths(problems)).toEqual([
      'Base (dist/index.d.ts)',
      'Core (dist/index.d.ts)',
      'Hidden (dist/index.d.ts)',
      'Limits (dist/chunk.d.ts)',
      'Mode (dist/index.d.ts)',
      // Exported from its chunk, so TypeScript would name it by the chunk's path (TS2742).
      'Shared (dist/chunk.d.ts)',
    ]);
    expect(problems).toContain('Mode (dist/index.d.ts), reached from create');
  });

  it('leaves a private alias that its file does not export: TypeScript writes it out', () => {
    const dir = builtPackage({ 'index.d.ts': 'type Inlined = { b: number } | string;\ninterface Api { inlined: Inlined }\nexport type { Api };\n' });
    expect(unnamedTypes(readDeclarations(dir))).toEqual([]);
  });

  it('takes a type exported by any public entry as named, under another name too', () => {
    const dir = builtPackage({
      'chunk.d.ts': CHUNK,
      'index.d.ts': `import { S as Shared } from './chunk.js';\ninterface Api { shared: Shared }\nexport type { Api, Shared as Settings };\n`,
      'extra.d.ts': `export type { L as Limits } from './chunk.js';\n`,
    });
    expect(unnamedTypes(readDeclarations(dir))).toEqual([]);
  });

  it('follows import() types, names an enum by its member, and takes a type in an exported namespace as named', () => {
    const dir = builtPackage({
      'chunk.d.ts': 'interface Far { a: string }\nexport type { Far as F };\n',
      'index.d.ts': `declare enum Mode { On = 0 }
declare namespace Shapes { interface Circle { r: number } }
interface Api { far: import('./chunk.js').F; mode: Mode.On; circle: Shapes.Circle }
export type { Api, Shapes };
`,
    });
    expect(withoutPaths(unnamedTypes(readDeclarations(dir)))).toEqual(['Far (dist/chunk.d.ts)', 'Mode (dist/index.d.ts)']);
  });
});

describe('unnamedTypes, for types other packages declare', () => {
  it('names what another package declares that a public export reaches and no entry exports, following our own packages further', () => {
    const dir = builtPackage(
      {
        'index.d.ts': `import type { Far, Union, Written, Shown, Outer, Made, make } from 'dep';
import type * as sib from '@engagekit/sib';
import type { ZodString } from 'zod';
interface Api {
  far: Far; union: Union; written: Written; shown: Shown; outer: Outer; made: ReturnType<typeof make>;
  store: sib.Store; schema: ZodString; signal: AbortSignal; glob: Glob; augmented: Augmented;
}
export type { Api };
export type { Shown as Visible, Outer } from 'dep';
`,
      },
      {
        ...installed(
          'dep',
          `export interface Far { a: string }
export interface Near { n: string }
export type Union = { a: 1 } | { b: 2 };
export type Written = Near;
export interface Shown { c: string }
export interface Inner { i: string }
export interface Outer { inner: Inner }
export interface Made { m: string }
export declare function make(): Made;
declare global { interface Glob { g: string } }
declare module 'zod' { interface Augmented { z: string } }
`,
        ),
        ...installed('@engagekit/sib', 'export interface Row { id: string }\nexport interface Store { get(): Row }\nexport interface Unused { u: string }\n'),
        ...installed('zod', 'export interface ZodString { parse(x: unknown): string }\nexport interface Augmented {}\n'),
      },
    );
    expect(withoutPaths(unnamedTypes(readDeclarations(dir)))).toEqual([
      // An interface, and a union its alias names.
      'Far (dep)',
      // A value's type reached by typeof, and what an alias TypeScript writes out stands for.
      'Made (dep)',
      'Near (dep)',
      // Reached through @engagekit/sib's Store, which is followed as ours; Unused, in the same module, is not reached.
      'Row (@engagekit/sib)',
      'Store (@engagekit/sib)',
      'Union (dep)',
      // Not Inner: a dependency's type users can name (Outer, exported here) is not followed further.
    ]);
  });
});

describe('declaredValues', () => {
  it('lists the values each entry declares, leaving out types and what is exported as a type only', () => {
    const dir = builtPackage({
      'index.d.ts': `declare class Made {}
declare class Shown {}
declare function make(): Made;
declare const version: string;
interface Options { a?: string }
export { Made, make, version };
export type { Options, Shown };
`,
      'extra.d.ts': `export { make as create } from './index.js';\nexport { type Made as Kind } from './index.js';\n`,
    });
    expect(declaredValues(readDeclarations(dir))).toEqual(
      new Map([
        ['.', ['Made', 'make', 'version']],
        ['./extra', ['create']],
      ]),
    );
  });
});
