import type { LeasePort } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';

/**
 * The SQL store's leases: one statement renews everything an instance holds, its pending deliveries,
 * the chunks of runs it runs, and the idempotency keys of requests it is answering (each table has a
 * partial index on its claim token for it).
 */
export function createSqlLeases({ db }: SqlConnection): LeasePort {
  return {
    async renewLeases(claimToken, leaseUntil) {
      await db.execute(sql`
        WITH deliveries AS (UPDATE deliveries SET locked_until = ${leaseUntil} WHERE claim_token = ${claimToken} AND status = 'pending'),
             chunks AS (UPDATE campaign_chunks SET claim_until = ${leaseUntil} WHERE claim_token = ${claimToken} AND NOT done),
             keys AS (UPDATE idempotency_keys SET claim_until = ${leaseUntil} WHERE claim_token = ${claimToken} AND status IS NULL)
        SELECT 1`);
    },
  };
}
