import type * as z from 'zod';
import type { ErrorStatus } from './envelope.ts';
import type { Scope } from './resources/company.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Which base URL an operation lives under. */
export type Surface = 'agency' | 'order' | 'admin';

/**
 * Who may call an operation. A company token must hold `scope`; the admin token needs none.
 * Every kind a company token may call names its scope, so the app checks scope and company together.
 */
export type OperationAuth =
  | { kind: 'company'; scope: Scope }
  | { kind: 'admin' }
  /**
   * The admin token, or a company token of the company the path names holding `scope`: a company
   * manages its own webhooks, which need `orders` since the events they carry are orders.
   */
  | { kind: 'admin-or-company'; scope: Scope }
  | { kind: 'public' };

/** One successful answer of an operation. */
export interface SuccessResponse {
  description: string;
  schema: z.ZodType;
}

/**
 * One API operation: everything the document, the server and the clients need to know about it.
 * Routes, request validation and response types are all derived from this one object.
 */
export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** Further methods the server accepts on the same path, for compatibility. */
  alsoAccepts?: readonly HttpMethod[];
  /** OpenAPI-style path, e.g. `/agency/getCampaign/{id}`. */
  path: string;
  surface: Surface;
  auth: OperationAuth;
  tags: readonly [string, ...string[]];
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Successful answers by status; the first is the usual one. */
  responses: Partial<Record<200 | 201 | 202, SuccessResponse>>;
  /**
   * Error statuses the operation's own handler answers with. The statuses of the steps before it
   * (authentication, rate limit, validation, ...) are added by `errorStatusesOf`: see `stepStatuses`.
   */
  errors: readonly ErrorStatus[];
}

/** Identity function that keeps an operation's literal types. */
export function defineOperation<const T extends OperationSpec>(spec: T): T {
  return spec;
}

/** `/agency/getCampaign/{id}` -> `/agency/getCampaign/:id` (Hono, express and MSW style). */
export function toColonPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
