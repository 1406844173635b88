import { describe, expect, it, onTestFinished } from 'vitest';
import { WaitWatchedPool } from './pool-waits.ts';

const url = process.env.DATABASE_URL;
describe.skipIf(!url)(`WaitWatchedPool${url ? '' : ' (skipped: DATABASE_URL is not set)'}`, () => {
  it('tells of a checkout that waits for a busy connection, and of its seconds once it has one; not of one that finds or opens one', async () => {
    const waits: number[] = [];
    let begun = 0;
    const pool = new WaitWatchedPool({ connectionString: url, max: 1, connectionTimeoutMillis: 2000 }, () => {
      begun++;
      return (seconds) => void waits.push(seconds);
    });
    onTestFinished(() => pool.end());
    // Opens the one connection, then finds it idle: no wait either time.
    await pool.query('SELECT 1');
    await pool.query('SELECT 1');
    expect(begun).toBe(0);

    const held = await pool.connect();
    const query = pool.query('SELECT 2 AS n');
    const checkout = pool.connect();
    // Counted as they begin to wait, before either has a connection.
    expect(begun).toBe(2);
    expect(waits).toEqual([]);
    await new Promise((ok) => setTimeout(ok, 50));
    held.release();
    expect((await query).rows).toEqual([{ n: 2 }]);
    (await checkout).release();
    expect(waits).toHaveLength(2);
    for (const seconds of waits) expect(seconds).toBeGreaterThanOrEqual(0.04);
  });

  it('tells of a wait that gave up after connectionTimeoutMillis', async () => {
    const waits: number[] = [];
    const pool = new WaitWatchedPool({ connectionString: url, max: 1, connectionTimeoutMillis: 100 }, () => (seconds) => void waits.push(seconds));
    onTestFinished(() => pool.end());
    const held = await pool.connect();
    onTestFinished(() => held.release());
    await expect(pool.query('SELECT 1')).rejects.toThrow(/timeout/);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(0.09);
  });
});
