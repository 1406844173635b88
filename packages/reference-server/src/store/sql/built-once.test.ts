import { eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../../../runtime/test/store/conformance-fixtures.ts';
import { openSqlStore, type SqlStore } from '../index.ts';
import { builtOnce, placeholders, rowValues } from './built-once.ts';
import { companies } from './schema.ts';

describe('builtOnce', () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openSqlStore({ memory: true });
    await store.createCompany(company(1));
    await store.createCompany(company(2));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('builds a statement on its first run and runs it again, in other transactions, with new values', async () => {
    let builds = 0;
    const fields = { uuid: companies.uuid, companyId: companies.company_id, one: sql<string>`'1'`.mapWith(Number) };
    const byUuid = builtOnce<{ uuid: string; companyId: string; one: number }>((db) => {
      builds++;
      return db
        .select(fields)
        .from(companies)
        .where(eq(companies.uuid, sql.placeholder('uuid')));
    }, fields);
    const first = company(1);
    const second = company(2);
    expect(await byUuid(store.db, { uuid: first.uuid })).toEqual([{ uuid: first.uuid, companyId: first.company_id, one: 1 }]);
    // Inside transactions, each on its own: the rows are read by the fields, as drizzle reads them.
    for (const co of [first, second]) {
      const rows = await store.db.transaction((tx) => byUuid(tx, { uuid: co.uuid }));
      expect(rows).toEqual([{ uuid: co.uuid, companyId: co.company_id, one: 1 }]);
    }
    expect(await byUuid(store.db, { uuid: 'no-such-company' })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('runs a write with the values mapped as its columns map them, and one missing names its placeholder', async () => {
    const columns = getTableColumns(companies);
    const rename = builtOnce((db) =>
      db
        .update(companies)
        .set({ name: sql.placeholder('name') as never, created_at: sql.placeholder('createdAt') as never })
        .where(eq(companies.uuid, sql.placeholder('uuid'))),
    );
    const co = company(1);
    await store.db.transaction((tx) => rename(tx, { uuid: co.uuid, name: 'Renamed', createdAt: '2030-01-02T03:04:05.678Z' }));
    const [row] = await store.db.select(columns).from(companies).where(eq(companies.uuid, co.uuid));
    expect(row?.name).toBe('Renamed');
    expect(row?.created_at).toBe('2030-01-02T03:04:05.678Z');
    await expect(rename(store.db, { uuid: co.uuid, name: 'x' })).rejects.toThrow(/createdAt/);
  });

  it('runs a statement of raw SQL (db.execute, not awaited) built once, its rows read by the fields given', async () => {
    let builds = 0;
    const fields = { n: sql<number>`n`, name: sql<string>`name` };
    const plusOne = builtOnce<{ n: number; name: string }>((db) => {
      builds++;
      return db.execute(sql`SELECT ${sql.placeholder('n')}::int + 1 AS n, ${sql.placeholder('name')}::text AS name`);
    }, fields);
    expect(await plusOne(store.db, { n: 1, name: 'a' })).toEqual([{ n: 2, name: 'a' }]);
    expect(await store.db.transaction((tx) => plusOne(tx, { n: 41, name: 'b' }))).toEqual([{ n: 42, name: 'b' }]);
    expect(builds).toBe(1);
  });

  it('names the placeholders of a row after a prefix, and gives each column a value', () => {
    const columns = { uuid: companies.uuid, name: companies.name };
    expect(Object.keys(placeholders(columns, 'co_'))).toEqual(['uuid', 'name']);
    expect(placeholders(columns, 'co_').uuid).toEqual(sql.placeholder('co_uuid'));
    expect(rowValues(columns, { uuid: 'u', extra: 1 }, 'co_')).toEqual({ co_uuid: 'u', co_name: null });
    expect(rowValues(columns, { uuid: 'u', name: 'n' })).toEqual({ uuid: 'u', name: 'n' });
  });
});
