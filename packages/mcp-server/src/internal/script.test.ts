import { describe, expect, it } from 'vitest';
import { codeLine, codeStack, mockUse, toScript } from './script.ts';

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

describe('mockUse', () => {
  const use = (code: string) => {
    const script = toScript(code);
    if ('error' in script) throw new Error(script.error.message);
    return mockUse(script.script);
  };

  it('finds the global mock where the code reads it, with its line', () => {
    expect(use("const a = 1;\nawait mock.clock.advance('1h');")).toEqual({ line: 2 });
    expect(use('const { clock } = mock;\nreturn clock.now();')).toEqual({ line: 1 });
    expect(use('return { mock };')).toEqual({ line: 1 });
    expect(use("return mock['clock'];")).toEqual({ line: 1 });
  });

  it('finds none in a name that only starts with it, a property, a key, a string, a comment or a label', () => {
    expect(use('const mockData = 1;\nreturn mockData;')).toBeUndefined();
    expect(use("const o = { mock: 1 };\nreturn o.mock + 'mock';")).toBeUndefined();
    expect(use('// mock.clock.advance\nmock: for (;;) break mock;\nreturn `mock`;')).toBeUndefined();
  });

  it('finds none when the code declares a mock of its own', () => {
    expect(use('const mock = { clock: { now: () => 0 } };\nreturn mock.clock.now();')).toBeUndefined();
    expect(use('function f(mock: number) { return mock; }\nreturn f(1);')).toBeUndefined();
  });
});
