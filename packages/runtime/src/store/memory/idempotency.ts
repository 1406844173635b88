import { copy } from '../copy.ts';
import type { IdempotentBegin, Store } from '../types.ts';

const DAY_MS = 86_400_000;

/** The idempotency-key methods of the memory store. */
export function createMemoryIdempotency() {
  const keys = new Map<string, { hash: string; status: number | null; body: unknown; at: number }>();
  const methods: Pick<Store, 'beginIdempotent' | 'finishIdempotent' | 'abandonIdempotent'> = {
    async beginIdempotent(scope, key, requestHash, now): Promise<IdempotentBegin> {
      const id = `${scope}\u0000${key}`;
      const at = Date.parse(now);
      const found = keys.get(id);
      if (!found || found.at < at - DAY_MS) {
        keys.set(id, { hash: requestHash, status: null, body: null, at });
        return { state: 'new' };
      }
      if (found.hash !== requestHash) return { state: 'mismatch' };
      if (found.status === null) return { state: 'in_progress' };
      return { state: 'replay', status: found.status, body: copy(found.body) };
    },
    async finishIdempotent(scope, key, status, body) {
      const found = keys.get(`${scope}\u0000${key}`);
      if (found) Object.assign(found, { status, body: copy(body) });
    },
    async abandonIdempotent(scope, key) {
      const id = `${scope}\u0000${key}`;
      if (keys.get(id)?.status === null) keys.delete(id);
    },
  };
  return { methods, state: { keys }, clear: () => keys.clear() };
}
