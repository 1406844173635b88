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
  const take = async (key: string, wanted: number, limit: number, windowMs: number, at: number, holdMs: number) => {
    const [row] = rowsOf(
      await db.execute(sql`
        WITH free AS (
          SELECT slot FROM ${sendSlots}
           WHERE key = ${key} AND slot < ${limit}::int AND used_at <= ${at - windowMs}::bigint
           ORDER BY used_at, slot LIMIT ${Math.max(0, wanted)}::int FOR UPDATE SKIP LOCKED),
        took AS (
          UPDATE ${sendSlots} AS s SET used_at = ${at + holdMs}::bigint FROM free
           WHERE s.key = ${key} AND s.slot = free.slot RETURNING s.slot)
        SELECT (SELECT array_agg(slot ORDER BY slot) FROM took) AS taken,
               (SELECT count(*) FROM ${sendSlots} WHERE key = ${key} AND slot < ${limit}::int)::int AS existing,
               (SELECT min(used_at) FROM ${sendSlots} WHERE key = ${key} AND slot < ${limit}::int AND used_at <= ${at}::bigint AND slot NOT IN (SELECT slot FROM took)) AS oldest`),
    );
    return {
      taken: ((row?.taken as unknown[] | null) ?? []).map(Number),
      existing: Number(row?.existing ?? 0),
      oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  };
  return {
    async takeSendSlots(key, wanted, limit, windowMs, now, holdMs = 0) {
      const at = Date.parse(now);
      let took = await take(key, wanted, limit, windowMs, at, holdMs);
      if (took.existing < limit) {
        // The first take of a key, or of a higher limit: its slots are made, and taken from.
        await seed(key, limit);
        took = await take(key, wanted, limit, windowMs, at, holdMs);
      }
      return { slots: took.taken, nextFreeAt: new Date(Math.max(took.oldest ?? at - windowMs, at - windowMs) + windowMs).toISOString() };
    },
    async stampSendSlots(key, slots, at) {
      if (slots.length === 0) return;
      await db.execute(sql`UPDATE ${sendSlots} SET used_at = ${Date.parse(at)}::bigint WHERE key = ${key} AND slot = any(${sql.param(slots)}::int[])`);
    },
  };
}
