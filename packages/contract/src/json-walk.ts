/** Where a value sits inside a JSON value: keys and array indexes, outermost first. */
export type JsonPath = (string | number)[];

/**
 * Calls `check` on `value` and on every value inside it, in document order, until one call returns
 * something, and returns that; undefined when none does. An object's keys are `check`'s to look at:
 * it gets the object. It walks with a stack of its own, not recursion, so no nesting, however deep,
 * overflows the call stack; and it goes no deeper than `check` lets it, since it stops at the first find.
 *
 * @example findInJson({ a: [1, 'x'] }, (v, path) => (v === 'x' ? path : undefined)) // ['a', 1]
 */
export function findInJson<T>(value: unknown, check: (node: unknown, path: JsonPath) => T | undefined): T | undefined {
  const stack: { node: unknown; path: JsonPath }[] = [{ node: value, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as (typeof stack)[number];
    const found = check(node, path);
    if (found !== undefined) return found;
    if (!node || typeof node !== 'object') continue;
    const children: [string | number, unknown][] = Array.isArray(node) ? node.map((item, i) => [i, item]) : Object.entries(node);
    for (let i = children.length - 1; i >= 0; i--) {
      const [key, child] = children[i] as [string | number, unknown];
      stack.push({ node: child, path: [...path, key] });
    }
  }
  return undefined;
}
