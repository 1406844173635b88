import { MAX_ISSUES } from '@engagekit/contract';
import { describe, expect, it } from 'vitest';
import { boundedIssues, clip, ERROR_BOUNDS, errorBody, HttpError, validationError } from './errors.ts';

const many = (n: number, path = (i: number) => `events.${i}`) => Array.from({ length: n }, (_, i) => ({ path: path(i), message: 'is not an event type' }));

describe('validationError', () => {
  it('lists the first 100 issues and counts them all, in the envelope as issues and issues_total', () => {
    const body = errorBody(validationError(many(200_000)), 'req_1');
    expect(body.issues).toHaveLength(MAX_ISSUES);
    expect(body.issues?.[99]).toEqual({ path: 'events.99', message: 'is not an event type' });
    expect(body).toMatchObject({ issues_total: 200_000, message: expect.stringMatching(/; and 199995 more$/) });
  });

  it('counts the issues the caller found beyond those it kept', () => {
    expect(errorBody(validationError(many(3), 'Invalid request', 7), 'req_1')).toMatchObject({
      issues_total: 7,
      message: expect.stringMatching(/and 4 more$/),
    });
  });
});

describe('an error’s answer', () => {
  it('gives issues_total beside any issues, and neither without', () => {
    expect(errorBody(new HttpError(403, 'Forbidden', { issues: many(1) }), 'r')).toMatchObject({ issues_total: 1 });
    expect(errorBody(new HttpError(404, 'Not found'), 'r')).not.toHaveProperty('issues_total');
  });

  it('clips paths, messages and the lead that echo what was sent, and keeps the issues within their byte budget', () => {
    const huge = 'é\u0000'.repeat(100_000);
    const body = errorBody(validationError(many(100, () => huge).map((i) => ({ ...i, message: huge }))), 'r');
    const issues = body.issues ?? [];
    expect(issues[0]?.path).toHaveLength(ERROR_BOUNDS.pathLength + ' (200000 characters)'.length + 1);
    expect(new TextEncoder().encode(JSON.stringify(issues)).byteLength).toBeLessThanOrEqual(ERROR_BOUNDS.issuesBytes);
    expect(issues.length).toBeLessThan(100);
    expect(body.issues_total).toBe(100);
    expect(new TextEncoder().encode(JSON.stringify(body)).byteLength).toBeLessThan(64 * 1024);
  });
});

describe('clip', () => {
  it('keeps short text, and cuts long text without splitting a surrogate pair, saying how long it was', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('abcdef', 3)).toBe('abc… (6 characters)');
    expect(clip('ab😀cd', 3)).toBe('ab… (6 characters)');
  });
});

describe('boundedIssues', () => {
  it('keeps at most MAX_ISSUES', () => {
    expect(boundedIssues(many(150))).toHaveLength(MAX_ISSUES);
  });
});
