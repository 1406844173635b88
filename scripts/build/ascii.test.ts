import { describe, expect, it } from 'vitest';
import { asciiComments } from './ascii.ts';

describe('asciiComments', () => {
  it('leaves an ASCII file as it is', () => {
    const code = 'export const a = "\\xE9"; // plain\n';
    expect(asciiComments(code, 'a.js')).toBe(code);
  });

  it('replaces each non-ASCII code unit of a comment with ?, keeping lines and columns', () => {
    const code = 'const a = 1; // a — b 😀\n/* § */ const b = a;\n';
    const out = asciiComments(code, 'a.js');
    expect(out).toBe('const a = 1; // a ? b ??\n/* ? */ const b = a;\n');
    expect(out.split('\n').map((line) => line.length)).toEqual(code.split('\n').map((line) => line.length));
  });

  it('refuses a non-ASCII character in code, naming the file', () => {
    expect(() => asciiComments('const a = "é";\n', 'dist/a.js')).toThrow(/dist\/a\.js: a non-ASCII character outside a comment/);
    expect(() => asciiComments('const a = String.raw`é`;\n', 'dist/b.js')).toThrow(/dist\/b\.js/);
  });
});
