import { describe, expect, it } from 'vitest';
import { callArguments } from './bridge.ts';
import type { SdkMethod } from './docs-index.ts';

const method = (signature: string): SdkMethod => {
  const inside = signature.slice(signature.indexOf('(') + 1, -1);
  return {
    name: signature.slice(0, signature.indexOf('(')),
    signature,
    arity: inside ? inside.split(',').length : 0,
    operationId: 'x',
    httpMethod: 'GET',
    path: '/x',
    summary: '',
  };
};

describe('callArguments', () => {
  it('passes the method’s own arguments as given', () => {
    expect(callArguments(method('orders.update(companyOrderId, body)'), ['A-1', { a: 1 }])).toEqual(['A-1', { a: 1 }]);
    expect(callArguments(method('reports.get()'), [])).toEqual([]);
  });

  it('passes timeout, a bounded maxRetries and idempotencyKey of the request options', () => {
    const options = { timeout: 5_000, maxRetries: 50, idempotencyKey: 'k-1' };
    expect(callArguments(method('campaigns.get(id)'), ['cmp_1', options])).toEqual(['cmp_1', { timeout: 5_000, maxRetries: 2, idempotencyKey: 'k-1' }]);
    expect(callArguments(method('campaigns.list(params?)'), [undefined, { timeout: 1 }])).toEqual([undefined, { timeout: 1 }]);
  });

  it('refuses any other request option, naming it, rather than drop it', () => {
    expect(() => callArguments(method('campaigns.get(id)'), ['cmp_1', { headers: { authorization: 'Bearer other' }, signal: {} }])).toThrow(
      /client\.campaigns\.get was given the request options headers, signal, which the sandbox does not pass on: only timeout, maxRetries, idempotencyKey do\. Nothing was sent\./,
    );
  });

  it('drops arguments past the options, and anything but an array', () => {
    expect(callArguments(method('reports.get()'), [{ timeout: 1 }, 'extra'])).toEqual([{ timeout: 1 }]);
    expect(callArguments(method('reports.get()'), 'nope')).toEqual([]);
  });
});
