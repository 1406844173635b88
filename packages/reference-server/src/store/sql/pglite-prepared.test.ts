import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPreparedReads } from './pglite-prepared.ts';

describe('prepared PGlite reads', () => {
  let client: PGlite;
  let plain: PGlite['query'];
  let prepared: PGlite['query'];
  const statements = async () =>
    (await plain<{ name: string; statement: string }>('select name, statement from pg_prepared_statements order by name')).rows.filter((r) =>
      r.name.startsWith('engagekit_read_'),
    );

  beforeAll(async () => {
    client = await PGlite.create();
    plain = client.query.bind(client);
    prepared = withPreparedReads(client, plain) as PGlite['query'];
    await client.exec(`
      create table things (id int primary key, label text, price numeric(12,2), ok boolean, doc jsonb, at timestamptz, day date, tags text[], ref uuid);
      insert into things values
        (1, 'one', 10.50, true, '{"a":[1,2]}', '2025-01-15 10:00:00.123+00', '2025-01-15', '{x,y}', '53d1bcd3-aaf0-45e1-9298-5395b6a27b61'),
        (2, null, null, null, null, null, null, null, null),
        (3, 'it''s', 0, false, '[]', '2030-06-01 00:00:00+00', '2030-06-01', '{}', '00000000-0000-4000-8000-000000000000');
    `);
  });
  afterAll(() => client.close());

  it('answers as query() does, in both row modes, with its parsers and serializers', async () => {
    const asText = { [types.TIMESTAMPTZ]: (v: string) => v, [types.DATE]: (v: string) => v };
    const cases: [string, unknown[]][] = [
      ['select * from things order by id', []],
      ['select * from things where id = $1', [1]],
      ['select id, label from things where ok = $1 and at < $2 order by id', [false, new Date('2031-01-01T00:00:00Z')]],
      ['select id from things where doc @> $1::jsonb', [{ a: [1] }]],
      ['select id from things where ref = $1 or label = $2', ['00000000-0000-4000-8000-000000000000', "it's"]],
      ['select count(*) as n, sum(price) as total from things', []],
      ['select id from things where id = $1', [99]],
    ];
    for (const [sql, params] of cases) {
      for (const options of [undefined, { rowMode: 'array' as const }, { rowMode: 'array' as const, parsers: asText }]) {
        const want = await plain(sql, params, options);
        const got = await prepared(sql, params, options);
        expect(got.rows, `${sql} ${JSON.stringify(options)}`).toEqual(want.rows);
        expect(got.fields).toEqual(want.fields);
      }
    }
  });

  it('prepares each distinct read once, and leaves writes to query()', async () => {
    const before = (await statements()).length;
    for (let i = 0; i < 5; i++) await prepared('select label from things where id = $1', [i]);
    await prepared('update things set label = $1 where id = $2', ['uno', 1]);
    const after = await statements();
    expect(after.length).toBe(before + 1);
    expect(after.map((s) => s.statement)).toContain('select label from things where id = $1');
    expect((await prepared('select label from things where id = $1', [1])).rows).toEqual([{ label: 'uno' }]);
  });

  it('throws the database error of a failing read, and the session goes on', async () => {
    const err = await prepared('select 1 / $1::int as x', [0]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '22012' });
    expect((await prepared('select 1 / $1::int as x', [1])).rows).toEqual([{ x: 1 }]);
    await expect(prepared('select nope from things', [])).rejects.toMatchObject({ code: '42703' });
    expect((await prepared('select count(*)::int as n from things', [])).rows).toEqual([{ n: 3 }]);
  });

  it('runs a read again through query() once a schema change has outdated its statement', async () => {
    await prepared('select * from things where id = $1', [1]);
    await client.exec('alter table things add column extra text default $$e$$');
    const { rows } = await prepared('select * from things where id = $1', [1]);
    expect(rows[0]).toMatchObject({ id: 1, extra: 'e' });
    expect((await prepared('select * from things where id = $1', [1])).rows[0]).toMatchObject({ extra: 'e' });
  });

  it('waits for an open transaction, as query() does', async () => {
    let inside = false;
    const tx = client.transaction(async (t) => {
      inside = true;
      await t.query('update things set label = $1 where id = $2', ['tx', 3]);
      await new Promise((r) => setTimeout(r, 20));
      inside = false;
    });
    await new Promise((r) => setTimeout(r, 5));
    const read = prepared('select label from things where id = $1', [3]).then((r) => ({ r, inside }));
    await tx;
    const { r, inside: during } = await read;
    expect(during).toBe(false);
    expect(r.rows).toEqual([{ label: 'tx' }]);
  });
});
