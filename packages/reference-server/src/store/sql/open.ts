import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '@engagekit/runtime/store';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { guardCheckouts, nodePgDriver, pgliteDatabase, pgliteDriver, type SqlDatabase, type SqlDriver, withPooledClient } from './connection.ts';
import type { Listen } from './dispatch.ts';
import { PgliteThread } from './pglite-thread.ts';
import { type PoolWaitListener, WaitWatchedPool } from './pool-waits.ts';
import { schema } from './schema.ts';
import { createSqlStore, type SqlStoreTuning } from './store.ts';

/**
 * The package directory above `from` that holds the drizzle-kit migrations: this module runs from
 * src/store/sql in the repository and from dist (one bundled file or a chunk) once built.
 */
export function findMigrationsFolder(from: string): string {
  for (let dir = dirname(from); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) return join(dir, 'drizzle');
  }
  throw new Error(`No drizzle/meta/_journal.json above ${from}: the package's migrations are missing.`);
}

/** Where the committed drizzle-kit migrations live (`drizzle/` in the package, shipped with it). */
export const migrationsFolder = findMigrationsFolder(fileURLToPath(import.meta.url));

/** How to reach the database. Exactly one of `databaseUrl`, `dataDir` or `memory` decides; that is also the order of precedence. */
export interface SqlStoreOptions {
  /** A PostgreSQL connection string: the store uses a node-postgres pool. */
  databaseUrl?: string;
  /** A directory for embedded PGlite data (created with its parents when missing). */
  dataDir?: string;
  /** Embedded PGlite in memory: nothing survives `close()`. */
  memory?: boolean;
  /**
   * Embedded PGlite: a new database (in memory, or in an empty `dataDir`) starts from this dump
   * (`PGlite.dumpDataDir()`, a tar file, gzipped or not) instead of an empty one, and is migrated
   * from there; PGlite refuses it for a `dataDir` that holds a database already. Making an empty
   * database runs PostgreSQL's initdb in WebAssembly, about 4 s of CPU; loading a dump of a migrated
   * one under 1 s, which is what a test suite opening many scratch stores saves each time.
   */
  loadDataDir?: Blob;
  /** PostgreSQL: connections the pool opens at most (DATABASE_POOL_SIZE). Default 10; the instance opens one more to hear NOTIFY. */
  poolSize?: number;
  /**
   * PostgreSQL: how long a query waits for a pooled connection, or for a new one to connect, before it
   * fails with `StoreUnavailableError` (DATABASE_POOL_WAIT_MS). Default 5000.
   */
  poolWaitMs?: number;
  /**
   * PostgreSQL: hears of each query that waits for a pooled connection, as it begins to wait (every
   * connection busy); the function it returns is called with the seconds waited once the query has one,
   * or gave up after `poolWaitMs`. Queries that find a connection cost nothing more.
   */
  onPoolWait?: PoolWaitListener;
  /** Errors of idle pooled PostgreSQL connections (the pool drops them and reconnects); ignored when absent. */
  onPoolError?: (error: Error) => void;
  /**
   * Errors of PostgreSQL connections lost while checked out (a server restart, `pg_terminate_backend`):
   * what ran on one fails (a request answers 503) and the pool drops it; ignored when absent.
   */
  onLostConnection?: (error: Error) => void;
  /**
   * Embedded PGlite: called once if its thread fails for good (e.g. its heap runs out under a huge
   * result). Every later query fails; only reopening the store recovers.
   */
  onFailure?: (error: Error) => void;
  /** Embedded PGlite: its thread's JavaScript heap limit in MiB (query results live there); Node's default when absent. */
  maxHeapMb?: number;
}

/** A SQL store, with its drizzle database for the parts of the server that query it directly (the webhook dispatcher). */
export type SqlStore = Store & { db: SqlDatabase; kind: 'pglite' | 'postgres'; poolStats?: () => PoolStats };

/** The PostgreSQL pool now: its size (DATABASE_POOL_SIZE), its connections, the idle ones, and the queries waiting for one. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

/** An open, migrated database: what the SQL store runs on. */
export interface SqlDatabaseOpened {
  kind: SqlStore['kind'];
  /** What the store's statements and transactions run on. */
  driver: SqlDriver;
  /** drizzle over the same database, with the schema (`SqlStore.db`). */
  db: SqlDatabase;
  tuning: SqlStoreTuning;
  /** On PostgreSQL: how the store hears the other processes' NOTIFY. */
  listen?: Listen;
  /** Releases the driver. */
  close(): Promise<void>;
  /** On PostgreSQL: its pool now. */
  poolStats?: () => PoolStats;
}

/** How long the NOTIFY listener waits before it connects again, after its connection was lost or refused. */
const RELISTEN_MS = 1000;

/** Any fixed 64-bit number: the session lock that lets one instance migrate while the others wait. */
const MIGRATION_LOCK = 7_263_541_905_112_002n;

