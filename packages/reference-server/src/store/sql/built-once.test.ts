import { eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../../../runtime/test/store/conformance-fixtures.ts';
import { freshDatabase, migratedPgliteDump } from '../../../test/helpers.ts';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import { openSqlDatabase, type SqlDatabaseOpened } from './open.ts';
import { companies } from './schema.ts';

const databaseUrl = process.env.DATABASE_URL;

/** A fresh database of each kind this run has: PGlite in memory, and PostgreSQL when DATABASE_URL is set. */
const kinds = [
  { kind: 'pglite', open: async () => ({ opened: await openSqlDatabase({ memory: true, loadDataDir: await migratedPgliteDump() }), drop: async () => {} }) },
  {
    kind: 'postgres',
    open: async () => {
      const fresh = await freshDatabase('built_once');
      if (!fresh) throw new Error('DATABASE_URL is not set');
      return { opened: await openSqlDatabase({ databaseUrl: fresh.url }), drop: fresh.drop };
    },
  },
].filter(({ kind }) => kind === 'pglite' || databaseUrl);

describe.each(kinds)('builtOnce on $kind', ({ kind, open }) => {
  let opened: SqlDatabaseOpened;
  let drop = async () => {};
  beforeAll(async () => {
    ({ opened, drop } = await open());
    await opened.db.insert(companies).values([company(1), company(2)]);
  });
  afterAll(async () => {
    await opened?.close();
    await drop();
  });

  it('builds a statement on its first run and runs it again, on the database and in transactions, with new values', async () => {
    let builds = 0;
    const byUuid = builtOnce<{ uuid: string; companyId: string; one: number }>(
      `test_by_uuid_${kind}`,
      (db) => {
        builds++;
        return db
          .select({ uuid: companies.uuid, companyId: companies.company_id, one: sql`'1'` })
          .from(companies)
          .where(eq(companies.uuid, sql.placeholder('uuid')));
      },
      { uuid: companies.uuid, companyId: companies.company_id, one: Number },
    );
    const { driver } = opened;
    const [first, second] = [company(1), company(2)];
    expect(await byUuid(driver, { uuid: first.uuid })).toEqual([{ uuid: first.uuid, companyId: first.company_id, one: 1 }]);
    // Inside transactions, each on a connection of its own: the rows are read by the reader, as drizzle reads them.
    for (const co of [first, second]) {
      const rows = await driver.transaction((tx) => byUuid(tx, { uuid: co.uuid }));
      expect(rows).toEqual([{ uuid: co.uuid, companyId: co.company_id, one: 1 }]);
    }
    expect(await byUuid(driver, { uuid: 'no-such-company' })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('runs a write in the transaction it is given, with the values its columns take, and one missing names its placeholder', async () => {
    const rename = builtOnce(`test_rename_${kind}`, (db) =>
      db
        .update(companies)
        .set({ name: sql.placeholder('name') as never, created_at: sql.placeholder('createdAt') as never })
        .where(eq(companies.uuid, sql.placeholder('uuid'))),
    );
    const { driver, db } = opened;
    const co = company(1);
    const read = async () => (await db.select(getTableColumns(companies)).from(companies).where(eq(companies.uuid, co.uuid)))[0];
    await expect(
      driver.transaction(async (tx) => {
        await rename(tx, { uuid: co.uuid, name: 'Rolled back', createdAt: '2031-01-01T00:00:00.000Z' });
        throw new Error('roll it back');
      }),
    ).rejects.toThrow('roll it back');
    expect((await read())?.name).toBe(co.name);
    await driver.transaction((tx) => rename(tx, { uuid: co.uuid, name: 'Renamed', createdAt: '2030-01-02T03:04:05.678Z' }));
    expect(await read()).toMatchObject({ name: 'Renamed', created_at: '2030-01-02T03:04:05.678Z' });
    await expect(rename(driver, { uuid: co.uuid, name: 'x' })).rejects.toThrow(/createdAt/);
  });

  it('runs a statement of raw SQL (db.execute, not awaited) built once, its rows as the driver gives them', async () => {
    let builds = 0;
    const plusOne = builtOnce(`test_plus_one_${kind}`, (db) => {
      builds++;
      return db.execute(sql`SELECT ${sql.placeholder('n')}::int + 1 AS n, ${sql.placeholder('name')}::text AS name`);
    });
    const { driver } = opened;
    expect(await plusOne(driver, { n: 1, name: 'a' })).toEqual([{ n: 2, name: 'a' }]);
    expect(await driver.transaction((tx) => plusOne(tx, { n: 41, name: 'b' }))).toEqual([{ n: 42, name: 'b' }]);
    expect(builds).toBe(1);
  });

  it('reads a null as null, whatever reads its column', async () => {
    const nothing = builtOnce<{ value: unknown; at: string | null }>(
      `test_nothing_${kind}`,
      (db) => db.select({ value: sql`NULL::int`, at: sql`NULL::timestamptz` }).from(companies).limit(1),
      { value: () => 'read', at: companies.created_at },
    );
    expect(await nothing(opened.driver, {})).toEqual([{ value: null, at: null }]);
  });

  it.skipIf(kind === 'pglite')('prepares a statement once on each connection, under its name (PGlite does not name statements)', async () => {
    const one = builtOnce(`test_named_${kind}`, (db) => db.execute(sql`SELECT ${sql.placeholder('n')}::int AS n`));
    const prepared = builtOnce(`test_prepared_${kind}`, (db) => db.execute(sql`SELECT name FROM pg_prepared_statements WHERE name = 'test_named_postgres'`));
    const names = await opened.driver.transaction(async (tx) => {
      await one(tx, { n: 1 });
      await one(tx, { n: 2 });
      return prepared(tx, {});
    });
    expect(names).toEqual([{ name: 'test_named_postgres' }]);
  });
});

describe('builtOnce', () => {
  it('refuses a second statement of a name: node-postgres prepares each by its name', () => {
    builtOnce('test_twice', (db) => db.execute(sql`SELECT 1`));
    expect(() => builtOnce('test_twice', (db) => db.execute(sql`SELECT 2`))).toThrow(/"test_twice"/);
  });

  it('names the placeholders of a row after a prefix, and gives each column a value', () => {
    const columns = { uuid: companies.uuid, name: companies.name };
    expect(Object.keys(placeholders(columns, 'co_'))).toEqual(['uuid', 'name']);
    expect(placeholders(columns, 'co_').uuid).toEqual(sql.placeholder('co_uuid'));
    expect(rowValues(columns, { uuid: 'u', extra: 1 }, 'co_')).toEqual({ co_uuid: 'u', co_name: null });
    expect(rowValues(columns, { uuid: 'u', name: 'n' })).toEqual({ uuid: 'u', name: 'n' });
  });
});
