import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../store/sql/connection.ts';
import { isoOrNull, rowsOf } from '../store/sql/raw.ts';

/**
 * The webhook backlog on the whole database at `now`: deliveries due and not delivered yet, and the
 * oldest one's due time. Read for a scrape (`engagekit_webhook_deliveries_due`), not by the API.
 */
export async function webhookBacklog(db: SqlDatabase, now: Date): Promise<{ due: number; oldestDueAt: string | null }> {
  const [row] = rowsOf(
    await db.execute(
      sql`SELECT count(*)::int AS due, min(next_attempt_at) AS oldest FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ${now.toISOString()}`,
    ),
  );
  return { due: Number(row?.due ?? 0), oldestDueAt: isoOrNull(row?.oldest) };
}
