/**
 * A setup file of this package's test project: the runtime's shared suites (store conformance, the
 * domain's tests) run here on PGlite (one in memory for each suite file, loaded from a migrated
 * database's dump and emptied before each test) and, when DATABASE_URL is set, PostgreSQL (one fresh
 * database for each suite file). The runtime's own project runs them on the memory store.
 */
import { getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { runSuitesOn } from '../../runtime/test/every-store.ts';
import type { Store } from '../src/store/index.ts';
import { openSqlStore, type SqlStore } from '../src/store/sql/open.ts';
import { schema } from '../src/store/sql/schema.ts';
import { freshDatabase, migratedPgliteDump } from './helpers.ts';

/** Empties every table, so one migrated database serves every test of a suite. */
export async function truncateAll(store: SqlStore): Promise<void> {
  const tables = Object.values(schema).map((table) => `"${getTableName(table)}"`);
  await store.db.execute(sql.raw(`truncate ${tables.join(', ')} cascade`));
}

/** A view of a shared SQL store whose close() leaves it open (the suite closes it in afterAll). */
function borrowed(store: SqlStore): Store {
  return { ...store, close: async () => {} };
}

/** One SQL store for the describe block, opened before it and closed after; each test gets it emptied. */
function sharedSqlStore(open: () => Promise<{ store: SqlStore; drop?: () => Promise<void> }>): () => () => Promise<Store> {
  return () => {
    let shared: { store: SqlStore; drop?: () => Promise<void> } | undefined;
    beforeAll(async () => {
      shared = await open();
    });
    afterAll(async () => {
      await shared?.store.close();
      await shared?.drop?.();
    });
    return async () => {
      if (!shared) throw new Error('The SQL store is not open: its describe block has not started.');
      await truncateAll(shared.store);
      return borrowed(shared.store);
    };
  };
}

runSuitesOn([
  {
    kind: 'pglite',
    label: 'PGlite store',
    setUp: sharedSqlStore(async () => ({ store: await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() }) })),
  },
  {
    kind: 'postgres',
    label: 'PostgreSQL store',
    skip: process.env.DATABASE_URL ? undefined : 'DATABASE_URL is not set',
    setUp: sharedSqlStore(async () => {
      const db = await freshDatabase('stores');
      if (!db) throw new Error('DATABASE_URL is needed');
      return { store: await openSqlStore({ databaseUrl: db.url }), drop: db.drop };
    }),
  },
]);
