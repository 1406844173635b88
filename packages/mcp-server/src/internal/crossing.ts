/**
 * An error as it crosses between the host and the sandbox, and as a run's report gives it: one type,
 * written once. The bridge sends it, the prelude (told `ERROR_FIELDS` in its setup) sets its fields on
 * the Error the code catches, and the report shows it, each part bounded so that no error, however
 * large, floods the sandbox or the assistant's context.
 */
import { cut } from './cut.ts';

/** The fields an error carries besides its name and message, in the order a report shows them. */
export const ERROR_FIELDS = ['status', 'code', 'requestId', 'retryAfter', 'issues', 'issueCount', 'operation'] as const;

/** One bad field of a 400, as the API names it. */
export interface Issue {
  path: string;
  message: string;
}

/** An error crossing the bridge, or in a report. */
export interface CrossingError {
  /** `NotFoundError`, `TypeError`, ... */
  name: string;
  message: string;
  status?: number;
  code?: string;
  requestId?: string;
  /** Seconds the API asked to wait before trying again (a 429's `Retry-After`). */
  retryAfter?: number;
  /** The bad fields of a 400, the first `MAX_ISSUES` of them. */
  issues?: Issue[];
  /** How many issues the error had, when `issues` holds fewer. */
  issueCount?: number;
  /** The SDK method that failed, for an API error. */
  operation?: string;
}

/** The longest error message kept, in characters. */
export const MAX_MESSAGE_CHARS = 4_000;
/** The most issues an error keeps. */
export const MAX_ISSUES = 20;
/** The longest path or message of an issue, in characters. */
const MAX_ISSUE_CHARS = 300;

/** `issues` cut to `MAX_ISSUES`, each part to `MAX_ISSUE_CHARS`, with the full count when cut. */
function boundIssues(issues: unknown[]): Pick<CrossingError, 'issues' | 'issueCount'> {
  const kept = issues.slice(0, MAX_ISSUES).map((i) => {
    const issue = (i && typeof i === 'object' ? i : {}) as { path?: unknown; message?: unknown };
    return { path: cut(String(issue.path ?? ''), MAX_ISSUE_CHARS), message: cut(String(issue.message ?? i), MAX_ISSUE_CHARS) };
  });
  return { issues: kept, ...(issues.length > kept.length ? { issueCount: issues.length } : {}) };
}

/**
 * Any thrown value (an SDK error, a host error) as a bounded `CrossingError`: its class name, message,
 * status, code, request id and issues.
 */
export function crossing(e: unknown, operation?: string): CrossingError {
  if (!(e instanceof Error)) return { name: 'Error', message: cut(String(e), MAX_MESSAGE_CHARS), ...(operation ? { operation } : {}) };
  return bounded({ ...(e as unknown as Record<string, unknown>), name: e.name, message: e.message, ...(operation ? { operation } : {}) });
}

/** An error-like record's known fields, each bounded; anything else it holds is left behind. */
export function bounded(e: { name: unknown; message: unknown; [field: string]: unknown }): CrossingError {
  const out: CrossingError = { name: cut(String(e.name), 200), message: cut(String(e.message), MAX_MESSAGE_CHARS) };
  if (typeof e.status === 'number') out.status = e.status;
  if (typeof e.code === 'string') out.code = cut(e.code, 200);
  if (typeof e.requestId === 'string') out.requestId = cut(e.requestId, 200);
  if (typeof e.retryAfter === 'number') out.retryAfter = e.retryAfter;
  if (Array.isArray(e.issues)) {
    Object.assign(out, boundIssues(e.issues));
    // The SDK's `issuesTotal` (the server's `issues_total`) counts the issues a capped answer left out too.
    const total = Math.max(Number(e.issueCount) || 0, Number(e.issuesTotal) || 0);
    if (total > (out.issues?.length ?? 0)) out.issueCount = total;
  }
  if (typeof e.operation === 'string') out.operation = cut(e.operation, 200);
  return out;
}
