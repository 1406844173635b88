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

/**
 * One request under a key: who sent it (`scope`: a company, the admin, or public), the key, a hash of
 * the request, and the lease the instance answering it holds the key under.
 */
export interface IdempotentRequest {
  scope: string;
  key: string;
  requestHash: string;
  now: string;
  claimToken: string;
  leaseUntil: string;
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
 * `execute` gets the store of a transaction, in which the key's answer is stored too: the request's
 * writes and its answer land together, so a request that committed replays its answer and one that did
 * not (its instance died) runs again once the key's lease runs out. The answer of a client error is
 * kept as the request's answer; any other failure forgets the key. `toBody` gives the body a client
 * error answers with.
 */
export async function runIdempotent(
  store: Store,
  request: IdempotentRequest,
  execute: (tx: Store) => Promise<Answer>,
  toBody: (error: HttpError) => unknown,
): Promise<Answer & { replayed: boolean }> {
  const { scope, key } = request;
  const begun = await store.beginIdempotent(scope, key, request.requestHash, {
    now: request.now,
    claimToken: request.claimToken,
    leaseUntil: request.leaseUntil,
  });
  if (begun.state === 'mismatch') {
    throw new HttpError(400, 'Invalid request: this Idempotency-Key was used with another request; use a new key for a new request', {
      code: 'idempotency_key_reused',
      issues: [{ path: 'Idempotency-Key', message: 'was used with another request' }],
    });
  }
  if (begun.state === 'in_progress') {
    // When to retry: once its holder's lease ends (its instance, if dead, then gives the key up).
    const retryAfterS = Math.max(1, Math.ceil((Date.parse(begun.until) - Date.parse(request.now)) / 1000));
    throw new HttpError(409, 'A request with this Idempotency-Key is still running; retry when it has answered', {
      code: 'idempotency_in_progress',
      headers: { 'retry-after': String(retryAfterS) },
    });
  }
  if (begun.state === 'replay') return { status: begun.status, body: begun.body, replayed: true };
  try {
    const result = await store.transaction(async (tx) => {
      const answer = await execute(tx);
      await tx.finishIdempotent(scope, key, answer.status, answer.body);
      return answer;
    });
    return { ...result, replayed: false };
  } catch (e) {
    if (e instanceof HttpError && e.status < 500) await store.finishIdempotent(scope, key, e.status, toBody(e));
    else await store.abandonIdempotent(scope, key);
    throw e;
  }
}
