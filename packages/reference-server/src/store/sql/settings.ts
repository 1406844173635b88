import type { SettingsPort } from '@engagekit/runtime/store';
import { eq } from 'drizzle-orm';
import type { SqlConnection, SqlDriver } from './connection.ts';
import { settings } from './schema.ts';

/** The query that says the database answers. */
const PING = { name: 'engagekit_ping', text: 'SELECT 1', arrayRows: true };

/** The SQL store's settings on `conn` (the pool, or one transaction; `driver`'s ping when given, else a query on `conn`). */
export function createSqlSettings(conn: SqlConnection, driver?: SqlDriver): SettingsPort {
  const { db } = conn;
  return {
    async ping() {
      if (driver) await driver.ping();
      else await conn.run(PING, []);
    },
    async getSetting(key) {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      return row?.value ?? null;
    },
    async putSettingIfAbsent(key, value) {
      await db.insert(settings).values({ key, value }).onConflictDoNothing();
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
      if (!row) throw new Error(`Setting "${key}" was removed while it was being stored.`);
      return row.value;
    },
  };
}
