import { describe, expect, it } from 'vitest';
import { MockListenError, runtimeWithoutInterception } from './interception.ts';

describe('runtimeWithoutInterception', () => {
  it('names Deno and Bun, where MSW lets requests through to the network', () => {
    expect(runtimeWithoutInterception({ Deno: { version: { deno: '2.9.6' } } })).toBe('Deno 2.9.6');
    expect(runtimeWithoutInterception({ process: { versions: { node: '24.0.0', bun: '1.4.5' } } })).toBe('Bun 1.4.5');
  });

  it('names nothing under Node', () => {
    expect(runtimeWithoutInterception({ process: { versions: { node: '24.0.0' } } })).toBeUndefined();
    expect(runtimeWithoutInterception()).toBeUndefined();
  });
});

describe('MockListenError', () => {
  it('names the runtime, the base URL at risk and mock.fetch as the way', () => {
    const e = new MockListenError('Bun 1.4.5', 'https://api.example.com');
    expect(e.name).toBe('MockListenError');
    expect(e.message).toMatch(
      /^mock\.listen\(\) cannot intercept requests under Bun 1\.4\.5: .* https:\/\/api\.example\.com would go to the network\. .*fetch: mock\.fetch/,
    );
  });
});
