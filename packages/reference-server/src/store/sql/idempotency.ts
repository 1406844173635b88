import type { IdempotencyPort, IdempotentBegin } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { rowsOf } from './raw.ts';

const DAY_MS = 86_400_000;

/** The SQL store's idempotency keys on `conn` (the pool, or one transaction). */
export function createSqlIdempotency({ db }: SqlConnection): IdempotencyPort {
  return {
    async beginIdempotent(scope, key, requestHash, now): Promise<IdempotentBegin> {
      const expired = new Date(Date.parse(now) - DAY_MS).toISOString();
      // Claim the key, taking over one that expired; otherwise read what the earlier request left.
      const claimed = rowsOf(
        await db.execute(sql`
          INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at) VALUES (${scope}, ${key}, ${requestHash}, NULL, NULL, ${now})
          ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = NULL, body = NULL, created_at = excluded.created_at
           WHERE idempotency_keys.created_at < ${expired}
          RETURNING scope`),
      );
      if (claimed.length > 0) return { state: 'new' };
      const [row] = rowsOf(await db.execute(sql`SELECT request_hash, status, body FROM idempotency_keys WHERE scope = ${scope} AND key = ${key}`));
      if (!row) return { state: 'in_progress' };
      if (row.request_hash !== requestHash) return { state: 'mismatch' };
      if (row.status === null) return { state: 'in_progress' };
      return { state: 'replay', status: Number(row.status), body: typeof row.body === 'string' ? JSON.parse(row.body) : row.body };
    },
    async finishIdempotent(scope, key, status, body) {
      await db.execute(sql`UPDATE idempotency_keys SET status = ${status}, body = ${JSON.stringify(body)}::jsonb WHERE scope = ${scope} AND key = ${key}`);
    },
    async abandonIdempotent(scope, key) {
      await db.execute(sql`DELETE FROM idempotency_keys WHERE scope = ${scope} AND key = ${key} AND status IS NULL`);
    },
  };
}
