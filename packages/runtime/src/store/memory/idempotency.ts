import { copy } from '../copy.ts';
import type { IdempotencyPort } from '../ports.ts';
import type { IdempotentBegin } from '../types.ts';
import type { MemoryJournal } from './transaction-journal.ts';

const DAY_MS = 86_400_000;

/** A key as the memory store keeps it: its request, its answer once there is one, and who holds it until when. */
interface Kept {
  hash: string;
  status: number | null;
  body: unknown;
  at: number;
  claim: { token: string; until: string } | null;
}

/** The idempotency keys of the memory store; `journal` undoes a stored answer whose transaction failed. */
export function createMemoryIdempotency(journal: MemoryJournal) {
  const keys = new Map<string, Kept>();
  const methods: IdempotencyPort = {
    async beginIdempotent(scope, key, requestHash, { now, claimToken, leaseUntil }): Promise<IdempotentBegin> {
      const id = `${scope}\u0000${key}`;
      const at = Date.parse(now);
      const found = keys.get(id);
      const abandoned = found?.status === null && (found.claim === null || found.claim.until < now);
      if (!found || found.at < at - DAY_MS || (abandoned && found.hash === requestHash)) {
        keys.set(id, { hash: requestHash, status: null, body: null, at, claim: { token: claimToken, until: leaseUntil } });
        return { state: 'new' };
      }
      if (found.hash !== requestHash) return { state: 'mismatch' };
      if (found.status === null) return { state: 'in_progress', until: found.claim?.until ?? now };
      return { state: 'replay', status: found.status, body: copy(found.body) };
    },
    async finishIdempotent(scope, key, status, body) {
      const found = keys.get(`${scope}\u0000${key}`);
      if (!found) return;
      const before = { status: found.status, body: found.body, claim: found.claim };
      Object.assign(found, { status, body: copy(body), claim: null });
      journal.undoable(() => Object.assign(found, before));
    },
    async abandonIdempotent(scope, key) {
      const id = `${scope}\u0000${key}`;
      if (keys.get(id)?.status === null) keys.delete(id);
    },
  };
  return {
    methods,
    /** Extends the leases of keys held under `claimToken` whose request has not answered yet. */
    renew(claimToken: string, leaseUntil: string): void {
      for (const kept of keys.values()) if (kept.status === null && kept.claim?.token === claimToken) kept.claim.until = leaseUntil;
    },
    /** What it keeps, for the store's snapshots. */
    state: { keys },
    clear() {
      keys.clear();
    },
  };
}
