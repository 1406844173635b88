import * as z from 'zod';
import { findInJson } from './json-walk.ts';

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
 * The first way `value` breaks FREE_FORM_LIMITS, in document order; undefined when it keeps them.
 * No nesting, however deep, overflows the stack (findInJson walks without recursion).
 */
export function freeFormProblem(value: unknown): FreeFormProblem | undefined {
  const { depth, entries, stringLength } = FREE_FORM_LIMITS;
  let seen = 0;
  return findInJson(value, (v, path): FreeFormProblem | undefined => {
    if (typeof v === 'string') return v.length > stringLength ? { path, message: `must be at most ${stringLength} characters` } : undefined;
    if (typeof v !== 'object' || v === null) return undefined;
    if (path.length >= depth) return { path, message: `nests too deep: free-form values may nest at most ${depth} levels` };
    const keys = Array.isArray(v) ? [] : Object.keys(v);
    seen += Array.isArray(v) ? v.length : keys.length;
    if (seen > entries) return { path, message: `holds too much: free-form values may hold at most ${entries} keys and items in all` };
    if (keys.some((key) => key.length > stringLength)) return { path, message: `has a key longer than ${stringLength} characters` };
    return undefined;
  });
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
      maxProperties: entries,
      description: `${description} Nested at most ${depth} levels, at most ${entries} keys and items in all, strings and keys at most ${stringLength} characters.`,
      example,
    });
}
