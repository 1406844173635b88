import type { Issue } from '@engagekit/contract';
import type * as z from 'zod';

/** A zod issue as the API reports it: a dot path naming the field, and a message a person can act on. */
export function toIssue(issue: z.ZodError['issues'][number]): Issue {
  return { path: issue.path.map(String).join('.'), message: issue.message };
}

/** Per-parse error map: a missing field reads "is required", not zod's "expected string, received undefined". */
export const requiredMessage = (iss: { input?: unknown; code?: string }) =>
  iss.code === 'invalid_type' && iss.input === undefined ? 'is required' : undefined;
