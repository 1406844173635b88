import { describe, expect, it } from 'vitest';
import { bodyProblem, MAX_BODY_DEPTH, readJsonBody } from './body.ts';

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
