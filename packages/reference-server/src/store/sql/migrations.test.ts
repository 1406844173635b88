import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrationsFolder } from './open.ts';

/** A copy of the migrations folder that ends with the migration tagged `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'engagekit-migrations-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === lastTag);
  expect(end).toBeGreaterThanOrEqual(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, end + 1) }));
  return dir;
}

describe('migration 0007_created_seq', () => {
  it('numbers the rows made before it in the order lists showed them (created_at, then id), and the rows made after it next', async () => {
    const client = new PGlite();
    onTestFinished(() => client.close());
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsUpTo('0006_orders_phone_latest') });
    const at = (s: number) => `2025-01-15T10:00:0${s}.000Z`;
    await client.query(
      `INSERT INTO companies (uuid, company_id, name, timezone, created_at) VALUES ('c-2', 'C2', 'B', 'UTC', $1), ('c-1', 'C1', 'A', 'UTC', $1)`,
      [at(0)],
    );
    // Stored out of order: two customers share a time, a third is older than both.
    for (const [id, phone, time] of [
      ['cus_b', '+15550000002', at(5)],
      ['cus_a', '+15550000001', at(5)],
      ['cus_0', '+15550000009', at(1)],
    ] as const) {
      await client.query(
        `INSERT INTO customers (id, company_uuid, phone_number, name, first_name, source, orders_count, orders_amount, created_at, updated_at)
         VALUES ($1, 'c-1', $2, 'X', 'X', 'import', 0, 0, $3, $3)`,
        [id, phone, time],
      );
    }
    await migrate(db, { migrationsFolder });
    const seqs = async (sql: string) => (await client.query<{ key: string; seq: string }>(sql)).rows.map((r) => [r.key, Number(r.seq)]);
    expect(await seqs('SELECT id AS key, created_seq AS seq FROM customers ORDER BY created_seq')).toEqual([
      ['cus_0', 1],
      ['cus_a', 2],
      ['cus_b', 3],
    ]);
    expect(await seqs('SELECT uuid AS key, created_seq AS seq FROM companies ORDER BY created_seq')).toEqual([
      ['c-1', 1],
      ['c-2', 2],
    ]);
    await client.query(
      `INSERT INTO customers (id, company_uuid, phone_number, name, first_name, source, orders_count, orders_amount, created_at, updated_at)
       VALUES ('cus_new', 'c-1', '+15550000010', 'X', 'X', 'import', 0, 0, $1, $1)`,
      [at(5)],
    );
    expect((await seqs(`SELECT id AS key, created_seq AS seq FROM customers WHERE id = 'cus_new'`))[0]).toEqual(['cus_new', 4]);
    // Numbered by the database alone.
    await expect(client.query(`UPDATE customers SET created_seq = 9 WHERE id = 'cus_new'`)).rejects.toThrow(/created_seq/);
  });
});

describe('migration 0012_template_reviews', () => {
  it("keeps each template id's latest review: from its templates whose status a review gave, the last updated", async () => {
    const client = new PGlite();
    onTestFinished(() => client.close());
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsUpTo('0011_channel_statuses') });
    const at = (s: number) => `2025-01-15T10:00:0${s}.000Z`;
    await client.query(`INSERT INTO companies (uuid, company_id, name, timezone, created_at) VALUES ('c-1', 'C1', 'A', 'UTC', $1)`, [at(0)]);
    for (const [id, phone, wamId, status, reason, time] of [
      ['tpl_1', '1', 'wam-1', 'approved', null, at(1)],
      ['tpl_2', '2', 'wam-1', 'paused', null, at(2)],
      ['tpl_3', '3', 'wam-2', 'rejected', 'INVALID_FORMAT', at(1)],
      ['tpl_4', '4', 'wam-3', 'submitted', null, at(1)],
      ['tpl_5', '5', null, 'failed', 'no wam_id', at(1)],
    ] as const) {
      await client.query(
        `INSERT INTO templates (id, company_uuid, template_name, phone_number, wam_id, status, reason, created_at, updated_at)
         VALUES ($1, 'c-1', 'welcome', $2, $3, $4, $5, $6, $6)`,
        [id, phone, wamId, status, reason, time],
      );
    }
    await migrate(db, { migrationsFolder });
    const { rows } = await client.query<{ wam_id: string; status: string; reason: string | null }>(
      'SELECT wam_id, status, reason FROM template_reviews ORDER BY wam_id',
    );
    expect(rows).toEqual([
      { wam_id: 'wam-1', status: 'paused', reason: null },
      { wam_id: 'wam-2', status: 'rejected', reason: 'INVALID_FORMAT' },
    ]);
  });
});
