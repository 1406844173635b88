import { HttpError } from './errors.ts';

/** Request bodies are limited to 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Reads a JSON request body: 415 when it is not JSON, 413 past `limit` bytes (checked on the
 * declared length and again while reading, so a lying client cannot get past it), 400 when it
 * does not parse. An empty body reads as `{}`, so a body whose fields are all optional may be left out.
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!req.body) return {};
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
  if (size === 0) return {};
  if (!isJsonType(req.headers.get('content-type'))) {
    throw new HttpError(415, 'Content-Type must be application/json', {
      issues: [{ path: '', message: `the body was sent as ${req.headers.get('content-type') ?? 'no content type'}` }],
    });
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(concat(chunks, size));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, 'Malformed JSON body', { issues: [{ path: '', message: e instanceof Error ? e.message : 'does not parse as JSON' }] });
  }
}

function tooLarge(limit: number) {
  return new HttpError(413, `Request body is larger than ${limit} bytes`);
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
