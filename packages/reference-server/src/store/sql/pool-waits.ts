/**
 * The PostgreSQL pool, telling of each checkout that has to wait for a connection: what
 * `engagekit_db_pool_waits_total` and `engagekit_db_pool_wait_seconds` count. Every checkout goes
 * through `connect` (`pool.query` and drizzle's statements on the pool call it too), so that is where
 * it looks; one that finds a connection, or opens one, costs a comparison and nothing more.
 */
import pg from 'pg';

/** Called as a checkout begins to wait; what it returns is called with the seconds waited once it has a connection, or gave up. */
export type PoolWaitListener = () => (seconds: number) => void;

/** pg's checkout callback. */
type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: (release?: unknown) => void) => void;

/**
 * A node-postgres pool that calls `onWait` for each checkout that waits: the pool has opened every
 * connection it may (`max`) and has none idle that a checkout queued ahead will not take. Such a
 * checkout waits until one is released, or until `connectionTimeoutMillis` (DATABASE_POOL_WAIT_MS).
 *
 * @example
 * const pool = new WaitWatchedPool({ connectionString, max: 10 }, () => {
 *   waits.inc();
 *   return (seconds) => waitSeconds.observe(seconds);
 * });
 */
export class WaitWatchedPool extends pg.Pool {
  readonly #onWait: PoolWaitListener;

  constructor(config: pg.PoolConfig, onWait: PoolWaitListener) {
    super(config);
    this.#onWait = onWait;
  }

  /** Whether a checkout now waits: every connection open, and none idle that those waiting ahead leave it. */
  #mustWait(): boolean {
    return this.totalCount >= (this.options.max ?? 10) && this.idleCount <= this.waitingCount;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (!this.#mustWait()) {
      if (!callback) return super.connect();
      super.connect(callback);
      return undefined;
    }
    const started = performance.now();
    const waited = this.#onWait();
    const done = () => waited((performance.now() - started) / 1000);
    if (!callback) return super.connect().finally(done);
    super.connect((error, client, release) => {
      done();
      callback(error, client, release);
    });
    return undefined;
  }
}
