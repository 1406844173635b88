import { describe, expect, it } from 'vitest';
import { batchedRead, distinctKeys } from './batched-read.ts';

/** A batcher over a fake database whose queries end only when the test says so. */
function fakeDatabase(concurrency: number, maxBatch = 64) {
  const queries: { keys: string[]; finish(): void; fail(error: Error): void }[] = [];
  const rows = new Map([
    ['a', { name: 'A' }],
    ['b', { name: 'B' }],
  ]);
  const query = (keys: string[]) =>
    new Promise<({ name: string } | null)[]>((resolve, reject) => {
      queries.push({
        keys,
        // A fresh object per key, as a database row is.
        finish: () => resolve(keys.map((k) => (rows.has(k) ? { ...(rows.get(k) as { name: string }) } : null))),
        fail: reject,
      });
    });
  const read = batchedRead<string, { name: string }>({
    concurrency,
    maxBatch,
    one: async (key) => (await query([key]))[0] ?? null,
    many: (keys) => query(keys),
  });
  return { read, queries };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('batchedRead', () => {
  it('sends each read at once while fewer queries than its concurrency run', async () => {
    const db = fakeDatabase(2);
    const first = db.read('a');
    const second = db.read('b');
    expect(db.queries.map((q) => q.keys)).toEqual([['a'], ['b']]);
    for (const q of db.queries) q.finish();
    expect(await Promise.all([first, second])).toEqual([{ name: 'A' }, { name: 'B' }]);
  });

  it('batches the reads that wait, answering each in its order, duplicates and misses included', async () => {
    const db = fakeDatabase(1);
    const running = db.read('a');
    const waiting = ['b', 'x', 'a', 'b'].map((k) => db.read(k));
    expect(db.queries.map((q) => q.keys)).toEqual([['a']]);
    db.queries[0]?.finish();
    await settle();
    // Started only once the running query ended, with every read that waited until then.
    expect(db.queries.map((q) => q.keys)).toEqual([['a'], ['b', 'x', 'a', 'b']]);
    db.queries[1]?.finish();
    const answers = await Promise.all([running, ...waiting]);
    expect(answers).toEqual([{ name: 'A' }, { name: 'B' }, null, { name: 'A' }, { name: 'B' }]);
    expect(answers[1]).not.toBe(answers[4]);
  });

  it('never answers a read with a query that started before it was asked', async () => {
    const db = fakeDatabase(1);
    db.read('a');
    const early = db.read('a');
    db.queries[0]?.finish();
    await settle();
    const late = db.read('b'); // the batch holding `early` has started: this one waits for the next query
    expect(db.queries.map((q) => q.keys)).toEqual([['a'], ['a']]);
    db.queries[1]?.finish();
    await early;
    await settle();
    expect(db.queries.map((q) => q.keys)).toEqual([['a'], ['a'], ['b']]);
    db.queries[2]?.finish();
    expect(await late).toEqual({ name: 'B' });
  });

  it('puts at most maxBatch reads in one query', async () => {
    const db = fakeDatabase(1, 2);
    db.read('a');
    const rest = ['a', 'b', 'a', 'b', 'a'].map((k) => db.read(k));
    for (let i = 0; i < 4; i++) {
      db.queries[i]?.finish();
      await settle();
    }
    expect(db.queries.map((q) => q.keys)).toEqual([['a'], ['a', 'b'], ['a', 'b'], ['a']]);
    expect(await Promise.all(rest)).toEqual([{ name: 'A' }, { name: 'B' }, { name: 'A' }, { name: 'B' }, { name: 'A' }]);
  });

  it('rejects every read of a failed query, and goes on serving the next ones', async () => {
    const db = fakeDatabase(1);
    const running = db.read('a');
    const batch = [db.read('a'), db.read('b')];
    db.queries[0]?.finish();
    await running;
    await settle();
    db.queries[1]?.fail(new Error('connection lost'));
    for (const r of batch) await expect(r).rejects.toThrow('connection lost');
    const after = db.read('b');
    expect(db.queries).toHaveLength(3);
    db.queries[2]?.finish();
    expect(await after).toEqual({ name: 'B' });
  });

  it('rejects, rather than throws, when a query cannot even start', async () => {
    const read = batchedRead<string, string>({
      concurrency: 1,
      maxBatch: 8,
      one: () => {
        throw new Error('no connection');
      },
      many: () => Promise.resolve([]),
    });
    await expect(read('a')).rejects.toThrow('no connection');
    await expect(read('b')).rejects.toThrow('no connection');
  });
});

describe('distinctKeys', () => {
  type Row = { name: string; tags: string[] };
  const rows = new Map<string, Row>([
    ['a', { name: 'A', tags: ['x'] }],
    ['b', { name: 'B', tags: ['y'] }],
  ]);
  /** A fake `many` that records the keys it was asked for and answers a fresh object per key, and a copier that counts its copies. */
  function fake() {
    const asked: string[][] = [];
    const copied: unknown[] = [];
    const many = async (keys: string[]) => {
      asked.push(keys);
      return keys.map((k) => (rows.has(k) ? structuredClone(rows.get(k) as Row) : null));
    };
    const copyOf = (value: Row): Row => {
      copied.push(value);
      return structuredClone(value);
    };
    return { asked, copied, many, copyOf };
  }

  it('asks once for each distinct key, and answers every key in its order, misses included', async () => {
    const db = fake();
    const answers = await distinctKeys((k: string) => k, db.copyOf, db.many)(['a', 'b', 'a', 'x', 'a', 'x', 'b']);
    expect(db.asked).toEqual([['a', 'b', 'x']]);
    expect(answers.map((a) => a?.name ?? null)).toEqual(['A', 'B', 'A', null, 'A', null, 'B']);
    expect(db.copied).toHaveLength(3);
  });

  it('gives each reader of a key a record of its own', async () => {
    const db = fake();
    const answers = await distinctKeys((k: string) => k, db.copyOf, db.many)(['a', 'a', 'a']);
    expect(answers[0]).not.toBe(answers[1]);
    expect(answers[1]).not.toBe(answers[2]);
    expect(answers[0]?.tags).not.toBe(answers[1]?.tags);
    expect(answers).toEqual([rows.get('a'), rows.get('a'), rows.get('a')]);
  });

  it('tells keys apart by their name, and copies nothing when every key is distinct', async () => {
    const db = fake();
    const read = distinctKeys(
      (k: { id: string }) => k.id,
      db.copyOf,
      (keys) => db.many(keys.map((k) => k.id)),
    );
    expect((await read([{ id: 'a' }, { id: 'b' }])).map((a) => a?.name)).toEqual(['A', 'B']);
    expect(db.copied).toEqual([]);
    expect((await read([{ id: 'b' }, { id: 'b' }])).map((a) => a?.name)).toEqual(['B', 'B']);
    expect(db.asked).toEqual([['a', 'b'], ['b']]);
  });

  it('rejects when the read of the distinct keys fails', async () => {
    const read = distinctKeys(
      (k: string) => k,
      fake().copyOf,
      () => Promise.reject(new Error('connection lost')),
    );
    await expect(read(['a', 'a'])).rejects.toThrow('connection lost');
  });
});
