import { describe, expect, it } from 'vitest';
import { callArguments } from './bridge.ts';
import type { SdkMethod } from './docs-index.ts';

const method = (signature: string): SdkMethod => ({
  name: signature.slice(0, signature.indexOf('(')),
  signature,
  operationId: 'x',
  httpMethod: 'GET',
  path: '/x',
  summary: '',
});

describe('callArguments', () => {
  it('passes the method’s own arguments as given', () => {
    expect(callArguments(method('orders.update(companyOrderId, body)'), ['A-1', { a: 1 }])).toEqual(['A-1', { a: 1 }]);
    expect(callArguments(method('reports.get()'), [])).toEqual([]);
  });

  it('keeps only timeout, a bounded maxRetries and idempotencyKey of the request options: no headers', () => {
    const options = { timeout: 5_000, maxRetries: 50, idempotencyKey: 'k-1', headers: { authorization: 'Bearer other' }, signal: {} };
    expect(callArguments(method('campaigns.get(id)'), ['cmp_1', options])).toEqual(['cmp_1', { timeout: 5_000, maxRetries: 2, idempotencyKey: 'k-1' }]);
    expect(callArguments(method('campaigns.list(params?)'), [undefined, { headers: { x: '1' } }])).toEqual([undefined, {}]);
  });

  it('drops arguments past the options, and anything but an array', () => {
    expect(callArguments(method('reports.get()'), [{ timeout: 1 }, 'extra'])).toEqual([{ timeout: 1 }]);
    expect(callArguments(method('reports.get()'), 'nope')).toEqual([]);
  });
});
