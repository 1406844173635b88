import { type ErrorResponse, type ErrorStatus, errorCodes, type Issue, MAX_ISSUES } from '@engagekit/contract';

/**
 * How much of what a request held an error answer may echo: at most MAX_ISSUES issues (the contract's),
 * each path and message clipped to a length, the issues' JSON within a byte budget, and the message
 * clipped too. Whatever a body under the size limit holds, its error answer stays well under 64 KB.
 */
export const ERROR_BOUNDS = { pathLength: 200, messageLength: 400, issuesBytes: 48 * 1024, leadLength: 1000 } as const;

/** `text` cut to `max` characters (not inside a surrogate pair), saying how long it was. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

const utf8 = new TextEncoder();

/** The first of `issues` an answer lists: at most MAX_ISSUES, each clipped, within ERROR_BOUNDS.issuesBytes. */
export function boundedIssues(issues: readonly Issue[]): Issue[] {
  const listed: Issue[] = [];
  let bytes = 0;
  for (const issue of issues) {
    if (listed.length === MAX_ISSUES) break;
    const clipped = { path: clip(issue.path, ERROR_BOUNDS.pathLength), message: clip(issue.message, ERROR_BOUNDS.messageLength) };
    bytes += utf8.encode(JSON.stringify(clipped)).byteLength + 1;
    if (bytes > ERROR_BOUNDS.issuesBytes) break;
    listed.push(clipped);
  }
  return listed;
}

/**
 * An error the API answers with. Thrown anywhere inside a request; the app's one `onError` turns it
 * into the error envelope. `issues` keeps what an answer lists (boundedIssues), `issuesTotal` how
 * many there were.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: ErrorStatus;
  readonly code: string;
  readonly issues: Issue[] | undefined;
  readonly issuesTotal: number | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: ErrorStatus,
    message: string,
    opts: { issues?: readonly Issue[]; issuesTotal?: number; code?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = opts.code ?? errorCodes[status];
    this.issues = opts.issues && boundedIssues(opts.issues);
    this.issuesTotal = opts.issues && (opts.issuesTotal ?? opts.issues.length);
    this.headers = opts.headers ?? {};
  }
}

/** A 400 listing the offending fields (the first of them: see HttpError); `total` counts them all when `issues` holds fewer. */
export function validationError(issues: readonly Issue[], lead = 'Invalid request', total = issues.length): HttpError {
  const listed = boundedIssues(issues.slice(0, 5));
  const summary = listed.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join('; ');
  return new HttpError(400, `${lead}: ${summary}${total > listed.length ? `; and ${total - listed.length} more` : ''}`, { issues, issuesTotal: total });
}

/** The error envelope for an HttpError. */
export function errorBody(err: HttpError, requestId: string): ErrorResponse {
  return {
    success: false,
    message: clip(err.message, ERROR_BOUNDS.leadLength),
    code: err.code,
    ...(err.issues ? { issues: err.issues, issues_total: err.issuesTotal ?? err.issues.length } : {}),
    requestId,
  };
}
