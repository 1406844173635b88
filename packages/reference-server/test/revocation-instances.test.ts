/**
 * Token revocation across two instances on one PostgreSQL: a token revoked through instance A (by its
 * id, then every token of the company) is refused by instance B within 5 s, although B had checked it
 * before and remembers it. B polls nothing of its own: it reads the company's revocations again at most
 * every REVOCATIONS_REFRESH_MS, on a request.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freshDatabase, jsonCaller, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'revocation-instances-admin-01';
/** What the API promises: a revoked token answers 401 on every instance within this time. */
const PROMISED_MS = 5_000;
const skip = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The status `server` answers an agency call with `token`. */
async function statusOn(server: ServerProcess, uuid: string, token: string): Promise<number> {
  const res = await fetch(`${server.url}/agency/getCampaignData?uuid=${uuid}`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds from `since` until `server` answers `token` 401, polling; the wait's limit is far beyond the promise, so a slow machine shows the time it took. */
async function msUntilRefused(server: ServerProcess, uuid: string, token: string, since: number): Promise<number> {
  await vi.waitFor(async () => expect(await statusOn(server, uuid, token)).toBe(401), { timeout: 20_000, interval: 50 });
  return performance.now() - since;
}

describe.skipIf(skip)('token revocation across instances, on PostgreSQL', () => {
  it('is seen by the other instance within 5 s, for one token and for every token of a company', async () => {
    const db = await freshDatabase('revocation_instances');
    if (!db) throw new Error('DATABASE_URL is needed');
    cleanups.push(db.drop);
    const env = { DATABASE_URL: db.url, ADMIN_TOKEN, DEMO_COMPANY: '0', RATE_LIMIT_PER_MINUTE: '0' };
    const start = async () => {
      const server = await startServerProcess(env);
      cleanups.push(() => server.stop('SIGTERM'));
      return server;
    };
    const a = await start();
    const b = await start();
    const admin = jsonCaller(a.url);
    const { data: company } = await admin('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'Revoked', company_id: 'REVOKED' });
    const issue = async () => (await admin('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {})).data as { id: string; token: string };
    const one = await issue();
    const all = await issue();
    // B has checked both tokens, so it remembers them and has read the company's revocations.
    for (const token of [one.token, all.token]) expect(await statusOn(b, company.uuid, token)).toBe(200);

    // ---- one token, by its id ----
    let since = performance.now();
    const revoked = await fetch(`${a.url}/api/v2/companies/${company.uuid}/tokens/${one.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.status).toBe(200);
    expect(await statusOn(a, company.uuid, one.token)).toBe(401);
    const oneMs = await msUntilRefused(b, company.uuid, one.token, since);
    expect(await statusOn(b, company.uuid, all.token)).toBe(200);

    // ---- every token of the company ----
    since = performance.now();
    const revokedAll = await fetch(`${a.url}/api/v2/companies/${company.uuid}/tokens`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revokedAll.status).toBe(200);
    expect(await statusOn(a, company.uuid, all.token)).toBe(401);
    const allMs = await msUntilRefused(b, company.uuid, all.token, since);
    const after = await issue();
    expect(await statusOn(b, company.uuid, after.token)).toBe(200);

    console.info(`revocation seen on instance B after ${(oneMs / 1000).toFixed(2)} s (one token) and ${(allMs / 1000).toFixed(2)} s (every token)`);
    expect(oneMs).toBeLessThan(PROMISED_MS);
    expect(allMs).toBeLessThan(PROMISED_MS);
  }, 120_000);
});
