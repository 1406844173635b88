/**
 * Statements built once, run in any transaction. It serves the benchmark row webhooks.latency.p50
 * (the server's CPU an addOrder: 4.70 ms with each statement built on every run, 3.55 ms built once,
 * medians in turns; see BENCHMARKS.md, "Round two, seventh pass").
 *
 * drizzle builds a statement's text from its parts each time it runs: 40-180 µs of CPU for each
 * statement of an order write. Its prepared statements are built once, but each belongs to the
 * connection (or the transaction) it was made on, and an order write runs in a new transaction each
 * time. A statement here is built once, with `sql.placeholder`s for its values, and each run hands
 * its text and the values to the session of the database or transaction it runs in: what drizzle's
 * own `prepare()` does with a statement it has just built. The rows of a select are read by the
 * same `fields` it selects, as drizzle reads them.
 */
import { type Column, type Query, type SQL, sql } from 'drizzle-orm';
import type { SqlDatabase } from './orders.ts';

/** A select's fields by key: columns, or SQL with `mapWith`. */
export type Fields = Record<string, Column | SQL | SQL.Aliased>;

/** A statement as drizzle gives its text and parameters: a query builder (`toSQL`), or `db.execute(sql...)` not awaited (`getQuery`). */
type Buildable = { toSQL(): Query } | { getQuery(): Query };

/** A placeholder for every column of `columns`, by key (after `prefix`): the values of a one-row insert. */
export const placeholders = (columns: Record<string, unknown>, prefix = '') =>
  Object.fromEntries(Object.keys(columns).map((key) => [key, sql.placeholder(prefix + key)]));

/** Every column of a row, by key (after `prefix`), with null for what `record` leaves out (each placeholder needs a value). */
export function rowValues(columns: Record<string, unknown>, record: object, prefix = ''): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(columns)) values[prefix + key] = (record as Record<string, unknown>)[key] ?? null;
  return values;
}

/**
 * Runs the statement `build` makes, built on its first run; `values` fill its placeholders. With
 * `fields` (the select list `build` selects), resolves to its rows read by them; without, to the
 * driver's result.
 */
export function builtOnce<Row>(build: (db: SqlDatabase) => Buildable, fields?: Fields): (db: SqlDatabase, values: Record<string, unknown>) => Promise<Row[]> {
  let query: Query | undefined;
  const ordered = fields && Object.entries(fields).map(([key, field]) => ({ path: [key], field }));
  return (db, values) => {
    if (!query) {
      const statement = build(db);
      query = 'toSQL' in statement ? statement.toSQL() : statement.getQuery();
    }
    return db._.session.prepareQuery(query, ordered as never, undefined, true).execute(values) as Promise<Row[]>;
  };
}
