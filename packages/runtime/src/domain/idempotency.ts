/**
 * Idempotency keys: a write sent with an `Idempotency-Key` runs once per key and caller. The first
 * request with the key runs and its answer (2xx or 4xx) is kept; a retry with the same key and the
 * same request gets that answer again. The same key with another request, or while the first still
 * runs, is refused.
 */
import { HttpError } from '../http/errors.ts';
import type { Store } from '../store/types.ts';

/** An answer: its status and JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}

/** One request under a key: who sent it (`scope`: a company, the admin, or public), the key, and a hash of the request. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  requestHash: string;
  now: string;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** Throws the 400 a malformed key gets (1 to 255 visible ASCII characters). */
export function checkIdempotencyKey(key: string): void {
  if (KEY_RE.test(key)) return;
  throw new HttpError(400, 'Invalid request: the Idempotency-Key header must be 1 to 255 visible ASCII characters', {
    issues: [{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
  });
}

/**
 * Runs `execute` once for the key: a retry of the same request answers as the first did (`replayed`).
 * The answer of a client error is kept as the request's answer; any other failure forgets the key, so
 * a retry runs the request again. `toBody` gives the body a client error answers with.
 */
export async function runIdempotent(
  store: Store,
  request: IdempotentRequest,
  execute: () => Promise<Answer>,
  toBody: (error: HttpError) => unknown,
): Promise<Answer & { replayed: boolean }> {
  const { scope, key } = request;
  const begun = await store.beginIdempotent(scope, key, request.requestHash, request.now);
  if (begun.state === 'mismatch') {
    throw new HttpError(400, 'Invalid request: this Idempotency-Key was used with another request; use a new key for a new request', {
      code: 'idempotency_key_reused',
      issues: [{ path: 'Idempotency-Key', message: 'was used with another request' }],
    });
  }
  if (begun.state === 'in_progress') {
    throw new HttpError(409, 'A request with this Idempotency-Key is still running; retry when it has answered', { code: 'idempotency_in_progress' });
  }
  if (begun.state === 'replay') return { status: begun.status, body: begun.body, replayed: true };
  try {
    const result = await execute();
    await store.finishIdempotent(scope, key, result.status, result.body);
    return { ...result, replayed: false };
  } catch (e) {
    if (e instanceof HttpError && e.status < 500) await store.finishIdempotent(scope, key, e.status, toBody(e));
    else await store.abandonIdempotent(scope, key);
    throw e;
  }
}
