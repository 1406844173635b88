import { describe, expect, it } from 'vitest';
import { encodeComponent, queryString } from './request.ts';

describe('encodeComponent', () => {
  it('gives ids, UUIDs and numbers back as they are', () => {
    for (const value of ['cmp_01JD4Z8Q3T5V', '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', '42', 'a.b~c-d_e', '']) {
      expect(encodeComponent(value)).toBe(value);
    }
  });

  it('encodes everything else exactly as encodeURIComponent does', () => {
    const values = ['a b', 'a/b', 'a?b', 'a#b', 'a&b=c', '1+1', '100%', "!'()*", 'café', '名前', '😀', '\n', 'a\u0000b', '[x]'];
    for (const value of values) expect(encodeComponent(value)).toBe(encodeURIComponent(value));
  });

  it('throws on a lone surrogate, as encodeURIComponent does', () => {
    expect(() => encodeComponent('\ud800')).toThrow(URIError);
  });
});

describe('queryString', () => {
  it('leaves out parameters without a value and encodes the rest', () => {
    expect(queryString({ uuid: '53d1bcd3-aaf0-45e1-9298-5395b6a27b61', page: 2, all: true, q: 'a b&c', none: null, gone: undefined })).toBe(
      '?uuid=53d1bcd3-aaf0-45e1-9298-5395b6a27b61&page=2&all=true&q=a%20b%26c',
    );
    expect(queryString(undefined)).toBe('');
    expect(queryString({})).toBe('');
  });
});
