/** Small parts of queries the SQL store's ports share. */
import { iso } from '@engagekit/runtime/store';
import { type Column, count, type SQL, sql, type Table } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { StoreDatabase } from './connection.ts';
import { recordColumns } from './schema.ts';

/** How many rows of `table` match `where`: the total of a page. */
export async function countRows(db: StoreDatabase, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/** Only the keys whose value is given (`undefined` means "leave as it is"). */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** `SET column = excluded.column` for every record column of `table` but `keep`: an upsert that replaces the row but those (and its `created_seq`). */
export function replaceAllBut(table: Table, keep: string[]): Record<string, SQL> {
  return Object.fromEntries(
    Object.entries(recordColumns(table) as Record<string, Column>)
      .filter(([key]) => !keep.includes(key))
      .map(([key, column]) => [key, sql`excluded.${sql.identifier(column.name)}`]),
  );
}

/** A record as its row stores it: the timestamps as ISO-8601 text. */
export const stored = <T extends { created_at: string; updated_at: string }>(record: T): T => ({
  ...record,
  created_at: iso(record.created_at),
  updated_at: iso(record.updated_at),
});
