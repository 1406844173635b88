/**
 * What a request costs through `mock.fetch` (straight to the app) and through MSW interception of the
 * global fetch, on the same mock. Run: `pnpm --filter @engagekit/mock-server bench`. Numbers only: no
 * assertion, since this machine is shared and noisy.
 */
import { createApp, createMemoryStore, hashToken } from '@engagekit/runtime';
import { DEFAULT_ADMIN_TOKEN, DEFAULT_JWT_SECRET, setupMockApi } from '../src/node.ts';

const mock = setupMockApi({ baseUrl: 'http://api.engagekit-bench.invalid' });
const headers = { authorization: `Bearer ${mock.company.token}` };
const list = `/agency/getCampaignData?uuid=${mock.company.uuid}`;

// The bare reference app on its own store, to show what the mock adds on top of it.
const store = createMemoryStore();
await store.createCompany({ ...mock.company, timezone: 'UTC', created_at: new Date().toISOString() });
const app = createApp({
  store,
  config: { jwtSecret: DEFAULT_JWT_SECRET, adminTokenHash: hashToken(DEFAULT_ADMIN_TOKEN), rateLimitPerMinute: 0, webhookAllowPrivate: true },
});

async function measure(label: string, send: () => Promise<Response>, n = 3000) {
  for (let i = 0; i < 300; i++) await (await send()).arrayBuffer();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await send()).arrayBuffer();
  const us = ((performance.now() - t0) * 1000) / n;
  console.log(`${label.padEnd(46)} ${us.toFixed(1).padStart(8)} µs/request`);
  return us;
}

const noop = await measure('baseline: an empty Response', async () => new Response('{}'));
const appHealth = await measure('bare app.fetch GET /api/v2/health', async () => app.fetch(new Request(`${mock.baseUrl}/api/v2/health`)));
const appList = await measure('bare app.fetch GET getCampaignData', async () => app.fetch(new Request(`${mock.baseUrl}${list}`, { headers })));
const directHealth = await measure('mock.fetch GET /api/v2/health', () => mock.fetch('/api/v2/health'));
const direct = await measure('mock.fetch GET getCampaignData (JWT checked)', () => mock.fetch(list, { headers }));
mock.listen({ onUnhandledFrame: 'error' });
const mswHealth = await measure('MSW + fetch GET /api/v2/health', () => fetch(`${mock.baseUrl}/api/v2/health`));
const msw = await measure('MSW + fetch GET getCampaignData (JWT checked)', () => fetch(`${mock.baseUrl}${list}`, { headers }));
await mock.close();
console.log(
  `\nmock.fetch adds ~${(directHealth - appHealth).toFixed(1)} µs (health) and ~${(direct - appList).toFixed(1)} µs (getCampaignData) to the bare app.`,
);
console.log(
  `MSW adds ~${(mswHealth - directHealth).toFixed(0)} µs (health) and ~${(msw - direct).toFixed(0)} µs (getCampaignData) a request; baseline ${noop.toFixed(1)} µs.`,
);
