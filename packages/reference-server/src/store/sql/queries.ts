/** Small parts of queries the SQL store's ports share. */
import { iso, type Page, type PageRequest, pageOffset } from '@engagekit/runtime/store';
import { type Column, count, type SQL, sql, type Table } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { StoreDatabase } from './connection.ts';
import { recordColumns } from './schema.ts';

/** How many rows of `table` match `where`: the total of a page. */
export async function countRows(db: StoreDatabase, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/** A table whose lists run oldest first: by creation time, then by the sequence that orders rows made in one instant. */
type CreatedInOrder = PgTable & { created_at: PgColumn; created_seq: PgColumn };

/**
 * A page of `table`'s rows that match `where`, read as `columns`, oldest first, and how many match in
 * all: the one order every list of the store gives. The page and the total are read together (on
 * PostgreSQL, on connections of their own).
 */
export async function pageOldestFirst<T>(
  db: StoreDatabase,
  table: CreatedInOrder,
  columns: Record<string, PgColumn>,
  where: SQL | undefined,
  page: PageRequest,
): Promise<Page<T>> {
  const [items, total] = await Promise.all([
    db.select(columns).from(table).where(where).orderBy(table.created_at, table.created_seq).limit(page.limit).offset(pageOffset(page)),
    countRows(db, table, where),
  ]);
  return { items: items as T[], total };
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
