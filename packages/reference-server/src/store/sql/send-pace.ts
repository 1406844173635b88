/**
 * The SQL store's send pace (`SendPacePort`): a number's slots are rows, taken with one statement that
 * locks the free ones it picks (`FOR UPDATE SKIP LOCKED`), so instances on one database share them and
 * never take one slot twice. A sliding log over `limit` rows: `rate-limiter-flexible`'s PostgreSQL
 * limiter counts fixed windows, which lets up to twice the limit through around a window's edge.
 */
import type { SendPacePort } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { rowsOf } from './raw.ts';
import { sendSlots } from './schema.ts';

/** The SQL store's send pace on `conn` (the pool, or one transaction). */
export function createSqlSendPace({ db }: SqlConnection): SendPacePort {
  /** Makes the key's slots below `limit` that do not exist yet, free. */
  const seed = async (key: string, limit: number) => {
    await db.execute(sql`
      INSERT INTO ${sendSlots} (key, slot, used_at)
      SELECT ${key}, slot, 0 FROM generate_series(0, ${limit}::int - 1) AS slot
      ON CONFLICT DO NOTHING`);
  };
  const take = async (key: string, wanted: number, limit: number, windowMs: number, at: number) => {
    const [row] = rowsOf(
      await db.execute(sql`
        WITH free AS (
          SELECT slot FROM ${sendSlots}
           WHERE key = ${key} AND slot < ${limit}::int AND used_at <= ${at - windowMs}::bigint
           ORDER BY used_at, slot LIMIT ${Math.max(0, wanted)}::int FOR UPDATE SKIP LOCKED),
        took AS (
          UPDATE ${sendSlots} AS s SET used_at = ${at}::bigint FROM free
           WHERE s.key = ${key} AND s.slot = free.slot RETURNING s.slot)
        SELECT (SELECT count(*) FROM took)::int AS taken,
               (SELECT count(*) FROM ${sendSlots} WHERE key = ${key} AND slot < ${limit}::int)::int AS slots,
               (SELECT min(used_at) FROM ${sendSlots} WHERE key = ${key} AND slot < ${limit}::int AND slot NOT IN (SELECT slot FROM took)) AS oldest`),
    );
    return {
      taken: Number(row?.taken ?? 0),
      slots: Number(row?.slots ?? 0),
      oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  };
  return {
    async takeSendSlots(key, wanted, limit, windowMs, now) {
      const at = Date.parse(now);
      let took = await take(key, wanted, limit, windowMs, at);
      if (took.slots < limit) {
        // The first take of a key, or of a higher limit: its slots are made, and taken from.
        await seed(key, limit);
        took = await take(key, wanted, limit, windowMs, at);
      }
      return { taken: took.taken, nextFreeAt: new Date(Math.max(took.oldest ?? at, at - windowMs) + windowMs).toISOString() };
    },
  };
}
