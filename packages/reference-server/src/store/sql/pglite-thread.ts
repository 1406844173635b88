/**
 * PGlite on a thread of its own. PGlite runs PostgreSQL as WebAssembly on the thread that calls it:
 * on the main thread, every query's execution competes with HTTP parsing, the app and the socket
 * writes for one core. `PgliteThread` runs it in a worker (pglite-worker.ts) and offers the part of
 * PGlite's API drizzle's PGlite driver uses (`query`, `transaction`), each call a message to the
 * worker and its answer a message back. It serves the benchmark row server.read.pglite.vs-node-http.
 */
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { sameParsers } from './pglite-open.ts';

/** What the main thread asks of the database thread. */
export type ToThread =
  | { op: 'query'; id: number; sql: string; params: unknown[]; rowMode: 'array' | 'object' | undefined; tx: number | undefined; first?: boolean }
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'close'; id: number };

/** An error crossing threads: structured cloning keeps an Error's message but drops PostgreSQL's fields. */
export interface ThreadError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

/** The database thread's answer to a request (id 0: opening the database). */
export type FromThread = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

/** What a query runs on: the database, or one open transaction. */
export interface Queryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

/** How the database thread is run. */
interface PgliteThreadOptions {
  /**
   * Called once if the thread fails for good (an uncaught error, or its JavaScript heap runs out
   * under a huge result): the queries under way and every later one reject; only a new thread
   * recovers. Not called after `close()`.
   */
  onFailure?: ((error: Error) => void) | undefined;
  /** The thread's JavaScript heap limit in MiB (query results live there); Node's default when absent. */
  maxHeapMb?: number | undefined;
  /** A new database starts from this dump (`PGlite.dumpDataDir()`) rather than from initdb. */
  loadDataDir?: Blob | undefined;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The worker's script beside this module: `.ts` in the repository; once built, dist's ESM `.js` (for the CommonJS build too). */
const WORKER = new URL(import.meta.url.endsWith('.ts') ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);

function toError({ name, message, fields }: ThreadError): Error {
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}

/** PGlite, opened on a worker thread of its own. */
export class PgliteThread implements Queryable {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #lastId = 0;
  /** Why the thread can no longer answer, once it cannot. */
  #stopped: Error | undefined;

  private constructor(worker: Worker, onFailure: ((error: Error) => void) | undefined) {
    this.#worker = worker;
    worker.on('message', (message: FromThread) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      // An idle thread does not keep the process alive; one with work under way does.
      if (this.#pending.size === 0) worker.unref();
      if (message.ok) pending.resolve(message.value);
      else pending.reject(toError(message.error));
    });
    const stop = (why: Error) => {
      const failed = !this.#stopped;
      this.#stopped ??= why;
      for (const pending of this.#pending.values()) pending.reject(this.#stopped);
      this.#pending.clear();
      if (failed) onFailure?.(why);
    };
    worker.on('error', (error) => stop(new Error(`The database thread failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => stop(new Error(`The database thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens PGlite there: in `dataDir`, or in memory when it is undefined. */
  static async open(dataDir: string | undefined, options: PgliteThreadOptions = {}): Promise<PgliteThread> {
    const resourceLimits = options.maxHeapMb === undefined ? undefined : { maxOldGenerationSizeMb: options.maxHeapMb };
    let opened = false;
    // A failure while opening rejects `open` itself; onFailure is for a database that was open.
    const onFailure = (error: Error) => {
      if (opened) options.onFailure?.(error);
    };
    const thread = new PgliteThread(new Worker(WORKER, { workerData: { dataDir, loadDataDir: options.loadDataDir }, resourceLimits }), onFailure);
    const ready = new Promise((resolve, reject) => thread.#pending.set(0, { resolve, reject }));
    try {
      await ready;
    } catch (error) {
      await thread.#worker.terminate();
      throw new Error(`PGlite could not open ${dataDir ? `its data in ${dataDir}` : 'in memory'}: ${(error as Error).message}`, { cause: error });
    }
    opened = true;
    return thread;
  }

  /** Which parser tables were drizzle's, by the table (drizzle passes the same one to every query of a statement). */
  readonly #checked = new WeakMap<object, boolean>();

  #drizzleParsers(parsers: NonNullable<QueryOptions['parsers']>): boolean {
    let same = this.#checked.get(parsers);
    if (same === undefined) {
      same = sameParsers(parsers);
      this.#checked.set(parsers, same);
    }
    return same;
  }

  #send(message: ToThread): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(message.id, { resolve, reject });
      try {
        this.#worker.postMessage(message);
      } catch (error) {
        // A parameter that cannot be cloned (a function, a symbol...).
        this.#pending.delete(message.id);
        if (this.#pending.size === 0) this.#worker.unref();
        reject(error);
      }
    });
  }

  #query<T>(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx: number | undefined): Promise<Results<T>> {
    // The thread's PGlite has drizzle's parsers installed; functions cannot cross threads anyway.
    if ((options?.parsers && !this.#drizzleParsers(options.parsers)) || options?.serializers || options?.blob || options?.paramTypes) {
      return Promise.reject(new Error('PgliteThread: of the query options, only rowMode (and drizzle’s own parsers) can be used'));
    }
    return this.#send({ op: 'query', id: ++this.#lastId, sql, params: params ?? [], rowMode: options?.rowMode, tx }) as Promise<Results<T>>;
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query(sql, params, options, undefined);
  }

  /**
   * Runs `fn` in a transaction: committed when `fn` resolves, rolled back when it throws. Queries
   * outside it wait until it ends, as with PGlite's own `transaction`.
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = (await this.#send({ op: 'begin', id: ++this.#lastId })) as number;
    let result: T;
    try {
      result = await fn({ query: (sql, params, options) => this.#query(sql, params, options, tx) });
    } catch (error) {
      await this.#send({ op: 'end', id: ++this.#lastId, tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.#send({ op: 'end', id: ++this.#lastId, tx, commit: true });
    return result;
  }

  /**
   * Resolves once PGlite answers `SELECT 1`, which goes ahead of every query waiting outside a
   * transaction (after the one running, and a transaction open): how health says the database answers
   * without queueing behind user reads (server.health.pglite.p99).
   */
  async ping(): Promise<void> {
    await this.#send({ op: 'query', id: ++this.#lastId, sql: 'SELECT 1', params: [], rowMode: 'array', tx: undefined, first: true });
  }

  /** Closes PGlite (its last writes reach `dataDir`) and stops the thread. */
  async close(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#send({ op: 'close', id: ++this.#lastId });
    } finally {
      this.#stopped = new Error('The database is closed');
      await this.#worker.terminate();
    }
  }
}
