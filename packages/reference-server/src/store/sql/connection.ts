/**
 * What the SQL store's statements run on, by driver: a drizzle database, and the driver's own
 * parameterised query on the same connection (the pool or PGlite, or one transaction's connection),
 * which statements built once use (built-once.ts). The store runs its transactions here, on a
 * connection it holds, so that both reach the same one.
 */
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import {
  createTableRelationsHelpers,
  type ExtractTablesWithRelations,
  extractTablesRelationalConfig,
  type RelationalSchemaConfig,
  type TablesRelationalConfig,
} from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import { PgliteDatabase, PgliteSession, PgliteTransaction } from 'drizzle-orm/pglite';
import pg from 'pg';
import { TEXT_TYPES } from './pglite-open.ts';
import type { PgliteThread, Queryable } from './pglite-thread.ts';
import type { Schema } from './schema.ts';
import { unavailableReason } from './unavailable.ts';

/** A drizzle database or transaction over the store's schema, whichever driver is underneath (`SqlStore.db`). */
export type SqlDatabase = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * A drizzle database or transaction the store's statements run on. It leaves out the relational
 * schema, which the store never asks for (`db.query`): drizzle would read it again for every
 * transaction.
 */
export type StoreDatabase = PgDatabase<PgQueryResultHKT>;

/** A statement as the driver runs it. */
interface DriverStatement {
  /** node-postgres prepares it under this name once on each connection; PGlite does not name statements. */
  name: string;
  text: string;
  /** Rows as arrays of values, in the order they are selected (else as objects by column name). */
  arrayRows: boolean;
}

/** Runs a statement with its values (already as the driver takes them) on one connection. */
type RunStatement = (statement: DriverStatement, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** One place the store's statements run: the pool (or PGlite), or one transaction. */
export interface SqlConnection {
  readonly db: StoreDatabase;
  /** The driver's own query, on the connection `db` runs on. */
  readonly run: RunStatement;
}

/** A database the SQL store runs on. */
export interface SqlDriver extends SqlConnection {
  /**
   * Runs `work` in a transaction on a connection of its own: committed when it resolves, rolled back
   * when it throws, as drizzle's `db.transaction` does (a `transaction` of the `db` it is given is a
   * savepoint).
   */
  transaction<T>(work: (tx: SqlConnection) => Promise<T>): Promise<T>;
  /** Resolves once the database answers a trivial query, ahead of the queries waiting where the driver can put it ahead (PGlite's thread). */
  ping(): Promise<void>;
}

/** The types drizzle reads as text (dates, times, intervals and their arrays), as its node-postgres driver keeps them. */
const textTypes = new Set(TEXT_TYPES);
const asText = (value: string) => value;
const nodePgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    textTypes.has(oid) ? asText : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** node-postgres's query on a pool or on one of its connections. */
function runOnNodePg(client: pg.Pool | pg.PoolClient): RunStatement {
  return ({ name, text, arrayRows }, values) =>
    arrayRows ? client.query({ name, text, values, rowMode: 'array', types: nodePgTypes }) : client.query({ name, text, values, types: nodePgTypes });
}

/**
 * Keeps an error listener on every connection `pool` checks out, for as long as it is out: pg-pool
 * listens only to idle connections, and a connection that breaks while it is out (the server
 * restarting, an operator's `pg_terminate_backend`) emits `error`, which with no listener ends the
 * process. This covers the checkouts the store makes itself and those made for it (`pool.query`,
 * drizzle's transactions on the pool); `onLost` hears each such error. The one that ran a statement
 * then fails, and pg-pool drops the broken connection when it is released.
 */
export function guardCheckouts(pool: pg.Pool, onLost: (error: Error) => void): void {
  const listeners = new WeakMap<pg.PoolClient, (error: Error) => void>();
  pool.on('acquire', (client) => {
    const listener = (error: Error) => onLost(error);
    listeners.set(client, listener);
    client.on('error', listener);
  });
  pool.on('release', (_error, client) => {
    const listener = listeners.get(client);
    if (!listener) return;
    listeners.delete(client);
    client.removeListener('error', listener);
  });
}

/**
 * Runs `work` on a connection checked out of `pool`, then gives it back. When the connection broke
 * meanwhile, `work`'s failure is that loss (a statement sent after it fails with pg's "not queryable",
 * and drizzle's ROLLBACK failing hides the statement's own error), and the connection goes back with
 * the error (`release(err)`), so that the pool destroys it rather than hand it out again.
 */
export async function withPooledClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on('error', onError);
  let failure: unknown;
  try {
    return await work(client);
  } catch (error) {
    failure = lost ?? error;
    throw failure;
  } finally {
    client.removeListener('error', onError);
    // A statement may fail of the loss before the client hears of it (the server's FATAL comes before the socket's end).
    client.release(lost ?? (unavailableReason(failure) === undefined ? undefined : (failure as Error)));
  }
}

