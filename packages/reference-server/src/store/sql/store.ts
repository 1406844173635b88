/** The SQL store: a file per port (settings.ts, companies.ts, templates.ts, ...), composed here with the transaction, its locks and close. */
import type { ClaimedDelivery, DispatchPort, Lock, Store } from '@engagekit/runtime/store';
import { sql } from 'drizzle-orm';
import { builtOnce } from './built-once.ts';
import { createSqlCampaignRuns } from './campaign-runs.ts';
import { batchedCampaignRead, createSqlCampaigns } from './campaigns.ts';
import { createSqlCompanies } from './companies.ts';
import type { SqlConnection, SqlDriver } from './connection.ts';
import { createSqlCustomers } from './customers.ts';
import { createSqlDispatch, type Listen } from './dispatch.ts';
import { createSqlIdempotency } from './idempotency.ts';
import { createSqlKeptStatuses } from './kept-statuses.ts';
import { createSqlLeases } from './leases.ts';
import { createSqlOrders } from './orders.ts';
import type { Outbox } from './outbox.ts';
import { createSqlSendPace } from './send-pace.ts';
import { createSqlSettings } from './settings.ts';
import { createSqlTemplates } from './templates.ts';
import { createSqlTokens } from './tokens.ts';
import { reportingUnavailable } from './unavailable.ts';
import { createSqlWebhooks } from './webhooks.ts';
import { inTransaction, type WritesAhead } from './writes-ahead.ts';

/** How the SQL store reads, by driver (its speed, not its behaviour). */
export interface SqlStoreTuning {
  /**
   * Campaign reads' queries in flight at once (see batchedRead): 4 on a PostgreSQL pool; 1 on PGlite,
   * whose thread runs one query at a time, so the reads that wait for it all share its next query
   * (server.read.pglite.vs-node-http).
   */
  readConcurrency: number;
}

const advisoryLocksStatement = builtOnce('engagekit_advisory_locks', (db) =>
  db.execute(sql`
    SELECT CASE WHEN l.shared THEN pg_advisory_xact_lock_shared(hashtextextended(l.key, 0))
                ELSE pg_advisory_xact_lock(hashtextextended(l.key, 0)) END
      FROM unnest(${sql.placeholder('keys')}::text[], ${sql.placeholder('shared')}::boolean[])
           WITH ORDINALITY AS l(key, shared, n)
     ORDER BY l.n`),
);

/**
 * Takes transaction-scoped advisory locks on string keys (released at commit or rollback), all in
 * one statement: a row per lock, in the order given (the ordinality keeps it, and the select list is
 * evaluated row by row), so each waits only for its own key. Built once (webhooks.latency.p50; see
 * built-once.ts).
 */
async function advisoryLocks(tx: SqlConnection, locks: readonly Lock[]): Promise<void> {
  if (locks.length === 0) return;
  await advisoryLocksStatement(tx, { keys: locks.map((l) => l.key), shared: locks.map((l) => l.mode === 'shared') });
}

/** Every port of the SQL store on `conn` (the pool, or one transaction) but dispatch; `outbox` hears of the deliveries it writes. */
function sqlPorts(conn: SqlConnection, outbox: Outbox, driver?: SqlDriver): Omit<Store, 'transaction' | 'lock' | 'close' | keyof DispatchPort> {
  return {
    ...createSqlSettings(conn, driver),
    ...createSqlCompanies(conn),
    ...createSqlTokens(conn),
    ...createSqlOrders(conn, outbox),
    ...createSqlCustomers(conn),
    ...createSqlTemplates(conn),
    ...createSqlCampaigns(conn),
    ...createSqlCampaignRuns(conn, driver),
    ...createSqlKeptStatuses(conn),
    ...createSqlSendPace(conn),
    ...createSqlWebhooks(conn),
    ...createSqlIdempotency(conn),
    ...createSqlLeases(conn),
  };
}

/**
 * The `Store` over a driver (PGlite or node-postgres, already migrated). `close` releases the driver.
 * A database that refuses connections, or a pool that stays full past its wait, fails a method with
 * `StoreUnavailableError` (unavailable.ts). Use `openSqlStore`, which opens, migrates and wires this up.
 */
export function createSqlStore(driver: SqlDriver, close: () => Promise<void>, tuning: SqlStoreTuning, listen?: Listen): Store {
  const dispatch = createSqlDispatch(driver, listen);
  const store: Store = {
    // Outside a transaction each statement commits as it ends: what it queued is handed over at once.
    ...sqlPorts(driver, { lease: dispatch.lease, written: dispatch.committed }, driver),
    getCampaign: batchedCampaignRead(driver, tuning.readConcurrency),
    ...dispatch.methods,
    async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
      const written: (readonly ClaimedDelivery[] | null)[] = [];
      const result = await inTransaction(
        (work: (tx: SqlConnection) => Promise<T>) => driver.transaction(work),
        (tx, ahead) => fn(transactionStore(tx, { lease: dispatch.lease, written: (claimed) => written.push(claimed) }, ahead)),
      );
      // The dispatcher here gets (or hears of) deliveries once they are committed; other processes hear through NOTIFY.
      for (const claimed of written) dispatch.committed(claimed);
      return result;
    },
    async lock() {
      throw new Error('Store.lock holds locks for a transaction: call it on the store transaction(fn) gives fn.');
    },
    async close() {
      await dispatch.close();
      await close();
    },
  };
  return reportingUnavailable(store);
}

/**
 * The store inside one transaction: every method runs in it, and `lock` takes advisory locks until
 * it ends. The locks, the order and customer upserts and the events appended, whose answers no later
 * call of the transaction reads (an event's leased deliveries reach the dispatcher after the commit),
 * are sent ahead (see writes-ahead.ts).
 */
function transactionStore(tx: SqlConnection, outbox: Outbox, ahead: WritesAhead): Store {
  const ports = sqlPorts(tx, outbox);
  const store: Store = {
    ...ports,
    saveOrder: (order) => ahead.send(ports.saveOrder(order)),
    saveCustomers: (records) => ahead.send(ports.saveCustomers(records)),
    appendEvent: (event, pending) => ahead.send(ports.appendEvent(event, pending)),
    ...createSqlDispatch(tx, undefined).methods,
    // A transaction inside: the same one (the domain's use cases nest).
    transaction: (fn) => fn(store),
    lock: (locks) => ahead.send(advisoryLocks(tx, locks)),
    async close() {
      throw new Error('A transaction store cannot be closed: close the store.');
    },
    takeOnWrite() {
      throw new Error('takeOnWrite is for the store, not for one of its transactions.');
    },
  };
  return store;
}
