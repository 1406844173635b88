import type { IdempotencyPort, IdempotentBegin } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { isoOrNull, rowsOf } from './raw.ts';

const DAY_MS = 86_400_000;

/** The SQL store's idempotency keys on `conn` (the pool, or one transaction). */
export function createSqlIdempotency({ db }: SqlConnection): IdempotencyPort {
  return {
    async beginIdempotent(scope, key, requestHash, { now, claimToken, leaseUntil }): Promise<IdempotentBegin> {
      const expired = new Date(Date.parse(now) - DAY_MS).toISOString();
      // Claim the key under this instance's lease, taking over one that expired, or one whose request
      // (the same one) has no answer and whose instance's lease ran out; otherwise read what the
      // earlier request left.
      const claimed = rowsOf(
        await db.execute(sql`
          INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, claim_token, claim_until)
          VALUES (${scope}, ${key}, ${requestHash}, NULL, NULL, ${now}, ${claimToken}, ${leaseUntil})
          ON CONFLICT (scope, key) DO UPDATE
             SET request_hash = excluded.request_hash, status = NULL, body = NULL, created_at = excluded.created_at,
                 claim_token = excluded.claim_token, claim_until = excluded.claim_until
           WHERE idempotency_keys.created_at < ${expired}
              OR (idempotency_keys.status IS NULL AND idempotency_keys.request_hash = excluded.request_hash
                  AND (idempotency_keys.claim_until IS NULL OR idempotency_keys.claim_until < ${now}))
          RETURNING scope`),
      );
      if (claimed.length > 0) return { state: 'new' };
      const [row] = rowsOf(await db.execute(sql`SELECT request_hash, status, body, claim_until FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`));
      if (!row) return { state: 'in_progress', until: leaseUntil };
      if (row.request_hash !== requestHash) return { state: 'mismatch' };
      if (row.status === null) return { state: 'in_progress', until: isoOrNull(row.claim_until) ?? now };
      return { state: 'replay', status: Number(row.status), body: typeof row.body === 'string' ? JSON.parse(row.body) : row.body };
    },
    async finishIdempotent(scope, key, status, body) {
      await db.execute(
        sql`UPDATE idempotency_keys SET status = ${status}, body = ${JSON.stringify(body)}::jsonb, claim_token = NULL, claim_until = NULL WHERE scope = ${scope} AND key = ${key}`,
      );
    },
    async abandonIdempotent(scope, key) {
      await db.execute(sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key} AND status IS NULL`);
    },
  };
}
