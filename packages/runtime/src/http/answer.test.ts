import { describe, expect, it } from 'vitest';
import { jsonAnswer, utf8Length } from './answer.ts';

describe('jsonAnswer', () => {
  it('gives the JSON body with its size in bytes, the request id and the CORS headers', async () => {
    const res = jsonAnswer({ name: 'Crème brûlée ☕' }, 201, 'req_1', { headers: { 'Retry-After': '3' } });
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    expect(res.status).toBe(201);
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(bytes.byteLength).toBeGreaterThan('{"name":"Crème brûlée ☕"}'.length);
    expect(await res.json()).toEqual({ name: 'Crème brûlée ☕' });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe('req_1');
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('utf8Length', () => {
  it('counts the UTF-8 bytes of ASCII and of any other text, surrogate pairs and NUL included', () => {
    for (const text of ['', 'abc', '{"a":"\u0000"}', '\u0000\u007f', 'Crème brûlée ☕', '😀 x', '\u0080\u07ff\u0800\uffff', 'a'.repeat(10_000)]) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).byteLength);
    }
  });
});
