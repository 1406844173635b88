import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPgliteDump } from '../../../test/helpers.ts';
import { PgliteThread } from './pglite-thread.ts';

const run = promisify(execFile);

describe('PGlite on its own thread', () => {
  let db: PgliteThread;
  const count = async (table: string) => Number((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n);

  beforeAll(async () => {
    // Started from a migrated database's dump, as the store's tests open theirs (test/helpers.ts).
    db = await PgliteThread.open(undefined, { loadDataDir: await migratedPgliteDump() });
    await db.query('create table items (id int primary key, label text, at timestamptz, doc jsonb)');
    await db.query('create table later (k int unique deferrable initially deferred)');
  });
  afterAll(() => db?.close());

  it('answers in both row modes, with timestamps as text and jsonb parsed', async () => {
    await db.query('insert into items values ($1, $2, $3, $4)', [1, 'one', '2025-01-15T10:00:00.123Z', JSON.stringify({ a: [1, 2] })]);
    const objects = await db.query('select id, label, at, doc from items where id = $1', [1]);
    expect(objects.rows).toEqual([{ id: 1, label: 'one', at: '2025-01-15 10:00:00.123+00', doc: { a: [1, 2] } }]);
    expect(objects.fields.map((f) => f.name)).toEqual(['id', 'label', 'at', 'doc']);
    const arrays = await db.query('select id, label from items where id = $1', [1], { rowMode: 'array' });
    expect(arrays.rows).toEqual([[1, 'one']]);
    expect((await db.query('update items set label = $1 where id = $2', ['uno', 1])).affectedRows).toBe(1);
  });

  it('hands over PostgreSQL’s error fields, which the store maps to conflicts', async () => {
    const error = await db.query('insert into items (id) values (1)').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'items_pkey', table: 'items', message: expect.stringContaining('duplicate key') });
  });

  it('commits a transaction when its function resolves, and keeps other queries waiting until then', async () => {
    let outside: Promise<number> | undefined;
    let outsideDone = false;
    const result = await db.transaction(async (tx) => {
      await tx.query('insert into items (id) values (2)');
      outside = count('items').then((n) => {
        outsideDone = true;
        return n;
      });
      // The thread takes messages in order: were the outside query not held back, it would be answered
      // before these later queries of the transaction.
      await tx.query('select 1');
      await tx.query('select 1');
      expect(outsideDone).toBe(false);
      expect(Number((await tx.query<{ n: number }>('select count(*)::int as n from items')).rows[0]?.n)).toBe(2);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await outside).toBe(2);
  });

  it('rolls back and rethrows the function’s own error', async () => {
    const boom = new Error('boom');
    const error = await db
      .transaction(async (tx) => {
        await tx.query('insert into items (id) values (3)');
        throw boom;
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(await count('items where id = 3')).toBe(0);
  });

  it('rejects with the commit’s error when the commit fails, and the row is not there', async () => {
    const error = await db
      .transaction(async (tx) => {
        await tx.query('insert into later values (1), (1)');
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect(await count('later')).toBe(0);
  });

  it('refuses what cannot cross to the thread, then goes on answering', async () => {
    await expect(db.query('select $1::text', [() => 1])).rejects.toThrow(/could not be cloned/);
    await expect(db.query('select 1', [], { parsers: { 25: (v: string) => v.toUpperCase() } })).rejects.toThrow(/only rowMode/);
    expect((await db.query('select 2 as n')).rows).toEqual([{ n: 2 }]);
  });

  it('keeps answering many queries at once, each with its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => db.query<{ n: number }>('select $1::int * 2 as n', [i])));
    expect(answers.map((a) => a.rows[0]?.n)).toEqual(Array.from({ length: 200 }, (_, i) => i * 2));
  });

  it('answers a ping ahead of the reads waiting for the database: after the one running, not after all of them', async () => {
    const done: string[] = [];
    const reads = Array.from({ length: 20 }, (_, i) =>
      db.query('select count(*) from generate_series(1, 200000)').then(() => {
        done.push(`read ${i}`);
      }),
    );
    const ping = db.ping().then(() => {
      done.push('ping');
    });
    await Promise.all([...reads, ping]);
    // The read running when the ping arrived, and perhaps the one handed over with it, finish first.
    expect(done.indexOf('ping')).toBeLessThanOrEqual(2);
    expect(done).toHaveLength(21);
  });
});

describe('the database thread’s life', () => {
  it('fails to open with an error naming the data dir', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engagekit-thread-'));
    try {
      const file = join(dir, 'not-a-dir');
      await writeFile(file, 'x');
      await expect(PgliteThread.open(file)).rejects.toThrow(`PGlite could not open its data in ${file}: ErrnoError (errno 54)`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails for good when its heap runs out: the query and every later one reject, and onFailure hears of it once', async () => {
    const failures: Error[] = [];
    const db = await PgliteThread.open(undefined, { loadDataDir: await migratedPgliteDump(), maxHeapMb: 48, onFailure: (error) => failures.push(error) });
    expect((await db.query('select 1 as n')).rows).toEqual([{ n: 1 }]);
    // About 300 MB of rows, built as strings in the thread's heap.
    const huge = db.query("select repeat('x', 1000) as s from generate_series(1, 300000)");
    await expect(huge).rejects.toThrow(/The database thread failed: .*memory/);
    await expect(db.query('select 1')).rejects.toThrow(/The database thread failed/);
    expect(failures).toHaveLength(1);
    await db.close();
    expect(failures).toHaveLength(1);
  }, 60_000);

  it('answers nothing once closed, and a close is no failure', async () => {
    const failures: Error[] = [];
    const db = await PgliteThread.open(undefined, { loadDataDir: await migratedPgliteDump(), onFailure: (error) => failures.push(error) });
    await db.close();
    expect(failures).toEqual([]);
    await expect(db.query('select 1')).rejects.toThrow('The database is closed');
    await db.close();
  });

  it('keeps a process alive while a query is under way, and not once the thread is idle', async () => {
    // A script that never closes the database: it must print the answer, then exit by itself.
    const script = `
      import { PgliteThread } from ${JSON.stringify(new URL('./pglite-thread.ts', import.meta.url).href)};
      const db = await PgliteThread.open(undefined);
      const { rows } = await db.query('select 41 + 1 as n');
      console.log(rows[0].n);
    `;
    const dir = await mkdtemp(join(tmpdir(), 'engagekit-thread-'));
    try {
      await writeFile(join(dir, 'script.mjs'), script);
      const { stdout } = await run(process.execPath, [join(dir, 'script.mjs')], { timeout: 60_000 });
      expect(stdout.trim()).toBe('42');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 70_000);
});
