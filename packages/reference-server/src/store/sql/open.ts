import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions, types } from '@electric-sql/pglite';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Store } from '../types.ts';
import type { Listen } from './dispatch.ts';
import type { SqlDatabase } from './orders.ts';
import { withPreparedReads } from './pglite-prepared.ts';
import { schema } from './schema.ts';
import { createSqlStore } from './store.ts';

/** Where the committed drizzle-kit migrations live (`packages/reference-server/drizzle`). */
export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

/** How to reach the database. Exactly one of `databaseUrl`, `dataDir` or `memory` decides; that is also the order of precedence. */
export interface SqlStoreOptions {
  /** A PostgreSQL connection string: the store uses a node-postgres pool. */
  databaseUrl?: string;
  /** A directory for embedded PGlite data (created with its parents when missing). */
  dataDir?: string;
  /** Embedded PGlite in memory: nothing survives `close()`. */
  memory?: boolean;
  /** Errors of idle pooled PostgreSQL connections (the pool drops them and reconnects); ignored when absent. */
  onPoolError?: (error: Error) => void;
}

/** A SQL store, with its drizzle database for the parts of the server that query it directly (the webhook dispatcher). */
export type SqlStore = Store & { db: SqlDatabase; kind: 'pglite' | 'postgres' };

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
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onPoolError);
  if (options.dataDir || options.memory) return openPglite(options.dataDir);
  throw new Error('openSqlStore needs a databaseUrl (PostgreSQL), a dataDir (embedded PGlite) or memory: true.');
}

async function openPostgres(databaseUrl: string, onPoolError: ((error: Error) => void) | undefined): Promise<SqlStore> {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  // Without a listener, an idle connection that dies (server restart, a DBA's terminate) crashes the process.
  pool.on('error', (error) => onPoolError?.(error));
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
      try {
        await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db: SqlDatabase = drizzleNodePg(pool, { schema });
  // Other processes on the database announce queued deliveries with NOTIFY; one dedicated connection listens.
  const listen: Listen = async (channel, onNotify) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('error', (error) => onPoolError?.(error));
    client.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    return async () => {
      await client.end().catch(() => {});
    };
  };
  return Object.assign(
    createSqlStore(db, () => pool.end(), { listen, batchReads: true }),
    { db, kind: 'postgres' as const },
  );
}

/** The type OIDs drizzle keeps as text (dates, times, intervals and their arrays) rather than parse. */
const TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;

/**
 * Opens PGlite with drizzle's parsers installed once and reads prepared once (see pglite-prepared.ts).
 * Drizzle hands the same parsers to every query, which makes PGlite merge them into a copy of its
 * whole parser table each time; with them installed at start, a query passes only its row mode.
 */
async function createPglite(dataDir: string | undefined): Promise<PGlite> {
  const parsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, asText]));
  const client = await PGlite.create(dataDir, { parsers });
  const query = withPreparedReads(client, client.query.bind(client));
  // Query options without drizzle's parsers, by the options object drizzle passes (one per prepared query, reused).
  const lean = new WeakMap<QueryOptions, QueryOptions>();
  const withoutDrizzleParsers = (options: QueryOptions | undefined) => {
    if (!options?.parsers) return options;
    let stripped = lean.get(options);
    if (!stripped) {
      stripped = sameParsers(options.parsers) ? { ...options, parsers: undefined } : options;
      lean.set(options, stripped);
    }
    return stripped;
  };
  client.query = ((sql: string, params?: unknown[], options?: QueryOptions) => query(sql, params, withoutDrizzleParsers(options))) as typeof client.query;
  return client;
}

/** Whether `parsers` keeps exactly the text types as text, as drizzle's do. */
function sameParsers(parsers: Record<number, (value: string, typeId: number) => unknown>): boolean {
  const oids = Object.keys(parsers);
  return oids.length === TEXT_TYPES.length && TEXT_TYPES.every((oid) => parsers[oid]?.('x', oid) === 'x');
}

async function openPglite(dataDir: string | undefined): Promise<SqlStore> {
  let dir: string | undefined;
  if (dataDir) {
    dir = resolve(dataDir);
    // PGlite.create(dir) needs the parent directory to exist.
    await mkdir(dirname(dir), { recursive: true });
  }
  const client = await createPglite(dir);
  try {
    const database = drizzlePglite(client, { schema });
    await migratePglite(database, { migrationsFolder });
    const db: SqlDatabase = database;
    return Object.assign(
      createSqlStore(db, () => client.close()),
      { db, kind: 'pglite' as const },
    );
  } catch (error) {
    await client.close();
    throw error;
  }
}
