import { describe, expect, it } from 'vitest';
import { boundReport } from './bound.ts';
import { cut } from './cut.ts';
import type { ExecuteReport } from './report.ts';

const MAX = 20_000;
const size = (r: ExecuteReport) => JSON.stringify(r).length;

describe('boundReport', () => {
  it('leaves a report within the maximum as it is', () => {
    const report: ExecuteReport = { target: 'mock', ok: true, result: { n: 1 }, console: ['hi'], calls: [{ operation: 'reports.get', ms: 1 }] };
    expect(boundReport(report, MAX)).toEqual(report);
  });

  it('keeps the first and last calls of a long list, with a marker giving the count', () => {
    const calls = Array.from({ length: 1_000 }, (_, i) => ({ operation: 'orders.add', operationId: 'addOrder', method: 'POST', status: 201, ms: i }));
    const bounded = boundReport({ target: 'api', ok: true, console: [], calls }, MAX);
    expect(size(bounded)).toBeLessThanOrEqual(MAX);
    expect(bounded.calls[0]?.ms).toBe(0);
    expect(bounded.calls.at(-1)?.ms).toBe(999);
    expect(bounded.calls.find((c) => c.operation === '[cut]')?.note).toMatch(/^\d+ calls not shown here, of 1,000 in all$/);
  });

  it('gives up a returned value that does not fit for an error saying how large it was', () => {
    const bounded = boundReport({ target: 'mock', ok: true, result: 'x'.repeat(30_000), console: [], calls: [] }, MAX);
    expect(bounded).toMatchObject({ ok: false, error: { name: 'LimitExceeded', limit: 'answer' } });
    expect(bounded.error?.message).toContain('The returned value is 30,002 characters of JSON; an answer may hold 20,000 (--max-answer)');
    expect('result' in bounded).toBe(false);
  });

  it('cuts console lines and recorded webhooks to their shares, with markers', () => {
    const webhooks = Array.from({ length: 500 }, (_, i) => ({ url: 'https://hooks.example.com/x', type: 'order.created', eventId: `evt_${i}` }));
    const bounded = boundReport({ target: 'mock', ok: true, console: Array.from({ length: 100 }, () => 'y'.repeat(1_000)), calls: [], webhooks }, MAX);
    expect(size(bounded)).toBeLessThanOrEqual(MAX);
    expect(bounded.console.at(-1)).toMatch(/^\[console cut: \d+ more lines not shown\]$/);
    expect(bounded.webhooks?.at(-1)?.type).toMatch(/^\[cut: \d+ more webhooks not shown, of 500 in all\]$/);
  });
});

describe('cut', () => {
  it('marks a cut text with its full length', () => {
    expect(cut('abcdef', 3)).toBe('abc… [cut: 6 characters in all]');
    expect(cut('abc', 3)).toBe('abc');
  });
});
