/**
 * Statements built once, run on any connection and in any transaction, for the benchmark row
 * webhooks.latency.p50 (the server's CPU an addOrder).
 *
 * drizzle builds a statement's text from its parts each time it runs, for every statement of every
 * order write. Its prepared statements are built once, but each belongs to the database (or the
 * transaction) it was made on, and an order write runs in a new transaction each time. A statement here is built once, with `sql.placeholder`s for its values, through drizzle's
 * public `toSQL()`; each run fills the placeholders (`fillPlaceholders`, mapping each value as its
 * column does) and hands the text and values to the driver's own query on the connection it runs on
 * (connection.ts): node-postgres prepares it there under its name, once a connection. A select's rows
 * are read by the columns it selects, as drizzle reads them.
 */
import { Column, fillPlaceholders, is, type Query, sql } from 'drizzle-orm';
import type { SqlConnection, StoreDatabase } from './connection.ts';
import type { Row } from './raw.ts';

/** A statement as drizzle gives its text and parameters: a query builder (`toSQL`), or `db.execute(sql...)` not awaited (`getQuery`). */
type Buildable = { toSQL(): Query } | { getQuery(): Query };

/**
 * How a select's row is read, in the order of its select list: a column reads its value as drizzle
 * does; a function reads a value the statement computes (drizzle keeps a `mapWith` to itself).
 */
type RowReader = Record<string, Column | ((value: unknown) => unknown)>;

/** A statement built once: resolves to its rows, read by its `RowReader` when it has one, else as the driver gives them. */
type BuiltOnce<R> = (on: SqlConnection, values: Record<string, unknown>) => Promise<R[]>;

/** A placeholder for every column of `columns`, by key (after `prefix`): the values of a one-row insert. */
export const placeholders = (columns: Record<string, unknown>, prefix = '') =>
  Object.fromEntries(Object.keys(columns).map((key) => [key, sql.placeholder(prefix + key)]));

/** Every column of a row, by key (after `prefix`), with null for what `record` leaves out (each placeholder needs a value). */
export function rowValues(columns: Record<string, unknown>, record: object, prefix = ''): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(columns)) values[prefix + key] = (record as Record<string, unknown>)[key] ?? null;
  return values;
}

/** The names given so far: node-postgres refuses one name for two texts on a connection. */
const names = new Set<string>();

/** Reads an array row by `reader`: null stays null, as drizzle reads it. */
function rowReaderOf(reader: RowReader): (row: unknown[]) => Row {
  const keys = Object.keys(reader);
  const reads = Object.values(reader).map((read) => (is(read, Column) ? (value: unknown) => read.mapFromDriverValue(value) : read));
  return (row) => {
    const record: Row = {};
    for (let i = 0; i < keys.length; i++) {
      const value = row[i];
      record[keys[i] as string] = value === null ? null : (reads[i] as (value: unknown) => unknown)(value);
    }
    return record;
  };
}

/**
 * Runs the statement `build` makes, built on its first run, under `name` (unique; node-postgres prepares
 * it by that name); `values` fill its placeholders. With `reader` (how to read the select list `build`
 * selects, in its order), resolves to its rows read by it; without, to the rows as the driver gives them.
 */
export function builtOnce<R = Row>(name: string, build: (db: StoreDatabase) => Buildable, reader?: RowReader): BuiltOnce<R> {
  if (names.has(name)) throw new Error(`A statement built once is named "${name}" already: each needs a name of its own.`);
  names.add(name);
  let query: { text: string; params: unknown[] } | undefined;
  const readRow = reader && rowReaderOf(reader);
  return async (on, values) => {
    if (!query) {
      const statement = build(on.db);
      const { sql: text, params } = 'toSQL' in statement ? statement.toSQL() : statement.getQuery();
      query = { text, params };
    }
    const { rows } = await on.run({ name, text: query.text, arrayRows: readRow !== undefined }, fillPlaceholders(query.params, values));
    return (readRow ? (rows as unknown[][]).map(readRow) : rows) as R[];
  };
}
