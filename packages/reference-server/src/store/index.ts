/** The reference server's persistence: the `Store` interface, its memory and SQL implementations. */
export { createMemoryStore, type MemorySnapshot, type MemoryStore } from './memory.ts';
export { openSqlStore, type SqlStore, type SqlStoreOptions } from './sql/open.ts';
export type { SqlDatabase } from './sql/orders.ts';
export * from './types.ts';
