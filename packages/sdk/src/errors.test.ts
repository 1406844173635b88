import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  EngageError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.ts';

const envelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({ success: false, message, code, requestId: 'req_abc', ...extra });

describe('APIError.from', () => {
  it('picks the class by status, every 5xx being an InternalServerError', () => {
    const table: [number, typeof APIError][] = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [405, APIError],
      [409, ConflictError],
      [413, APIError],
      [415, APIError],
      [429, RateLimitError],
      [500, InternalServerError],
      [502, InternalServerError],
      [503, InternalServerError],
    ];
    for (const [status, Class] of table) {
      const e = APIError.from(status, envelope('x', 'y'), new Headers());
      expect(e.constructor, String(status)).toBe(Class);
      expect(e.name).toBe(Class.errorName);
      expect(e.status).toBe(status);
    }
  });

  it('carries status, code, message, issues, requestId, headers and the raw body', () => {
    const body = envelope('validation_error', 'Invalid request: name must not be empty', { issues: [{ path: 'name', message: 'must not be empty' }] });
    const headers = new Headers({ 'x-request-id': 'req_header' });
    const e = APIError.from(400, body, headers);
    expect(e).toMatchObject({
      status: 400,
      code: 'validation_error',
      message: 'Invalid request: name must not be empty',
      issues: [{ path: 'name', message: 'must not be empty' }],
      requestId: 'req_abc',
      body,
    });
    expect(e.headers.get('x-request-id')).toBe('req_header');
    expect(e).toBeInstanceOf(Error);
  });

  it('carries how many issues the server found beside the first it listed (issuesTotal), the list’s length when the server does not say', () => {
    const issues = Array.from({ length: 100 }, (_, i) => ({ path: `events.${i}`, message: 'is not an event type' }));
    const e = APIError.from(400, envelope('validation_error', 'Invalid request', { issues, issues_total: 200_000 }), new Headers());
    expect(e).toMatchObject({ issues, issuesTotal: 200_000 });
    expect(APIError.from(400, envelope('validation_error', 'Invalid request', { issues: issues.slice(0, 2) }), new Headers()).issuesTotal).toBe(2);
    expect(APIError.from(404, envelope('not_found', 'No such campaign'), new Headers()).issuesTotal).toBe(0);
  });

  it('falls back to the x-request-id header and to the text of a body that is not JSON', () => {
    const e = APIError.from(502, '<html>Bad Gateway</html>', new Headers({ 'x-request-id': 'req_proxy' }));
    expect(e).toBeInstanceOf(InternalServerError);
    expect(e.message).toBe('502: <html>Bad Gateway</html>');
    expect(e.code).toBeUndefined();
    expect(e.issues).toEqual([]);
    expect(e.requestId).toBe('req_proxy');
    expect(APIError.from(500, undefined, new Headers()).message).toBe('Request failed with status 500');
  });

  it('reads Retry-After seconds into RateLimitError.retryAfter', () => {
    const e = APIError.from(429, envelope('rate_limited', 'slow down'), new Headers({ 'retry-after': '7' }));
    expect(e).toBeInstanceOf(RateLimitError);
    expect((e as RateLimitError).retryAfter).toBe(7);
  });
});

describe('identity checks', () => {
  it('answers is() through the class chain', () => {
    const e = APIError.from(404, envelope('not_found', 'nope'), new Headers());
    expect(NotFoundError.is(e)).toBe(true);
    expect(APIError.is(e)).toBe(true);
    expect(EngageError.is(e)).toBe(true);
    expect(ConflictError.is(e)).toBe(false);
    expect(APIConnectionError.is(e)).toBe(false);
    const t = new APITimeoutError('slow');
    expect([APITimeoutError.is(t), APIConnectionError.is(t), EngageError.is(t), APIError.is(t)]).toEqual([true, true, true, false]);
    expect(APIUserAbortError.is(new APIUserAbortError('stop'))).toBe(true);
  });

  it('recognises an error of another copy of the package by its brand, not its prototype', () => {
    // What an error thrown by a second installed copy looks like from here: another class, the same brand.
    class ForeignError extends Error {}
    const foreign = new ForeignError('No company found with the provided uuid');
    Object.defineProperty(foreign, Symbol.for('@engagekit/sdk.error'), { value: ['NotFoundError', 'APIError', 'EngageError'] });
    expect(foreign instanceof NotFoundError).toBe(false);
    expect(NotFoundError.is(foreign)).toBe(true);
    expect(APIError.is(foreign)).toBe(true);
    expect(ConflictError.is(foreign)).toBe(false);
  });

  it('says no to look-alikes without the brand', () => {
    for (const v of [new Error('x'), { name: 'NotFoundError', status: 404 }, null, undefined, 'NotFoundError', 404]) {
      expect(EngageError.is(v)).toBe(false);
      expect(NotFoundError.is(v)).toBe(false);
    }
  });

  it('keeps class names as plain strings, so minified builds keep them', () => {
    expect(new ConflictError(409, envelope('conflict', 'dup'), new Headers()).name).toBe('ConflictError');
    expect(String(new APIConnectionError('down'))).toBe('APIConnectionError: down');
  });
});
