/**
 * The code `execute` gets, turned into the script the sandbox runs: wrapped as the body of an async
 * function (top-level `await` and `return` work), TypeScript types stripped by Node's own
 * `module.stripTypeScriptTypes` (whitespace in their place, so lines and columns stay where they were).
 * No TypeScript compiler runs: types are removed, not checked.
 */
import module from 'node:module';
import { parse } from 'acorn';

/** The file name the sandbox gives the code: stacks and syntax errors name it. */
export const CODE_FILE = 'code.ts';

/** The lines around the code: the body of an async function, called at once. */
const WRAP_START = '(async () => {';
const WRAP_END = '})()';

/** The wrapper adds one line before the code: a line in the script is this much past the code's. */
const LINE_OFFSET = 1;

/** The code as a script, or why it is not one. */
type Script = { script: string } | { error: { name: string; message: string; line?: number } };

/** Wraps and strips `code`. */
export function toScript(code: string): Script {
  const wrapped = `${WRAP_START}\n${code}\n${WRAP_END}`;
  try {
    return { script: module.stripTypeScriptTypes(wrapped) };
  } catch (e) {
    return { error: parseError(e as Error & { code?: string }) };
  }
}

/**
 * A stripping error, for a person: Node's message, and the line with a caret under the place (its stack
 * starts with `:LINE`, the line and the caret).
 */
function parseError(e: Error & { code?: string }): { name: string; message: string; line?: number } {
  const frame = /^:(\d+)\n([\s\S]*?)\n\n/.exec(e.stack ?? '');
  const line = frame ? Number(frame[1]) - LINE_OFFSET : undefined;
  const unsupported = e.code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX';
  // The frame shows the wrapper's lines around a short code: they are not the code's.
  const shown = frame?.[2]
    ?.split('\n')
    .filter((l) => l !== WRAP_START && l !== WRAP_END)
    .join('\n');
  const message = `${e.message}${shown ? `\n${shown}` : ''}${
    unsupported ? '\nOnly type annotations can be stripped: write the code without enums, namespaces and parameter properties.' : ''
  }`;
  return { name: 'SyntaxError', message, ...(line !== undefined ? { line } : {}) };
}

/** The first place in the code a sandbox stack names, as a line of the code (not of the script). */
export function codeLine(stack: string | undefined): number | undefined {
  const m = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack ?? '');
  return m ? Number(m[1]) - LINE_OFFSET : undefined;
}

/** The frames of a sandbox stack that are in the code, with the code's line numbers. */
export function codeStack(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const frames = stack
    .split('\n')
    .filter((l) => l.includes(CODE_FILE))
    .map((l) => l.trim().replace(new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+)`), (_m, n: string) => `${CODE_FILE}:${Number(n) - LINE_OFFSET}`));
  return frames.length ? frames.join('\n') : undefined;
}

/** A place the code reads the global `mock`. */
interface MockUse {
  /** The line of the code. */
  line: number;
}

/** A node of acorn's tree, as far as the walk reads it. */
interface Node {
  type: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

/** The names a binding pattern declares (`x`, `{ a, b: [c] }`, `...rest`, `d = 1`). */
function declared(pattern: Node | null | undefined, into: Set<string>): void {
  if (!pattern) return;
  if (pattern.type === 'Identifier') into.add(pattern.name as string);
  else if (pattern.type === 'ObjectPattern')
    for (const p of pattern.properties as Node[]) declared((p.type === 'RestElement' ? p.argument : p.value) as Node, into);
  else if (pattern.type === 'ArrayPattern') for (const p of pattern.elements as (Node | null)[]) declared(p, into);
  else if (pattern.type === 'RestElement') declared(pattern.argument as Node, into);
  else if (pattern.type === 'AssignmentPattern') declared(pattern.left as Node, into);
}

/**
 * Where `script` (what `toScript` made of the code) reads the global `mock`, found by parsing: a
 * property named `mock`, a label, a string or a name such as `mockData` is not a use, and neither is
 * any `mock` when the code declares one of its own. Undefined when it does not, or when it does not
 * parse (the sandbox then reports the syntax error).
 */
export function mockUse(script: string): MockUse | undefined {
  let tree: Node;
  try {
    tree = parse(script, { ecmaVersion: 'latest', sourceType: 'script', locations: true }) as unknown as Node;
  } catch {
    return undefined;
  }
  const names = new Set<string>();
  const uses: Node[] = [];
  const walk = (node: Node, parent: Node | undefined, key: string) => {
    if (node.type === 'Identifier' && node.name === 'mock') {
      const property = parent && !parent.computed && key === 'property' && parent.type === 'MemberExpression';
      const keyOf = parent && !parent.computed && key === 'key' && ['Property', 'MethodDefinition', 'PropertyDefinition'].includes(parent.type);
      const label = parent && key === 'label';
      if (!property && !keyOf && !label) uses.push(node);
    }
    if (node.type === 'VariableDeclarator') declared(node.id as Node, names);
    if (/Function/.test(node.type)) {
      declared(node.id as Node, names);
      for (const p of node.params as Node[]) declared(p, names);
    }
    if (node.type === 'ClassDeclaration') declared(node.id as Node, names);
    if (node.type === 'CatchClause') declared(node.param as Node, names);
    for (const [k, v] of Object.entries(node)) {
      if (Array.isArray(v)) for (const child of v) if (child && typeof child.type === 'string') walk(child, node, k);
      if (v && typeof v === 'object' && typeof (v as Node).type === 'string') walk(v as Node, node, k);
    }
  };
  walk(tree, undefined, '');
  if (names.has('mock') || uses.length === 0) return undefined;
  return { line: Math.min(...uses.map((u) => u.loc?.start.line ?? LINE_OFFSET + 1)) - LINE_OFFSET };
}
