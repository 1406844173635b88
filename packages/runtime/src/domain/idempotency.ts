/**
 * Idempotency keys: a write sent with an idempotency key runs once per key and caller. The first
 * request with the key runs and its answer (2xx or 4xx) is kept; a retry with the same key and the
 * same request gets that answer again. The same key with another request, or while the first still
 * runs, is refused.
 */
import type { Store } from '../store/ports.ts';

/** An answer: its status and JSON body. */
interface Answer {
  status: number;
  body: unknown;
}

/**
 * One request under a key: who sent it (`scope`: a company, the admin, or public), the key, a hash of
 * the request, and the lease the instance answering it holds the key under.
 */
interface IdempotentRequest {
  scope: string;
  key: string;
  requestHash: string;
  now: string;
  claimToken: string;
  leaseUntil: string;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** Whether `key` may be an idempotency key: 1 to 255 visible ASCII characters. */
export function isIdempotencyKey(key: string): boolean {
  return KEY_RE.test(key);
}

/**
 * What running a request under its key came to: its answer (`replayed` when it is a retry's, stored
 * by the first), the key taken by another request, or the first request with it still running, which
 * its holder's lease keeps for `retryAfterS` more seconds at most.
 */
type IdempotentOutcome = ({ outcome: 'answered'; replayed: boolean } & Answer) | { outcome: 'key_reused' } | { outcome: 'in_progress'; retryAfterS: number };

/**
 * Runs `execute` once for the key: a retry of the same request answers as the first did (`replayed`).
 * `execute` gets the store of a transaction, in which the key's answer is stored too: the request's
 * writes and its answer land together, so a request that committed replays its answer and one that did
 * not (its instance died) runs again once the key's lease runs out. When `execute` throws, `keptAnswer`
 * says what the request answers if that answer is to be kept (a client error's), or null to forget the
 * key; the error is thrown on.
 */
export async function runIdempotent(
  store: Store,
  request: IdempotentRequest,
  execute: (tx: Store) => Promise<Answer>,
  keptAnswer: (error: unknown) => Answer | null,
): Promise<IdempotentOutcome> {
  const { scope, key } = request;
  const begun = await store.beginIdempotent(scope, key, request.requestHash, {
    now: request.now,
    claimToken: request.claimToken,
    leaseUntil: request.leaseUntil,
  });
  if (begun.state === 'mismatch') return { outcome: 'key_reused' };
  if (begun.state === 'in_progress') {
    // When to retry: once its holder's lease ends (its instance, if dead, then gives the key up).
    return { outcome: 'in_progress', retryAfterS: Math.max(1, Math.ceil((Date.parse(begun.until) - Date.parse(request.now)) / 1000)) };
  }
  if (begun.state === 'replay') return { outcome: 'answered', status: begun.status, body: begun.body, replayed: true };
  try {
    const result = await store.transaction(async (tx) => {
      const answer = await execute(tx);
      await tx.finishIdempotent(scope, key, answer.status, answer.body);
      return answer;
    });
    return { outcome: 'answered', ...result, replayed: false };
  } catch (e) {
    const kept = keptAnswer(e);
    if (kept) await store.finishIdempotent(scope, key, kept.status, kept.body);
    else await store.abandonIdempotent(scope, key);
    throw e;
  }
}
