import type { ErrorStatus } from './envelope.ts';
import type { HttpMethod, OperationSpec } from './operation.ts';

/** Whether a call names a company by UUID: agency calls (`?uuid=`) and admin calls under `/companies/{uuid}`. */
export function namesCompany(op: OperationSpec): boolean {
  return op.surface === 'agency' || op.params?.shape.uuid !== undefined;
}

/**
 * The error statuses of each step a request to an operation goes through, in the order the server
 * runs them (`registerOperations` in the reference server). The document lists, for every operation,
 * the union of its steps' statuses: what the server can answer and what the document says come from
 * this one table, and the server refuses to answer a status it does not list.
 */
export const stepStatuses = {
  /** No, malformed, expired or foreign token. */
  authenticate: (op) => (op.auth.kind === 'public' ? [] : [401]),
  /** The caller's requests this minute are used up: its company's (all its tokens together), or the admin token's. */
  rateLimit: (op) => (op.auth.kind === 'public' ? [] : [429]),
  /**
   * Params, query and body: a bad field, a query parameter given twice (any operation) or a NUL
   * character; a body that is too large, not JSON or not in UTF-8 (415), or not valid UTF-8 or JSON (400).
   */
  validate: (op) => (op.body ? [400, 413, 415] : [400]),
  /** The company the call names is unknown; an order call's token names a company that is gone. */
  resolveCompany: (op) => (namesCompany(op) ? [404] : op.auth.kind === 'company' ? [401] : []),
  /** A company token of another company, naming another `company_id`, or without the scope. */
  authorize: (op) => (op.auth.kind === 'company' || op.auth.kind === 'admin-or-company' ? [403] : []),
  /** A write with an Idempotency-Key: a bad or reused key (400), the first request still running (409). */
  idempotency: (_op, method) => (method === 'get' ? [] : [400, 409]),
  /**
   * The database is unavailable: it refuses connections, or the pool stayed exhausted past its bounded
   * wait. Every operation reads or writes it (a company's token is checked against its company), but
   * getLiveness, which answers while the process serves whatever the database does.
   */
  database: (op) => (op.operationId === 'getLiveness' ? [] : [503]),
  /** What the operation's own handler answers (`errors` in the operation table). */
  run: (op) => op.errors,
  /** A fault of the server's own. */
  fault: () => [500],
} satisfies Record<string, (op: OperationSpec, method: HttpMethod) => readonly ErrorStatus[]>;

/** Every error status `op` can answer with `method`, ascending: the union of its steps' statuses. */
export function errorStatusesOf(op: OperationSpec, method: HttpMethod = op.method): ErrorStatus[] {
  const all = new Set<ErrorStatus>();
  for (const step of Object.values(stepStatuses)) for (const s of step(op, method)) all.add(s);
  return [...all].sort((a, b) => a - b);
}

/** Every status `op` can answer with `method`: its successes, then its errors. */
export function statusesOf(op: OperationSpec, method: HttpMethod = op.method): number[] {
  return [...Object.keys(op.responses).map(Number), ...errorStatusesOf(op, method)];
}
