import { describe, expect, it } from 'vitest';
import { checkCycles, cyclesOf, importGraph } from './import-cycles.ts';
import { scratchFiles } from './scratch-files.ts';

describe('importGraph', () => {
  it('follows relative imports and re-exports, type-only and dynamic ones too, and leaves packages out', () => {
    const files: Record<string, string> = {
      '/p/src/a.ts': "import { b } from './b.ts';\nimport type { C } from './dir/c.ts';\nimport { z } from 'zod';\nexport * from './d.ts';\n",
      '/p/src/b.ts': "const later = () => import('./a.ts');\n",
      '/p/src/dir/c.ts': "export type { D } from '../d.ts';\n",
      '/p/src/d.ts': '// import { a } from "./a.ts" in a comment is no import\nexport const d = 1;\n',
    };
    const graph = importGraph(Object.keys(files), (file) => files[file] as string);
    expect(Object.fromEntries(graph)).toEqual({
      '/p/src/a.ts': ['/p/src/b.ts', '/p/src/dir/c.ts', '/p/src/d.ts'],
      '/p/src/b.ts': ['/p/src/a.ts'],
      '/p/src/dir/c.ts': ['/p/src/d.ts'],
      '/p/src/d.ts': [],
    });
  });
});

describe('cyclesOf', () => {
  it('gives each group of files that reach one another, and nothing for a graph without cycles', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', ['d']],
      ['f', ['a']],
    ]);
    expect(cyclesOf(graph)).toEqual(
      expect.arrayContaining([
        ['a', 'b', 'c'],
        ['d', 'e'],
      ]),
    );
    expect(cyclesOf(graph)).toHaveLength(2);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('checkCycles', () => {
  it('reports a cycle the list does not know, and a listed cycle the code no longer has', () => {
    const root = scratchFiles('import-cycles-', {
      'packages/a/src/x.ts': "import { y } from './y.ts';\nexport const x = 1;\n",
      'packages/a/src/y.ts': "import { x } from './x.ts';\nexport const y = 2;\n",
      'packages/a/src/z.ts': 'export const z = 3;\n',
    });
    const listed = [['packages/a/src/x.ts', 'packages/a/src/y.ts']];
    expect(checkCycles(root, listed)).toEqual({ unknown: [], gone: [] });
    expect(checkCycles(root, [])).toEqual({ unknown: listed, gone: [] });
    const goneCycle = ['packages/a/src/y.ts', 'packages/a/src/z.ts'];
    expect(checkCycles(root, [...listed, goneCycle])).toEqual({ unknown: [], gone: [goneCycle] });
  });
});
