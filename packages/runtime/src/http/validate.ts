import type { Issue } from '@engagekit/contract';
import type * as z from 'zod';

/** zod issues as the API reports them: a dot path naming the field, and a message a person can act on. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Per-parse error map: a missing field reads "is required", not zod's "expected string, received undefined". */
export const requiredMessage = (iss: { input?: unknown; code?: string }) =>
  iss.code === 'invalid_type' && iss.input === undefined ? 'is required' : undefined;
