/**
 * Every error the SDK throws. `APIError.from(status, body, headers)` picks the subclass for a status.
 *
 * Identity: `instanceof` works within one copy of the package; `XError.is(value)` also works across
 * copies (two installed versions, or the ESM and CJS builds side by side), because each error carries a
 * `Symbol.for` brand listing its class names.
 */

const BRAND = Symbol.for('@engagekit/sdk.error');

/** One offending field of a 400, as the API lists them. */
export interface Issue {
  /** The field, dot-separated (e.g. `template_payload.variables.first_name`); empty for the whole input. */
  path: string;
  /** What is wrong with it. */
  message: string;
}

type ErrorClass = abstract new (...args: never[]) => EngageError;

/**
 * The base of every error the SDK throws.
 *
 * @example
 * try { await client.campaigns.get(id) } catch (e) { if (EngageError.is(e)) console.error(e.name, e.message) }
 */
export class EngageError extends Error {
  /** The class name, kept as a string so minifiers cannot rename it; the brand check reads it. */
  static readonly errorName: string = 'EngageError';
  declare readonly [BRAND]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const names: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && Object.hasOwn(c, 'errorName'); c = Object.getPrototypeOf(c)) {
      names.push((c as typeof EngageError).errorName);
    }
    this.name = names[0] ?? 'EngageError';
    Object.defineProperty(this, BRAND, { value: names, enumerable: false });
  }

  /**
   * True when `value` is an error of this class (or a subclass), even one thrown by another copy of
   * the SDK. Prefer it to `instanceof` in libraries.
   *
   * @example
   * if (NotFoundError.is(err)) return null;
   */
  static is<T extends ErrorClass & { errorName: string }>(this: T, value: unknown): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class is() was called on (NotFoundError.is); that is the point.
    if (value instanceof this) return true;
    const names = typeof value === 'object' && value !== null ? (value as { [BRAND]?: unknown })[BRAND] : undefined;
    // biome-ignore lint/complexity/noThisInStatic: as above.
    return Array.isArray(names) && names.includes(this.errorName);
  }
}

/** What the API said about a failed call, read from its error envelope and headers. */
function describe(status: number, body: unknown, headers: Headers) {
  const env = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  const message = typeof env.message === 'string' ? env.message : text ? `${status}: ${text}` : `Request failed with status ${status}`;
  const issues = Array.isArray(env.issues) ? (env.issues as Issue[]) : [];
  const requestId = typeof env.requestId === 'string' ? env.requestId : (headers.get('x-request-id') ?? undefined);
  // Servers before `issues_total` listed every issue: their count is the list's length.
  const issuesTotal = typeof env.issues_total === 'number' ? env.issues_total : issues.length;
  return { message, code: typeof env.code === 'string' ? env.code : undefined, issues, issuesTotal, requestId };
}

/**
 * The API answered with an error status. Subclasses name the common statuses; others (405, 413, 415, ...)
 * are plain `APIError`s.
 */
export class APIError extends EngageError {
  static override readonly errorName: string = 'APIError';
  /** The HTTP status. */
  readonly status: number;
  /** The machine-readable code of the error envelope (`validation_error`, `conflict`, ...), when there is one. */
  readonly code: string | undefined;
  /** The offending fields, on a 400 (the first 100 at most: see `issuesTotal`); empty otherwise. */
  readonly issues: Issue[];
  /** How many offending fields the server found (`issues_total`); more than `issues.length` when it listed only the first. */
  readonly issuesTotal: number;
  /** The request id (`requestId` of the body, else the `x-request-id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** The response headers. */
  readonly headers: Headers;
  /** The raw error body: the parsed JSON envelope, or the text when it was not JSON. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const d = describe(status, body, headers);
    super(d.message);
    this.status = status;
    this.code = d.code;
    this.issues = d.issues;
    this.issuesTotal = d.issuesTotal;
    this.requestId = d.requestId;
    this.headers = headers;
    this.body = body;
  }

  /**
   * The error for a status: 400 `BadRequestError`, 401 `AuthenticationError`, 403 `PermissionDeniedError`,
   * 404 `NotFoundError`, 409 `ConflictError`, 429 `RateLimitError`, every 5xx `InternalServerError`,
   * anything else `APIError`.
   */
  static from(status: number, body: unknown, headers: Headers): APIError {
    const Class =
      status >= 500
        ? InternalServerError
        : ((
            { 400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError, 429: RateLimitError } as const
          )[status as 400] ?? APIError);
    return new Class(status, body, headers);
  }
}

/** 400: the request was malformed; `issues` names the bad fields (the first 100; `issuesTotal` counts them all). */
export class BadRequestError extends APIError {
  static override readonly errorName: string = 'BadRequestError';
}

/** 401: the token is missing, malformed, expired or badly signed. */
export class AuthenticationError extends APIError {
  static override readonly errorName: string = 'AuthenticationError';
}

/** 403: the token is valid but belongs to another company, or lacks the scope. */
export class PermissionDeniedError extends APIError {
  static override readonly errorName: string = 'PermissionDeniedError';
}

/** 404: the company or the resource does not exist. */
export class NotFoundError extends APIError {
  static override readonly errorName: string = 'NotFoundError';
}

/** 409: a real conflict (a duplicate campaign name); never retried. */
export class ConflictError extends APIError {
  static override readonly errorName: string = 'ConflictError';
}

/** 429: too many requests. Retried automatically; this is thrown when the retries ran out. */
export class RateLimitError extends APIError {
  static override readonly errorName: string = 'RateLimitError';
  /** The `Retry-After` header, in seconds, when the server sent a number. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    super(status, body, headers);
    const value = Number(headers.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(value) ? value : undefined;
  }
}

/** Any 5xx. Retried automatically; this is thrown when the retries ran out. */
export class InternalServerError extends APIError {
  static override readonly errorName: string = 'InternalServerError';
}

/** No answer came: DNS, refused or reset connection, CORS refusal, ... (`cause` holds the runtime's error). */
export class APIConnectionError extends EngageError {
  static override readonly errorName: string = 'APIConnectionError';
}

/** No answer came within `timeout` milliseconds. */
export class APITimeoutError extends APIConnectionError {
  static override readonly errorName: string = 'APITimeoutError';
}

/** The caller's `AbortSignal` aborted the request (never retried). `cause` holds the signal's reason. */
export class APIUserAbortError extends EngageError {
  static override readonly errorName: string = 'APIUserAbortError';
}