/** The store's driver over a node-postgres pool (in pipeline mode: see writes-ahead.ts). */
export function nodePgDriver(pool: pg.Pool): SqlDriver {
  return {
    db: drizzleNodePg(pool),
    run: runOnNodePg(pool),
    transaction(work) {
      // drizzle over the one connection: its transaction begins and ends there, and so do the statements built once.
      return withPooledClient(pool, (client) => drizzleNodePg(client).transaction((tx) => work({ db: tx, run: runOnNodePg(client) })));
    },
    async ping() {
      await pool.query('SELECT 1');
    },
  };
}

/** PGlite's query on the thread or in one of its transactions (the thread's PGlite reads types as drizzle does). */
function runOnPglite(queryable: Queryable): RunStatement {
  return (statement, values) => queryable.query(statement.text, values, statement.arrayRows ? { rowMode: 'array' } : undefined);
}

/**
 * PGlite's `Transaction` over the thread, or over one transaction open on it: what drizzle's PGlite
 * session runs its statements on. The session calls only `query`; the rest is not offered.
 */
function asPgliteTransaction(on: Queryable): Transaction {
  const notOffered = (what: string) => Promise.reject(new Error(`The database thread offers drizzle query(), not ${what}`));
  return {
    query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
      return on.query<T>(sql, params, options);
    },
    sql: () => notOffered('sql``'),
    exec: () => notOffered('exec()'),
    rollback: () => notOffered('rollback()'),
    listen: () => notOffered('listen()'),
    closed: false,
  };
}

type AnySchema = RelationalSchemaConfig<TablesRelationalConfig> | undefined;

/**
 * drizzle's PGlite session over the thread: statements run on the thread's `query`, and a transaction
 * is one the thread begins, with drizzle's own PGlite session and transaction over it (whose
 * transactions inside are savepoints).
 */
class ThreadSession extends PgliteSession<Record<string, unknown>, TablesRelationalConfig> {
  readonly #thread: PgliteThread;
  readonly #schema: AnySchema;

  constructor(thread: PgliteThread, dialect: PgDialect, schema: AnySchema) {
    super(asPgliteTransaction(thread), dialect, schema);
    this.#thread = thread;
    this.#schema = schema;
  }

  override transaction<T>(
    work: (tx: PgliteTransaction<Record<string, unknown>, TablesRelationalConfig>) => Promise<T>,
    config?: PgTransactionConfig,
  ): Promise<T> {
    return this.#thread.transaction(async (open) => {
      const tx = inPgliteTransaction(open, this.dialect, this.#schema);
      if (config) await tx.setTransaction(config);
      return work(tx);
    });
  }
}

/** A drizzle transaction over one the thread has begun (`open`). */
function inPgliteTransaction<F extends Record<string, unknown>, S extends TablesRelationalConfig>(
  open: Queryable,
  dialect: PgDialect,
  schema: RelationalSchemaConfig<S> | undefined,
): PgliteTransaction<F, S> {
  return new PgliteTransaction<F, S>(dialect, new PgliteSession<F, S>(asPgliteTransaction(open), dialect, schema), schema);
}

/** drizzle over PGlite on its thread, with `schema`'s relational queries (`db.query`) when given. */
export function pgliteDatabase<S extends Record<string, unknown> = Record<string, never>>(thread: PgliteThread, schema?: S): PgliteDatabase<S> {
  const dialect = new PgDialect();
  let relational: RelationalSchemaConfig<ExtractTablesWithRelations<S>> | undefined;
  if (schema) {
    const { tables, tableNamesMap } = extractTablesRelationalConfig<ExtractTablesWithRelations<S>>(schema, createTableRelationsHelpers);
    relational = { fullSchema: schema, schema: tables, tableNamesMap };
  }
  return new PgliteDatabase<S>(dialect, new ThreadSession(thread, dialect, relational), relational);
}

/** The store's driver over PGlite on its thread. */
export function pgliteDriver(thread: PgliteThread): SqlDriver {
  const db = pgliteDatabase(thread);
  const dialect = new PgDialect();
  return {
    db,
    run: runOnPglite(thread),
    transaction(work) {
      // drizzle's transaction over the one the thread has begun: its own transactions inside are savepoints.
      return thread.transaction((open) =>
        work({ db: inPgliteTransaction<Record<string, never>, Record<string, never>>(open, dialect, undefined), run: runOnPglite(open) }),
      );
    },
    ping: () => thread.ping(),
  };
}
