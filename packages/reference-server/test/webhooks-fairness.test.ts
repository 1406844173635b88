/**
 * Fair webhook delivery by real server processes: one company's receiver that never answers holds 100
 * due deliveries, and another company's deliveries still arrive at once, on PGlite and on two instances
 * sharing one PostgreSQL.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { freshDatabase, pgliteDataDir, type ServerProcess, sampleOrder, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'webhooks-fairness-admin-token';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function json(res: Response) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** A company, its token and one webhook endpoint pointing at `url`, made through `server`. */
async function companyWithEndpoint(server: ServerProcess, code: string, url: string) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const company = await json(
    await fetch(`${server.url}/api/v2/companies`, { method: 'POST', headers: admin, body: JSON.stringify({ name: code, company_id: code }) }),
  );
  const { token } = await json(await fetch(`${server.url}/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' }));
  await json(await fetch(`${server.url}/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers: admin, body: JSON.stringify({ url }) }));
  return { code, token: token as string };
}

/** Adds orders `ids` of the company, `concurrency` at a time, the i-th through `servers[i % n]`; resolves to when each was acknowledged. */
async function addOrders(servers: ServerProcess[], company: { code: string; token: string }, ids: string[], concurrency: number) {
  const acknowledged = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const i = next++;
        const id = ids[i] as string;
        const server = servers[i % servers.length] as ServerProcess;
        const res = await fetch(`${server.url}/api/order/addOrder`, {
          method: 'POST',
          headers: { authorization: `Bearer ${company.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(sampleOrder(company.code, id, { phoneNumber: `+1415555${String(i).padStart(4, '0')}` })),
        });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`addOrder ${id}: ${res.status} ${text}`);
        acknowledged.set(id, Date.now());
      }
    }),
  );
  return acknowledged;
}

const orderIdOf = (body: string) => (JSON.parse(body) as { data: { order: { company_order_id: string } } }).data.order.company_order_id;

for (const database of ['pglite', 'postgres'] as const) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  const instances = database === 'postgres' ? 2 : 1;
  describe.skipIf(skip)(
    `fair webhook delivery, ${instances === 2 ? 'two instances on PostgreSQL' : 'PGlite'}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`,
    () => {
      it("delivers each of company Y's 20 events within 2 s while company X's receiver holds 100 unanswered", async () => {
        // X's receiver keeps every request open until the test closes it; Y's answers at once.
        const stalled = await startReceiver(() => ({ status: 200, after: new Promise(() => {}) }));
        const fast = await startReceiver();
        cleanups.push(fast.close, stalled.close);
        const env: Record<string, string> = { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '0', DEMO_COMPANY: '0' };
        if (database === 'postgres') {
          const db = await freshDatabase('fairness');
          if (!db) throw new Error('DATABASE_URL is needed');
          cleanups.push(() => db.drop());
          // Live instances hold their claims for longer than load could stall a lease's renewal (no takeover here).
          Object.assign(env, { DATABASE_URL: db.url, LEASE_MS: '60000' });
        } else {
          const dataDir = await pgliteDataDir('engagekit-fairness-');
          cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
          env.DATA_DIR = dataDir;
        }
        const servers: ServerProcess[] = [];
        for (let i = 0; i < instances; i++) {
          const server = await startServerProcess(env);
          cleanups.push(() => server.stop());
          servers.push(server);
        }
        const first = servers[0] as ServerProcess;
        const x = await companyWithEndpoint(first, 'STALLED', stalled.url);
        const y = await companyWithEndpoint(first, 'PROMPT', fast.url);

        // X's 100 orders through one instance, whose dispatcher then holds all their deliveries: a single queue
        // put Y's behind them, and X's attempts took every slot for their 15 s timeout.
        await addOrders(
          [first],
          x,
          Array.from({ length: 100 }, (_, i) => `X-${i}`),
          8,
        );
        await stalled.waitFor(1, 20_000);
        const acknowledged = await addOrders(
          servers,
          y,
          Array.from({ length: 20 }, (_, i) => `Y-${i}`),
          4,
        );
        // A bound that only a stall reaches (15 s, an attempt's timeout): the check of each delay follows.
        await vi.waitFor(() => expect(new Set(fast.received.map((r) => orderIdOf(r.body))).size).toBe(20), { timeout: 30_000, interval: 50 });
        const delays = [...acknowledged].map(([id, at]) => {
          const arrived = fast.received.find((r) => orderIdOf(r.body) === id)?.at ?? Number.POSITIVE_INFINITY;
          return { id, ms: arrived - at };
        });
        expect(delays.filter((d) => d.ms > 2000)).toEqual([]);
        // At most 4 attempts of X's endpoint wait for an answer on each instance (WEBHOOK_ENDPOINT_CONCURRENCY).
        expect(stalled.received.length).toBeLessThanOrEqual(4 * instances);
        // X's attempts end with its receiver's connections, so the instances stop at once.
        await stalled.close();
      }, 120_000);
    },
  );
}
