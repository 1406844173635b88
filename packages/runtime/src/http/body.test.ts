import { describe, expect, it } from 'vitest';
import { bodyProblem, charsetOf, MAX_BODY_DEPTH, readJsonBody, utf8ErrorOffset } from './body.ts';

const post = (body: string) => new Request('http://x/', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
/** `{"a":{"a":...}}`, `levels` objects deep, as text. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('bodyProblem', () => {
  it('names the first string or key holding a lone surrogate', () => {
    expect(bodyProblem({ a: ['ok', 'x\uD800'] })).toMatchObject({ path: 'a.1', message: expect.stringMatching(/well-formed Unicode/) });
    expect(bodyProblem({ a: { 'k\uDC00': 1 } })).toMatchObject({ path: 'a.k\uDC00' });
    expect(bodyProblem('\uDFFF')).toMatchObject({ path: '' });
  });

  it('passes surrogate pairs, which are well-formed', () => {
    expect(bodyProblem({ emoji: '🌼 \uD83C\uDF3C', '🌼': ['𑗄'] })).toBeUndefined();
  });

  it(`takes ${MAX_BODY_DEPTH} levels of nesting and names the place past them`, () => {
    expect(bodyProblem(JSON.parse(nested(MAX_BODY_DEPTH)))).toBeUndefined();
    expect(bodyProblem(JSON.parse(nested(MAX_BODY_DEPTH + 1)))).toEqual({
      path: Array(MAX_BODY_DEPTH).fill('a').join('.'),
      message: `nests too deep: a request body may nest at most ${MAX_BODY_DEPTH} levels`,
    });
  });
});

describe('readJsonBody', () => {
  it('answers 400 naming the field to a \\ud800 escape left alone', async () => {
    await expect(readJsonBody(post('{"a":{"b":"x\\ud800y"}}'))).rejects.toMatchObject({
      status: 400,
      issues: [{ path: 'a.b', message: expect.stringMatching(/well-formed Unicode/) }],
    });
  });

  it('reads an escaped surrogate pair and an escaped backslash before a u as they are', async () => {
    expect(await readJsonBody(post('{"a":"\\ud83c\\udf3c","b":"\\\\ud800"}'))).toEqual({ a: '🌼', b: '\\ud800' });
  });

  it('reads a body of declared length whole, and one of undeclared length a chunk at a time, both to the limit', async () => {
    const body = '{"a":"é"}';
    const declared = new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(await readJsonBody(declared)).toEqual({ a: 'é' });
    const chunked = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let at = 0; at < bytes.byteLength; at += 4) c.enqueue(bytes.slice(at, at + 4));
          c.close();
        },
      });
      return new Request('http://x/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    };
    expect(await readJsonBody(chunked(body))).toEqual({ a: 'é' });
    await expect(readJsonBody(chunked('{"a":"0123456789"}'), 10)).rejects.toMatchObject({ status: 413 });
    // Declared too long: refused before reading. Declared shorter than it is (only a Request made in-process can): measured after.
    const lying = (length: number) =>
      new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(length) },
        body: '{"a":"0123456789"}',
      });
    await expect(readJsonBody(lying(11), 10)).rejects.toMatchObject({ status: 413 });
    await expect(readJsonBody(lying(5), 10)).rejects.toMatchObject({ status: 413 });
    expect(await readJsonBody(lying(0))).toEqual({ a: '0123456789' });
  });

  it('answers 400 to a body nested 5,000 levels deep', async () => {
    await expect(readJsonBody(post(nested(5000)))).rejects.toMatchObject({ status: 400, issues: [{ message: expect.stringMatching(/nests too deep/) }] });
  });
});

describe('utf8ErrorOffset', () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);

  it('gives -1 for UTF-8, one to four bytes a character', () => {
    expect(utf8ErrorOffset(new TextEncoder().encode('a é € 🌼 \u{10ffff}'))).toBe(-1);
    expect(utf8ErrorOffset(bytes())).toBe(-1);
  });

  it('gives the offset of the first byte of the first sequence that is not UTF-8', () => {
    expect(utf8ErrorOffset(bytes(0x41, 0xff, 0x41))).toBe(1); // never in UTF-8
    expect(utf8ErrorOffset(bytes(0x41, 0x80))).toBe(1); // a continuation byte alone
    expect(utf8ErrorOffset(bytes(0xc3, 0x28))).toBe(0); // a lead byte without its continuation
    expect(utf8ErrorOffset(bytes(0x41, 0x42, 0xe2, 0x82))).toBe(2); // cut short at the end
    expect(utf8ErrorOffset(bytes(0xc0, 0xaf))).toBe(0); // overlong "/"
    expect(utf8ErrorOffset(bytes(0xe0, 0x80, 0xaf))).toBe(0); // overlong, three bytes
    expect(utf8ErrorOffset(bytes(0xf0, 0x80, 0x80, 0xaf))).toBe(0); // overlong, four bytes
    expect(utf8ErrorOffset(bytes(0x61, 0xed, 0xa0, 0x80))).toBe(1); // U+D800, a surrogate
    expect(utf8ErrorOffset(bytes(0xf4, 0x90, 0x80, 0x80))).toBe(0); // past U+10FFFF
    expect(utf8ErrorOffset(bytes(0xe9))).toBe(0); // Latin-1 "é"
  });
});

describe('charsetOf', () => {
  it('reads the charset parameter, in any case and quoted or not', () => {
    expect(charsetOf('application/json; charset=iso-8859-1')).toBe('iso-8859-1');
    expect(charsetOf('application/json;CHARSET="UTF-8"')).toBe('UTF-8');
    expect(charsetOf('application/json; profile=x; charset = utf8')).toBe('utf8');
    expect(charsetOf('application/json')).toBeUndefined();
  });
});

describe('readJsonBody, bytes and charsets', () => {
  const send = (body: Uint8Array<ArrayBuffer> | string, contentType = 'application/json') =>
    readJsonBody(new Request('http://x/', { method: 'POST', headers: { 'content-type': contentType }, body }));
  const withBytes = (before: string, bad: number[], after: string) => {
    const encoder = new TextEncoder();
    return Uint8Array.from([...encoder.encode(before), ...bad, ...encoder.encode(after)]);
  };

  it('answers 400 naming the byte offset to a body that is not UTF-8, rather than read U+FFFD in its place', async () => {
    const body = withBytes('{"firstName":"Jos', [0xe9], '"}');
    await expect(send(body)).rejects.toMatchObject({
      status: 400,
      issues: [{ path: '', message: 'is not valid UTF-8: the bytes from offset 17 (0xe9) do not make a character' }],
    });
    await expect(send(withBytes('{"a":"', [0xed, 0xa0, 0x80], '"}'))).rejects.toMatchObject({
      status: 400,
      issues: [{ message: expect.stringMatching(/offset 6 \(0xed\)/) }],
    });
  });

  it('answers 415 naming the charset to a body declared in another charset than UTF-8', async () => {
    for (const charset of ['iso-8859-1', 'latin1', 'utf-16', '"windows-1252"']) {
      await expect(send('{"a":1}', `application/json; charset=${charset}`), charset).rejects.toMatchObject({
        status: 415,
        message: expect.stringContaining(charset.replaceAll('"', '')),
      });
    }
  });

  it('reads a body declared in UTF-8, however the charset is written, and one that declares none', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf8"', 'application/json']) {
      expect(await send('{"a":"é"}', contentType), contentType).toEqual({ a: 'é' });
    }
  });
});
