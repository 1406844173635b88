/**
 * The database thread: PGlite runs here, so that PostgreSQL's own work (WebAssembly, and PGlite's
 * protocol code around it) has a core of its own while the main thread serves HTTP. `PgliteThread`
 * (pglite-thread.ts) sends queries and transaction steps; each answer goes back under the id of the
 * request it answers. PGlite's own locks keep queries outside a transaction waiting while one is open.
 * Queries outside a transaction wait in a line kept here, one handed to PGlite at a time (it runs one
 * at a time anyway), so that one marked `first` (the health check's) goes ahead of those waiting.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { createPglite } from './pglite-open.ts';
import type { FromThread, ThreadError, ToThread } from './pglite-thread.ts';

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread (see pglite-thread.ts)');
const port: MessagePort = parentPort;

/**
 * An error as plain data: its name, message and every plain field PostgreSQL set (code, constraint,
 * detail...). PGlite's file system throws objects that are not Errors (`ErrnoError { errno }`).
 */
function plainError(error: unknown): ThreadError {
  if (error === null || typeof error !== 'object') return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  const { name, message, errno } = error as { name?: unknown; message?: unknown; errno?: unknown };
  const called = typeof name === 'string' ? name : 'Error';
  const said = typeof message === 'string' && message ? message : `${called}${errno === undefined ? '' : ` (errno ${String(errno)})`}`;
  return { name: called, message: said, fields };
}

const answer = (id: number, value: unknown) => port.postMessage({ id, ok: true, value } satisfies FromThread);
const fail = (id: number, error: unknown) => port.postMessage({ id, ok: false, error: plainError(error) } satisfies FromThread);

/** Thrown inside PGlite's transaction to make it roll back; never leaves this thread. */
const ROLLBACK = Symbol('rollback');

/** Open transactions, by the id of the request that began them. */
const transactions = new Map<number, { tx: Transaction; end(endId: number, commit: boolean): void }>();

/**
 * Runs a PGlite transaction that stays open across messages: `begin` is answered once it holds
 * PGlite's transaction lock; queries naming it run inside; `end` commits or rolls back and is
 * answered when that is done.
 */
function begin(db: PGlite, id: number) {
  let decide: (commit: boolean) => void = () => {};
  const decided = new Promise<boolean>((resolve) => {
    decide = resolve;
  });
  let endId: number | undefined;
  db.transaction(async (tx) => {
    transactions.set(id, {
      tx,
      end(requestId, commit) {
        endId = requestId;
        transactions.delete(id);
        decide(commit);
      },
    });
    answer(id, id);
    if (!(await decided)) throw ROLLBACK;
  }).then(
    () => answer(endId as number, null),
    (error: unknown) => {
      transactions.delete(id);
      if (endId === undefined) fail(id, error);
      else if (error === ROLLBACK) answer(endId, null);
      else fail(endId, error);
    },
  );
}

/** Queries outside a transaction, waiting their turn. */
const line: (() => Promise<unknown>)[] = [];
let draining = false;

/**
 * Hands the line's queries to PGlite one at a time; `first` puts a query at the head of the line, so
 * it waits only for the query running (server.health.pglite.p99: behind 200 connections' reads, the
 * health check waited for all of them). A query runs synchronously once PGlite starts it, and the
 * messages that arrive meanwhile wait on the port: before each query, every one of them joins the line.
 */
function inLine(job: () => Promise<unknown>, first: boolean) {
  if (first) line.unshift(job);
  else line.push(job);
  if (draining) return;
  draining = true;
  void (async () => {
    for (let next = takeWaiting(); next; next = takeWaiting()) await next();
    draining = false;
  })();
}

/** Handles every message waiting on the port, then takes the head of the line. */
function takeWaiting(): (() => Promise<unknown>) | undefined {
  for (let waiting = receiveMessageOnPort(port); waiting; waiting = receiveMessageOnPort(port)) handle(waiting.message as ToThread);
  return line.shift();
}

let client: PGlite | undefined;

port.on('message', handle);

function handle(message: ToThread) {
  const db = client;
  if (!db) return fail(message.id, new Error('The database is closed'));
  switch (message.op) {
    case 'query': {
      const target = message.tx === undefined ? db : transactions.get(message.tx)?.tx;
      if (!target) return fail(message.id, new Error('The transaction is no longer open'));
      const run = () =>
        target.query(message.sql, message.params, message.rowMode ? { rowMode: message.rowMode } : undefined).then(
          (result) =>
            answer(message.id, {
              rows: result.rows,
              fields: result.fields,
              affectedRows: result.affectedRows,
              rowCount: (result as { rowCount?: number }).rowCount,
            }),
          (error: unknown) => fail(message.id, error),
        );
      // A transaction's queries go straight to it: the transaction holds PGlite, and the line may be waiting for it.
      if (message.tx === undefined) inLine(run, message.first === true);
      else void run();
      return;
    }
    case 'begin':
      begin(db, message.id);
      return;
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) return fail(message.id, new Error('The transaction is no longer open'));
      open.end(message.id, message.commit);
      return;
    }
    case 'close':
      client = undefined;
      db.close().then(
        () => answer(message.id, null),
        (error: unknown) => fail(message.id, error),
      );
      return;
  }
}

try {
  const { dataDir, loadDataDir } = (workerData ?? {}) as { dataDir?: string; loadDataDir?: Blob };
  client = await createPglite(dataDir, loadDataDir);
  answer(0, null);
} catch (error) {
  fail(0, error);
}
