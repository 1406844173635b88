import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ASYNC_COMMIT } from './dispatch.ts';
import { rowsOf } from './raw.ts';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)(`ASYNC_COMMIT${url ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  const client = new pg.Client({ connectionString: url });
  afterAll(() => client.end());

  it("turns synchronous_commit off for its statement's transaction alone", async () => {
    await client.connect();
    const db = drizzle(client);
    const [inside] = rowsOf(await db.execute(sql`SELECT current_setting('synchronous_commit') AS at FROM ${ASYNC_COMMIT}`));
    expect(inside?.at).toBe('off');
    const [after] = rowsOf(await db.execute(sql`SELECT current_setting('synchronous_commit') AS at`));
    expect(after?.at).toBe('on');
  });
});
