import { describe, expect, it } from 'vitest';
import { codeLine, codeStack, toScript } from './script.ts';

describe('toScript', () => {
  it('wraps the code in an async function and strips its types, keeping lines in place', () => {
    const result = toScript('const n: number = 1;\nreturn n as number;');
    expect(result).toEqual({ script: '(async () => {\nconst n         = 1;\nreturn n          ;\n})()' });
  });

  it('names the line of a syntax error, with a caret under the place', () => {
    const result = toScript('const a = 1;\nconst b = ;');
    expect(result).toMatchObject({ error: { name: 'SyntaxError', line: 2 } });
    expect('error' in result && result.error.message).toBe('Expression expected\nconst a = 1;\nconst b = ;\n          ^');
  });

  it('says what to write instead of TypeScript that needs more than stripping', () => {
    const result = toScript('enum Color { Red }\nreturn Color.Red;');
    expect('error' in result && result.error.message).toContain('write the code without enums, namespaces and parameter properties');
  });
});

describe('codeLine and codeStack', () => {
  const stack = '    at deeper (code.ts:3:5)\n    at <anonymous> (code.ts:5:10)\n    at finish (prelude.js:140:3)\n';

  it('give the code’s own line numbers, without the prelude’s frames', () => {
    expect(codeLine(stack)).toBe(2);
    expect(codeStack(stack)).toBe('at deeper (code.ts:2:5)\nat <anonymous> (code.ts:4:10)');
    expect(codeLine(undefined)).toBeUndefined();
  });
});
