/** How `batchedRead` reads. */
interface BatchedReadOptions<K, V> {
  /** Queries of this batcher running at once; reads past that wait and are batched. */
  concurrency: number;
  /** The most reads one query answers. */
  maxBatch: number;
  /** Reads one key. */
  one(key: K): Promise<V | null>;
  /** Reads several keys (maybe the same key twice); answers in their order, `null` where none. */
  many(keys: K[]): Promise<(V | null)[]>;
}

interface Waiting<K, V> {
  key: K;
  resolve(value: V | null): void;
  reject(error: unknown): void;
}

/**
 * A point read, batched while the database is busy.
 *
 * A read starts its query at once while fewer than `concurrency` of the batcher's queries run. Past
 * that it waits, and when a query ends, the reads waiting then go together in the next query (up to
 * `maxBatch`). At low load nothing waits; under load, one query answers many reads, so the database
 * parses, plans and answers once for all of them.
 *
 * Every query starts after each read it answers was asked, never before: a read sees every write
 * committed before it was asked, as it would with a query of its own.
 */
export function batchedRead<K, V>(options: BatchedReadOptions<K, V>): (key: K) => Promise<V | null> {
  let running = 0;
  const waiting: Waiting<K, V>[] = [];

  const run = (batch: Waiting<K, V>[]) => {
    running++;
    const finished = () => {
      running--;
      if (waiting.length > 0) run(waiting.splice(0, options.maxBatch));
    };
    let read: Promise<(V | null)[]>;
    try {
      read = batch.length === 1 ? options.one((batch[0] as Waiting<K, V>).key).then((value) => [value]) : options.many(batch.map((w) => w.key));
    } catch (error) {
      read = Promise.reject(error);
    }
    read.then(
      (values) => {
        finished();
        for (let i = 0; i < batch.length; i++) (batch[i] as Waiting<K, V>).resolve(values[i] ?? null);
      },
      (error: unknown) => {
        finished();
        for (const w of batch) w.reject(error);
      },
    );
  };

  return (key) =>
    new Promise<V | null>((resolve, reject) => {
      const w = { key, resolve, reject };
      if (running < options.concurrency) run([w]);
      else waiting.push(w);
    });
}

/**
 * `many` for a batch that may name one key several times: asks `many` once for each distinct key
 * (`nameOf` tells keys apart), and gives each later reader of a key a copy (`copyOf`) of the first
 * reader's value, so that every reader still gets a record of its own. Many requests reading one record
 * at once are what batching meets under load (benchmark rows `server.read.pglite.vs-node-http` and
 * `server.read.pg.vs-node-http`: 50 connections reading one campaign), and without it the database
 * finds, sends and has parsed that record once for each of them.
 */
export function distinctKeys<K, V>(
  nameOf: (key: K) => string,
  copyOf: (value: V) => V,
  many: (keys: K[]) => Promise<(V | null)[]>,
): (keys: K[]) => Promise<(V | null)[]> {
  return async (keys) => {
    const positions = new Map<string, number>();
    const distinct: K[] = [];
    const positionOf = keys.map((key) => {
      const name = nameOf(key);
      let at = positions.get(name);
      if (at === undefined) {
        at = distinct.push(key) - 1;
        positions.set(name, at);
      }
      return at;
    });
    if (distinct.length === keys.length) return many(keys);
    const values = await many(distinct);
    const given = new Set<number>();
    return positionOf.map((at) => {
      const value = values[at] ?? null;
      if (value === null || !given.has(at)) {
        given.add(at);
        return value;
      }
      return copyOf(value);
    });
  };
}
