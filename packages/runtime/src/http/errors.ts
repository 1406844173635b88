import { type ErrorResponse, type ErrorStatus, errorCodes, type Issue } from '@engagekit/contract';

/**
 * An error the API answers with. Thrown anywhere inside a request; the app's one `onError` turns it
 * into the error envelope.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: ErrorStatus;
  readonly code: string;
  readonly issues: Issue[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: ErrorStatus, message: string, opts: { issues?: Issue[]; code?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = status;
    this.code = opts.code ?? errorCodes[status];
    this.issues = opts.issues;
    this.headers = opts.headers ?? {};
  }
}

/** A 400 listing every offending field. */
export function validationError(issues: Issue[], lead = 'Invalid request'): HttpError {
  const summary = issues
    .slice(0, 5)
    .map((i) => (i.path ? `${i.path} ${i.message}` : i.message))
    .join('; ');
  return new HttpError(400, `${lead}: ${summary}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}`, { issues });
}

/** The error envelope for an HttpError. */
export function errorBody(err: HttpError, requestId: string): ErrorResponse {
  return {
    success: false,
    message: err.message,
    code: err.code,
    ...(err.issues ? { issues: err.issues } : {}),
    requestId,
  };
}
