import * as z from 'zod';

/**
 * Limits on free-form JSON (order attributes): how deep it nests, how many keys and items it holds in
 * all, and how long its strings and keys are. Past them, a request is a 400 naming the place.
 */
export const FREE_FORM_LIMITS = { depth: 32, entries: 1000, stringLength: 10_000 } as const;

/** Where free-form JSON breaks its limits first (the path inside it) and how; undefined when it keeps them. */
export interface FreeFormProblem {
  path: (string | number)[];
  message: string;
}

/**
 * The first way `value` breaks FREE_FORM_LIMITS, walking it without recursion (so no nesting, however
 * deep, overflows the stack); undefined when it keeps them.
 */
export function freeFormProblem(value: unknown): FreeFormProblem | undefined {
  const { depth, entries, stringLength } = FREE_FORM_LIMITS;
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  let seen = 0;
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as (typeof stack)[number];
    if (typeof v === 'string') {
      if (v.length > stringLength) return { path, message: `must be at most ${stringLength} characters` };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= depth) return { path, message: `nests too deep: free-form values may nest at most ${depth} levels` };
    const children: [string | number, unknown][] = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    seen += children.length;
    if (seen > entries) return { path, message: `holds too much: free-form values may hold at most ${entries} keys and items in all` };
    for (const [key, child] of children) {
      if (typeof key === 'string' && key.length > stringLength) return { path, message: `has a key longer than ${stringLength} characters` };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** A free-form JSON object, within FREE_FORM_LIMITS. */
export function freeFormObject(description: string, example: Record<string, unknown>) {
  const { depth, entries, stringLength } = FREE_FORM_LIMITS;
  return z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      const problem = freeFormProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    })
    .meta({
      description: `${description} Nested at most ${depth} levels, at most ${entries} keys and items in all, strings and keys at most ${stringLength} characters.`,
      example,
    });
}
