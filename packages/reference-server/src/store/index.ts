/**
 * The stores: the runtime's `Store` interface and memory store (re-exported from
 * `@engagekit/runtime/store`), and the reference server's SQL store (PGlite or PostgreSQL).
 */
export * from '@engagekit/runtime/store';
export type { SqlDatabase } from './sql/connection.ts';
export { openSqlStore, type PoolStats, type SqlStore, type SqlStoreOptions } from './sql/open.ts';
