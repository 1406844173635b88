/** How every JSON answer of the API is made: one Response with all its headers, built once. */
import { errorBody, type HttpError } from './errors.ts';

/**
 * Headers every answer carries. Bearer tokens, not cookies, carry the credentials, so any origin may
 * call the API from a browser and read the request id and `Retry-After`.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id,retry-after',
} as const;

/**
 * Tells browsers to take an answer for its declared type only: a JSON answer, which may echo what a
 * caller sent, is never run as a script or rendered as a page. Every answer of the API carries it.
 */
export const NOSNIFF = 'nosniff';

/** The answer to a CORS preflight (`OPTIONS`), on any path. */
export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'x-content-type-options': NOSNIFF,
  'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE',
  'access-control-allow-headers': 'authorization,content-type,idempotency-key,x-request-id',
  'access-control-max-age': '600',
  vary: 'Access-Control-Request-Headers',
} as const;

const utf8 = new TextEncoder();
/** Any UTF-16 code unit above ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The size of `text` in UTF-8 bytes. ASCII text, as most answers are, is measured without encoding it:
 * the body then goes into the Response as the string, which the Response encodes once when it is read,
 * instead of being encoded here and copied again by the Response (benchmark rows `mock.inprocess.vs-prism`
 * and `mock.http.vs-node-http`).
 */
export function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? utf8.encode(text).byteLength : text.length;
}

/** What a JSON answer may add: headers (`retry-after`, `allow`). */
export interface AnswerOptions {
  headers?: Record<string, string> | undefined;
}

/** A JSON answer with the request id, the CORS headers and `nosniff`, plus the headers `options` gives. */
export function jsonAnswer(body: unknown, status: number, requestId: string, options: AnswerOptions = {}): Response {
  // Sized: an interceptor that turns the answer back into HTTP (MSW 3) then sends it in one piece, not chunked.
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(utf8Length(text)),
    'x-request-id': requestId,
    'access-control-allow-origin': CORS_HEADERS['access-control-allow-origin'],
    'access-control-expose-headers': CORS_HEADERS['access-control-expose-headers'],
    'x-content-type-options': NOSNIFF,
  };
  if (options.headers) for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = value;
  return new Response(text, { status, headers });
}

/** The answer to an HttpError: its envelope, status and headers. */
export function errorAnswer(err: HttpError, requestId: string): Response {
  return jsonAnswer(errorBody(err, requestId), err.status, requestId, { headers: err.headers });
}
