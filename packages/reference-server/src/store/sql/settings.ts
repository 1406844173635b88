import type { SettingsPort } from '@engagekit/runtime/store';
import { eq } from 'drizzle-orm';
import type { SqlConnection } from './connection.ts';
import { settings } from './schema.ts';

/** The SQL store's settings on `conn` (the pool, or one transaction). */
export function createSqlSettings(conn: SqlConnection): SettingsPort {
  const { db } = conn;
  return {
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
