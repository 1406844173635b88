/**
 * The stores every shared test suite runs on: memory, PGlite (one in memory for the suite, emptied
 * before each test) and, when DATABASE_URL is set, PostgreSQL (one fresh database for the suite).
 * The store conformance suite and the domain's tests register themselves through this.
 */
import { getTableName, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { freshDatabase } from '../../test/helpers.ts';
import { createMemoryStore } from './memory.ts';
import { openSqlStore, type SqlStore } from './sql/open.ts';
import { schema } from './sql/schema.ts';
import type { Store } from './types.ts';

/** Which store a suite runs on. */
export type StoreKind = 'memory' | 'pglite' | 'postgres';

/** Empties every table, so one migrated database serves every test of a suite. */
export async function truncateAll(store: SqlStore): Promise<void> {
  const tables = Object.values(schema).map((table) => `"${getTableName(table)}"`);
  await store.db.execute(sql.raw(`truncate ${tables.join(', ')} cascade`));
}

/** A view of a shared SQL store whose close() leaves it open (the suite closes it in afterAll). */
function borrowed(store: SqlStore): Store {
  return { ...store, close: async () => {} };
}

/** Calls `register` once per store kind, inside a describe of its own; `makeStore` gives an empty store for the test about to run. */
export function forEveryStore(register: (kind: StoreKind, makeStore: () => Promise<Store>) => void): void {
  describe('on the memory store', () => register('memory', async () => createMemoryStore()));

  describe('on the PGlite store', () => {
    let shared: SqlStore | undefined;
    beforeAll(async () => {
      shared = await openSqlStore({ memory: true });
    });
    afterAll(async () => shared?.close());
    register('pglite', async () => {
      await truncateAll(shared as SqlStore);
      return borrowed(shared as SqlStore);
    });
  });

  const databaseUrl = process.env.DATABASE_URL;
  describe.skipIf(!databaseUrl)(`on the PostgreSQL store${databaseUrl ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
    let shared: SqlStore | undefined;
    let drop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const db = await freshDatabase('stores');
      if (!db) throw new Error('DATABASE_URL is needed');
      drop = db.drop;
      shared = await openSqlStore({ databaseUrl: db.url });
    });
    afterAll(async () => {
      await shared?.close();
      await drop?.();
    });
    register('postgres', async () => {
      await truncateAll(shared as SqlStore);
      return borrowed(shared as SqlStore);
    });
  });
}

/** For a suite's tests: an empty store of each kind before each test, closed after it; `store()` is the current one. */
export function eachTestStore(makeStore: () => Promise<Store>): () => Store {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await makeStore();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('No store: the test has not started.');
    return current;
  };
}
