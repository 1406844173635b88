/**
 * End to end: the real server process (`engagekit-server`, dist/cli.js) over HTTP on loopback, on PGlite and on
 * PostgreSQL (when DATABASE_URL is set), driven by the API conformance suite.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeApiConformance } from '../../runtime/test/api-conformance.ts';
import { freshDatabase, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

async function serverOn(database: 'pglite' | 'postgres'): Promise<ServerProcess> {
  const env: Record<string, string> = { ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE: '1' };
  if (database === 'postgres') {
    const db = await freshDatabase('e2e');
    if (!db) throw new Error('DATABASE_URL is needed');
    env.DATABASE_URL = db.url;
    stops.push(() => db.drop());
  }
  const server = await startServerProcess(env);
  stops.push(() => server.stop());
  return server;
}

for (const database of ['pglite', 'postgres'] as const) {
  describe.skipIf(database === 'postgres' && !process.env.DATABASE_URL)(
    `reference server on ${database}${database === 'postgres' && !process.env.DATABASE_URL ? ' (skipped: DATABASE_URL is not set)' : ''}`,
    () => {
      describeApiConformance(`reference server on ${database}`, async () => {
        const server = await serverOn(database);
        return { fetch: (path, init) => fetch(server.url + path, init), adminToken: ADMIN_TOKEN };
      });
    },
  );
}

describe('pnpm start', () => {
  it('prints the demo company and its token, whose curl-style calls work, and exits 0 on SIGTERM', async () => {
    const server = await startServerProcess({ RATE_LIMIT_PER_MINUTE: '0' });
    // The helper's temporary DATA_DIR, named in the admin token's line, holds the embedded database.
    const dataDir = /also kept in (\S+)\/admin-token/.exec(server.output())?.[1] ?? '';
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    try {
      const out = server.output();
      expect(out).toContain('Admin token (generated now, shown once): adm_');
      const token = /Demo company token \(agency and orders, 30 days\): (\S+)/.exec(out)?.[1];
      expect(token).toBeDefined();
      const r = await fetch(`${server.url}/agency/getCampaignData?uuid=53d1bcd3-aaf0-45e1-9298-5395b6a27b61`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(r.status).toBe(200);
      const docs = await fetch(`${server.url}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('/docs/scalar.js');
      expect((await fetch(`${server.url}/docs/scalar.js`)).status).toBe(200);
      // An unknown path under the pages is a 404 in the error envelope, never a 500.
      for (const path of ['/docs/foo', '/settings/nope.js']) {
        const missing = await fetch(`${server.url}${path}`);
        expect(missing.status, path).toBe(404);
        expect(await missing.json()).toMatchObject({ success: false, code: 'not_found' });
      }
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    // Gone with the process: a test run leaves no databases in the temporary directory.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('serves one surface alone on ORDER_PORT, beside every surface on PORT', async () => {
    const server = await startServerProcess({ ORDER_PORT: '0', RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const orderUrl = /order API alone on (\S+)/.exec(server.output())?.[1];
      const token = /Demo company token \(agency and orders, 30 days\): (\S+)/.exec(server.output())?.[1];
      expect(orderUrl).toBeDefined();
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const body = JSON.stringify({
        company_id: 'VERPL000972024',
        company_order_id: 'PORT-1',
        totalAmount: 1,
        firstName: 'P',
        phoneNumber: '+1234567890',
        postalCode: '1',
        streetAddress1: 'x',
      });
      expect((await fetch(`${orderUrl}/api/order/addOrder`, { method: 'POST', headers, body })).status).toBe(201);
      const agency = await fetch(`${orderUrl}/agency/getCampaignData?uuid=53d1bcd3-aaf0-45e1-9298-5395b6a27b61`, { headers });
      expect(agency.status).toBe(404);
      expect(await agency.json()).toMatchObject({ success: false, code: 'not_found' });
      expect((await fetch(`${server.url}/agency/getCampaignData?uuid=53d1bcd3-aaf0-45e1-9298-5395b6a27b61`, { headers })).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses a bad environment with a message naming the variable', async () => {
    // The start fails as soon as the process exits; the limit is only for one that would not.
    await expect(startServerProcess({ PORT: 'eighty', RATE_LIMIT_PER_MINUTE: '-1' }, 25_000)).rejects.toThrow(
      /PORT="eighty": must be a whole number[\s\S]*RATE_LIMIT_PER_MINUTE/,
    );
  });
});
