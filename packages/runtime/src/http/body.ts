import { findInJson, type Issue } from '@engagekit/contract';
import { HttpError, validationError } from './errors.ts';

/** Request bodies are limited to 1 MB. */
const MAX_BODY_BYTES = 1024 * 1024;

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * The charset a Content-Type names (without quotes), or undefined when it names none. JSON is UTF-8
 * (RFC 8259), so UTF-8 is the only one read.
 *
 * @example charsetOf('application/json; charset="ISO-8859-1"') // 'ISO-8859-1'
 */
export function charsetOf(contentType: string): string | undefined {
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq === -1 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return parameter
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** 415 naming the charset, unless the body is declared in UTF-8 (`utf-8` or `utf8`, in any case) or declares none. */
function checkCharset(contentType: string): void {
  const charset = charsetOf(contentType);
  if (charset === undefined || /^utf-?8$/i.test(charset)) return;
  throw new HttpError(415, `Content-Type charset must be utf-8, not ${charset}: send the JSON body in UTF-8`, {
    issues: [{ path: '', message: `the body was sent in charset ${charset}; only utf-8 is read` }],
  });
}

/**
 * Where `bytes` stop being UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF, no
 * sequence cut short): the offset of the first byte of the first bad sequence, or -1 when all of it is.
 *
 * @example utf8ErrorOffset(new Uint8Array([0x7b, 0xc3, 0x28])) // 1
 */
export function utf8ErrorOffset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence and the range its second byte must fall in (the rest are 0x80-0xbf).
    let n: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) low = 0xa0; // no overlong forms
      if (b === 0xed) high = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) low = 0x90; // no overlong forms
      if (b === 0xf4) high = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k < n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return i;
    }
    i += n;
  }
  return -1;
}

/** The body as text: 400 naming the byte offset where it stops being UTF-8, rather than read a U+FFFD in its place. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const at = utf8ErrorOffset(bytes);
    const message = `is not valid UTF-8: the bytes from offset ${at} (0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}) do not make a character`;
    throw new HttpError(400, `Invalid request body: it ${message}`, { issues: [{ path: '', message }] });
  }
}

/**
 * Reads a JSON request body: 415 when it is not JSON or names a charset other than UTF-8, 413 past
 * `limit` bytes (checked on the declared length and again while reading, so a lying client cannot get
 * past it), 400 when it is not valid UTF-8 (naming the byte offset), does not parse, nests too deep or
 * holds a lone surrogate (bodyProblem). An empty body reads as `{}`, so a body whose fields are all
 * optional may be left out.
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const bytes = await readBodyBytes(req, limit);
  if (bytes.byteLength === 0) return {};
  const contentType = req.headers.get('content-type');
  if (!contentType || !isJsonType(contentType)) {
    throw new HttpError(415, 'Content-Type must be application/json', {
      issues: [{ path: '', message: `the body was sent as ${contentType ?? 'no content type'}` }],
    });
  }
  checkCharset(contentType);
  const text = decodeUtf8(bytes);
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'Malformed JSON body', { issues: [{ path: '', message: e instanceof Error ? e.message : 'does not parse as JSON' }] });
  }
  const problem = bodyProblem(value);
  if (problem) throw validationError([problem]);
  return value;
}

/**
 * A request body's bytes, as sent: 413 past `limit` bytes, checked on the declared length and again
 * while reading, so a lying client cannot get past it. What `readJsonBody` reads, and what a route
 * that must see the raw bytes (a signature over them) reads.
 */
export async function readBodyBytes(req: Request, limit: number): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  return declared === null ? readStreamed(req, limit) : readDeclared(req, limit);
}

/**
 * How deep a request body may nest: past any body the contract describes (free-form order attributes
 * nest at most 32 levels), and shallow enough that code which recurses through a body (JSON.stringify
 * of an Idempotency-Key's request, a journal's copy) cannot overflow the call stack.
 */
export const MAX_BODY_DEPTH = 64;

/** In `u` mode a surrogate pair reads as one code point, so this matches only a surrogate left alone. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * The first place where a parsed JSON body nests deeper than MAX_BODY_DEPTH, or holds a string or key
 * with a lone surrogate (PostgreSQL refuses one in JSON and cannot keep one in text, so no store gets
 * one), in document order; undefined when there is none. It walks without recursion (findInJson).
 *
 * @example bodyProblem({ a: ['ok', 'x\uD800'] }) // { path: 'a.1', message: 'must be well-formed Unicode: ...' }
 */
export function bodyProblem(value: unknown): Issue | undefined {
  return findInJson(value, (v, path): Issue | undefined => {
    if (typeof v === 'string') {
      return LONE_SURROGATE.test(v)
        ? { path: path.join('.'), message: 'must be well-formed Unicode: it holds a lone surrogate (\\ud800 to \\udfff)' }
        : undefined;
    }
    if (!v || typeof v !== 'object') return undefined;
    if (path.length >= MAX_BODY_DEPTH) return { path: path.join('.'), message: `nests too deep: a request body may nest at most ${MAX_BODY_DEPTH} levels` };
    const key = Array.isArray(v) ? undefined : Object.keys(v).find((k) => LONE_SURROGATE.test(k));
    return key === undefined ? undefined : { path: [...path, key].join('.'), message: 'must be a well-formed Unicode key: it holds a lone surrogate' };
  });
}

function tooLarge(limit: number) {
  return new HttpError(413, `Request body is larger than ${limit} bytes`);
}

/** Fatal: a body that is not UTF-8 is refused (decodeUtf8), never read with U+FFFD in place of its bad bytes. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body whose length was declared, within the limit: read whole. Over HTTP the parser ends a body at
 * its declared length, so this reads no more than the limit; a Request made in-process may declare
 * less than it holds, and is measured after. Read whole, the body comes straight off the socket
 * (@hono/node-server) instead of through a web stream over it, which cost an order write's request
 * more CPU: the webhooks.latency.p50 row.
 */
async function readDeclared(req: Request, limit: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(await req.arrayBuffer());
  if (bytes.byteLength > limit) throw tooLarge(limit);
  return bytes;
}

/** A body of undeclared length (chunked): read a chunk at a time, stopping past the limit. */
async function readStreamed(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return concat(chunks, size);
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