/**
 * Opens the SQL store and brings its schema up to date with the committed migrations (the same set
 * for PGlite and PostgreSQL). Several instances may open one PostgreSQL at once: they migrate in turn.
 *
 * @example
 * const store = await openSqlStore({ databaseUrl: process.env.DATABASE_URL });  // PostgreSQL
 * const local = await openSqlStore({ dataDir: './.data' });                    // embedded PGlite
 * const scratch = await openSqlStore({ memory: true });                        // PGlite in memory, for tests
 */
export async function openSqlStore(options: SqlStoreOptions): Promise<SqlStore> {
  const { kind, driver, db, tuning, listen, close, poolStats } = await openSqlDatabase(options);
  return Object.assign(createSqlStore(driver, close, tuning, listen), { db, kind, ...(poolStats && { poolStats }) });
}

/** Opens and migrates the database `options` name, as `openSqlStore` does, without the store over it. */
export async function openSqlDatabase(options: SqlStoreOptions): Promise<SqlDatabaseOpened> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  if (options.dataDir || options.memory) return openPglite(options.dataDir, options);
  throw new Error('openSqlStore needs a databaseUrl (PostgreSQL), a dataDir (embedded PGlite) or memory: true.');
}

/** The server process of a connection, as pg read it from BackendKeyData (@types/pg leaves it out). */
const backendPid = (client: pg.PoolClient) => (client as pg.PoolClient & { processID: number }).processID;

async function openPostgres(databaseUrl: string, options: SqlStoreOptions): Promise<SqlDatabaseOpened> {
  const { onPoolError, onLostConnection, onPoolWait } = options;
  const connectionTimeoutMillis = options.poolWaitMs ?? 5000;
  // Pipeline mode: a query goes out without waiting for the answer to the one before, so the writes a
  // transaction sends ahead (writes-ahead.ts) cost no round trip of their own. The wait bounds both a
  // query waiting for a busy pool's next free connection and a new connection's connecting.
  const poolConfig: pg.PoolConfig = { connectionString: databaseUrl, pipeline: true, max: options.poolSize ?? 10, connectionTimeoutMillis };
  const pool = onPoolWait ? new WaitWatchedPool(poolConfig, onPoolWait) : new pg.Pool(poolConfig);
  // Without a listener, an idle connection that dies (server restart, a DBA's terminate) crashes the process.
  pool.on('error', (error) => onPoolError?.(error));
  // The backends of this pool's connections: what they NOTIFY, this process already heard of at commit.
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => void ownBackends.add(backendPid(client)));
  pool.on('remove', (client) => void ownBackends.delete(backendPid(client)));
  // A connection checked out and lost fails what ran on it (a 503 for a request), never the process.
  guardCheckouts(pool, (error) => onLostConnection?.(error));
  try {
    await withPooledClient(pool, async (client) => {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
      try {
        await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
      }
    });
  } catch (error) {
    await pool.end();
    throw error;
  }
  // Other processes on the database announce queued deliveries with NOTIFY; one dedicated connection
  // listens, and another takes its place when it is lost.
  const listen: Listen = async (channel, onNotify) => {
    let current: pg.Client | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      current = undefined;
      if (stopped || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        // What was announced while no connection listened is looked for once it listens again.
        subscribe(false).then(onNotify, () => {});
      }, RELISTEN_MS);
    };
    const subscribe = async (first: boolean) => {
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis });
      current = client;
      // Idle between notifications, as the pool's idle connections are: its loss is reported as theirs.
      client.on('error', (error) => onPoolError?.(error));
      client.on('notification', (message) => {
        if (message.channel === channel && !ownBackends.has(message.processId)) onNotify();
      });
      client.once('end', () => {
        if (current === client) again();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        // The first subscription's failure is its caller's; a later one's is tried again.
        if (first) stopped = true;
        if (current === client) again();
        await client.end().catch(() => {});
        throw error;
      }
    };
    await subscribe(true);
    return async () => {
      stopped = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    };
  };
  return {
    kind: 'postgres',
    driver: nodePgDriver(pool),
    db: drizzleNodePg(pool, { schema }),
    tuning: { readConcurrency: 4 },
    listen,
    close: () => pool.end(),
    poolStats: () => ({ max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

async function openPglite(dataDir: string | undefined, { onFailure, loadDataDir, maxHeapMb }: SqlStoreOptions): Promise<SqlDatabaseOpened> {
  let dir: string | undefined;
  if (dataDir) {
    dir = resolve(dataDir);
    // PGlite.create(dir) needs the parent directory to exist.
    await mkdir(dirname(dir), { recursive: true });
  }
  const client = await PgliteThread.open(dir, { onFailure, loadDataDir, maxHeapMb });
  try {
    const db = pgliteDatabase(client, schema);
    await migratePglite(db, { migrationsFolder });
    return { kind: 'pglite', driver: pgliteDriver(client), db, tuning: { readConcurrency: 1 }, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}
