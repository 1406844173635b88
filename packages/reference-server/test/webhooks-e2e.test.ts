/**
 * Webhook delivery by real server processes: crash safety (SIGKILL with deliveries pending, restart,
 * nothing acknowledged is lost) and two processes sharing one PostgreSQL without double delivery.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyWebhook } from '@engagekit/sdk/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../../runtime/test/receiver.ts';
import { freshDatabase, pgliteDataDir, type ServerProcess, startServerProcess } from './helpers.ts';

const ADMIN_TOKEN = 'webhooks-e2e-admin-token-0123';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function json(res: Response) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** A company, its token and a webhook endpoint pointing at `url`, made through `server`. */
async function companyWithEndpoint(server: ServerProcess, url: string) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const company = await json(
    await fetch(`${server.url}/api/v2/companies`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Hooks', company_id: 'HOOKS1' }) }),
  );
  const { token } = await json(await fetch(`${server.url}/api/v2/companies/${company.uuid}/tokens`, { method: 'POST', headers: admin, body: '{}' }));
  const endpoint = await json(
    await fetch(`${server.url}/api/v2/companies/${company.uuid}/webhooks`, { method: 'POST', headers: admin, body: JSON.stringify({ url }) }),
  );
  return { company, token: token as string, secret: endpoint.secret as string };
}

async function addOrders(servers: ServerProcess[], token: string, ids: string[], concurrency = 16) {
  const acknowledged: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const i = next++;
        const id = ids[i] as string;
        const server = servers[i % servers.length] as ServerProcess;
        const res = await fetch(`${server.url}/api/order/addOrder`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            company_id: 'HOOKS1',
            company_order_id: id,
            totalAmount: i,
            firstName: 'A',
            phoneNumber: `+1415555${String(i).padStart(4, '0')}`,
            postalCode: '1',
            streetAddress1: 'x',
          }),
        });
        await res.arrayBuffer();
        if (res.status === 201) acknowledged.push(id);
      }
    }),
  );
  return acknowledged;
}

const orderIdOf = (body: string) => (JSON.parse(body) as { data: { order: { company_order_id: string } } }).data.order.company_order_id;

const databases = ['pglite', 'postgres'] as const;
for (const database of databases) {
  const skip = database === 'postgres' && !process.env.DATABASE_URL;
  describe.skipIf(skip)(`webhooks across a crash, on ${database}${skip ? ' (skipped: DATABASE_URL is not set)' : ''}`, () => {
    it('loses nothing acknowledged when the server is killed with deliveries pending', async () => {
      // The receiver never answers what comes before the kill: every delivery the first process made stays unacknowledged.
      let killed = false;
      const never = new Promise<void>(() => {});
      const receiver = await startReceiver(() => (killed ? { status: 200 } : { status: 200, after: never }));
      cleanups.push(receiver.close);
      // Both server processes keep their data here; the cleanups run in reverse, so they stop before it goes.
      const dataDir = database === 'pglite' ? await pgliteDataDir('engagekit-crash-') : mkdtempSync(join(tmpdir(), 'engagekit-crash-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = {
        ADMIN_TOKEN,
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.5,1,2',
        RATE_LIMIT_PER_MINUTE: '0',
        DATA_DIR: dataDir,
      };
      if (database === 'postgres') {
        const db = await freshDatabase('crash');
        if (!db) throw new Error('DATABASE_URL is needed');
        env.DATABASE_URL = db.url;
        cleanups.push(() => db.drop());
      }
      const first = await startServerProcess(env);
      cleanups.push(() => first.stop('SIGKILL'));
      const { token, secret } = await companyWithEndpoint(first, receiver.url);
      const ids = Array.from({ length: 60 }, (_, i) => `CRASH-${i}`);
      const acknowledged = await addOrders([first], token, ids, 8);
      expect(acknowledged).toHaveLength(60);
      await first.stop('SIGKILL');
      killed = true;
      expect(receiver.answered).toHaveLength(0);

      const restarted = Date.now();
      const second = await startServerProcess(env);
      cleanups.push(() => second.stop());
      // Every acknowledged order's event is sent again by the second process and answered.
      const delivered = () => [...new Set(receiver.answered.filter((r) => r.at >= restarted).map((r) => orderIdOf(r.body)))].sort();
      await vi.waitFor(() => expect(delivered()).toEqual([...acknowledged].sort()), { timeout: 40_000, interval: 100 });
      for (const r of receiver.received) expect((await verifyWebhook(r.body, r.headers, secret)).type).toBe('order.created');
      // The first process held every one under its lease when it was killed: the second counts each as taken over.
      const scrape = await (await fetch(`${second.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
      expect(/^engagekit_lease_takeovers_total\{work="webhook_delivery"\} (\d+)$/m.exec(scrape)?.[1]).toBe(String(acknowledged.length));
    }, 90_000);
  });
}

describe.skipIf(!process.env.DATABASE_URL)(
  `two server processes on one PostgreSQL${process.env.DATABASE_URL ? '' : ' (skipped: DATABASE_URL is not set)'}`,
  () => {
    it('deliver 1,000 events exactly once between them', async () => {
      const receiver = await startReceiver();
      cleanups.push(receiver.close);
      const db = await freshDatabase('twoinstances');
      if (!db) throw new Error('DATABASE_URL is needed');
      cleanups.push(() => db.drop());
      // No instance dies here, so each holds what it claims for longer than load could stall its lease's
      // renewal: a takeover sends an event again by design (the killed process's case above), and this
      // case is about two live instances.
      const env = { ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_PER_MINUTE: '0', DATABASE_URL: db.url, DEMO_COMPANY: '0', LEASE_MS: '60000' };
      const a = await startServerProcess(env);
      cleanups.push(() => a.stop());
      const b = await startServerProcess(env);
      cleanups.push(() => b.stop());
      const { token, secret } = await companyWithEndpoint(a, receiver.url);
      const ids = Array.from({ length: 1000 }, (_, i) => `TWO-${i}`);
      expect(await addOrders([a, b], token, ids, 24)).toHaveLength(1000);
      await receiver.waitFor(1000, 60_000);
      // Both processes drain their attempts in flight on SIGTERM: after that, no request can still come.
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
      const eventIds = receiver.received.map((r) => String(r.headers['webhook-id']));
      expect(receiver.received).toHaveLength(1000);
      expect(new Set(eventIds).size).toBe(1000);
      expect(new Set(receiver.received.map((r) => orderIdOf(r.body))).size).toBe(1000);
      for (const r of receiver.received) expect((await verifyWebhook(r.body, r.headers, secret)).type).toBe('order.created');
    }, 180_000);
  },
);
