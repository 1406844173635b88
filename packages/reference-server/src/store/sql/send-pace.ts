/**
 * The SQL store's send pace (`SendPacePort`): a number's slots are rows, taken with one statement that
 * locks the free ones it picks (`FOR UPDATE SKIP LOCKED`), so instances on one database share them and
 * never take one slot twice. A sliding log over `limit` rows: `rate-limiter-flexible`'s PostgreSQL
 * limiter counts fixed windows, which lets up to twice the limit through around a window's edge.
 * And the pair rate's turns, a row per number and recipient.
 */
import type { SendPacePort } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { rowsOf } from './raw.ts';
import { pairTurns, sendSlots } from './schema.ts';

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
    async stampSendSlots(key, stamps) {
      if (stamps.length === 0) return;
      const slots = sql.param(stamps.map((s) => s.slot));
      const ats = sql.param(stamps.map((s) => Date.parse(s.at)));
      await db.execute(sql`
        UPDATE ${sendSlots} AS s SET used_at = v.at FROM unnest(${slots}::int[], ${ats}::bigint[]) AS v(slot, at)
         WHERE s.key = ${key} AND s.slot = v.slot`);
    },
    async takePairTurns(key, recipients, gapMs, at) {
      const waiting = new Map<string, string>();
      if (recipients.length === 0) return waiting;
      const now = Date.parse(at);
      const list = sql`${sql.param(recipients)}::text[]`;
      // One statement: a turn is taken where the last is older than the gap (a turn another instance
      // takes meanwhile holds the row, and wins); the rows of those left waiting, as they were; and a few
      // turns older than the gap forgotten, twice as many as asked for, so the table keeps up.
      const rows = rowsOf(
        await db.execute(sql`
          WITH took AS (
            INSERT INTO ${pairTurns} (key, recipient, last_at) SELECT ${key}, r, ${now}::bigint FROM unnest(${list}) AS r
            ON CONFLICT (key, recipient) DO UPDATE SET last_at = excluded.last_at WHERE ${pairTurns}.last_at <= ${now - gapMs}::bigint
            RETURNING recipient),
          forgot AS (
            DELETE FROM ${pairTurns} WHERE key = ${key} AND recipient IN (
              SELECT recipient FROM ${pairTurns} WHERE key = ${key} AND last_at <= ${now - gapMs}::bigint AND recipient <> ALL(${list})
               LIMIT ${recipients.length * 2}::int))
          SELECT recipient, NULL::bigint AS last_at FROM took
          UNION ALL
          SELECT recipient, last_at FROM ${pairTurns}
           WHERE key = ${key} AND recipient = ANY(${list}) AND recipient NOT IN (SELECT recipient FROM took)`),
      );
      const took = new Set(rows.filter((r) => r.last_at === null).map((r) => r.recipient as string));
      const last = new Map(rows.filter((r) => r.last_at !== null).map((r) => [r.recipient as string, Number(r.last_at)]));
      // Neither taken nor seen: another instance took it meanwhile, at about `now`.
      for (const to of recipients) if (!took.has(to)) waiting.set(to, new Date((last.get(to) ?? now) + gapMs).toISOString());
      return waiting;
    },
    async returnPairTurns(key, recipients, at) {
      if (recipients.length === 0) return;
      await db.execute(sql`
        DELETE FROM ${pairTurns} WHERE key = ${key} AND recipient = ANY(${sql.param(recipients)}::text[]) AND last_at = ${Date.parse(at)}::bigint`);
    },
  };
}
