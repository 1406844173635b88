import type { KeptStatusPort } from '@engagekit/runtime/store';
import { asc, inArray, lt, sql } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { keptStatuses, messages } from './schema.ts';

/** The SQL store's kept statuses on `conn` (the pool, or one transaction). */
export function createSqlKeptStatuses({ db }: SqlConnection): KeptStatusPort {
  return {
    async keepStatuses(statuses) {
      if (statuses.length > 0) await db.insert(keptStatuses).values(statuses).onConflictDoNothing();
    },
    async matchedKeptStatuses(limit) {
      return db
        .select()
        .from(keptStatuses)
        .where(sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.provider_message_id} = ${keptStatuses.provider_message_id})`)
        .orderBy(asc(keptStatuses.received_at), asc(keptStatuses.id))
        .limit(limit);
    },
    async dropKeptStatuses(ids) {
      if (ids.length > 0) await db.delete(keptStatuses).where(inArray(keptStatuses.id, ids));
    },
    async expireKeptStatuses(before) {
      const gone = await db.delete(keptStatuses).where(lt(keptStatuses.received_at, before)).returning({ id: keptStatuses.id });
      return gone.length;
    },
  };
}
