/**
 * What a request costs, in CPU time, through `mock.fetch` (straight to the app) and through MSW
 * interception of the global fetch, on the same mock. Run: `pnpm --filter @engagekit/mock-server bench`.
 * Numbers only: no assertion, since this machine is shared and noisy.
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

type Send = () => Promise<Response>;

// The ways given to one measureAll take turns in its rounds, so that the machine's load and the JIT's
// warming fall on all of them alike; each figure is the median of the rounds' CPU time (user and system)
// a request, since a shared machine's wall clock moves more than the differences shown here.
const ROUNDS = 7;
const PER_ROUND = 1000;

async function cpuPerRequest(send: Send, n: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await (await send()).arrayBuffer();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / n;
}

async function measureAll(ways: Record<string, Send>, perRound = PER_ROUND): Promise<Record<string, number>> {
  const rounds: Record<string, number[]> = {};
  for (const [label, send] of Object.entries(ways)) {
    await cpuPerRequest(send, Math.min(300, perRound));
    rounds[label] = [];
  }
  for (let r = 0; r < ROUNDS; r++) for (const [label, send] of Object.entries(ways)) rounds[label]?.push(await cpuPerRequest(send, perRound));
  const medians: Record<string, number> = {};
  for (const [label, figures] of Object.entries(rounds)) {
    const sorted = figures.sort((a, b) => a - b);
    medians[label] = sorted[Math.floor(sorted.length / 2)] as number;
    const spread = `${(sorted[0] as number).toFixed(1)}-${(sorted.at(-1) as number).toFixed(1)}`;
    console.log(`${label.padEnd(46)} ${(medians[label] as number).toFixed(1).padStart(8)} µs CPU/request (rounds ${spread})`);
  }
  return medians;
}

/** "adds ~N µs", or, for a difference under 1 µs (or below nothing, as noise can make it), that none shows. */
const adds = (more: number, less: number) =>
  more - less >= 1 ? `adds ~${(more - less).toFixed(1)} µs` : `adds nothing measurable (${(more - less).toFixed(1)} µs)`;

// In-process first, MSW after: MSW's interception allocates enough that its collections would fall on
// whatever ran beside it, and what it adds (milliseconds) dwarfs the noise of the figures before.
const inProcess = await measureAll({
  'baseline: an empty Response': async () => new Response('{}'),
  'bare app.fetch GET /api/v2/health': async () => app.fetch(new Request(`${mock.baseUrl}/api/v2/health`)),
  'bare app.fetch GET getCampaignData': async () => app.fetch(new Request(`${mock.baseUrl}${list}`, { headers })),
  'mock.fetch GET /api/v2/health': () => mock.fetch('/api/v2/health'),
  'mock.fetch GET getCampaignData (JWT checked)': () => mock.fetch(list, { headers }),
});
mock.listen({ onUnhandledFrame: 'error' });
const throughMsw = await measureAll(
  {
    'MSW + fetch GET /api/v2/health': () => fetch(`${mock.baseUrl}/api/v2/health`),
    'MSW + fetch GET getCampaignData (JWT checked)': () => fetch(`${mock.baseUrl}${list}`, { headers }),
  },
  200,
);
await mock.close();
const at = (label: string) => (inProcess[label] ?? throughMsw[label]) as number;
console.log(
  `\nmock.fetch ${adds(at('mock.fetch GET /api/v2/health'), at('bare app.fetch GET /api/v2/health'))} (health) and ${adds(
    at('mock.fetch GET getCampaignData (JWT checked)'),
    at('bare app.fetch GET getCampaignData'),
  )} (getCampaignData) to the bare app.`,
);
console.log(
  `MSW adds ~${(at('MSW + fetch GET /api/v2/health') - at('mock.fetch GET /api/v2/health')).toFixed(0)} µs (health) and ~${(
    at('MSW + fetch GET getCampaignData (JWT checked)') - at('mock.fetch GET getCampaignData (JWT checked)')
  ).toFixed(0)} µs (getCampaignData) a request; baseline ${at('baseline: an empty Response').toFixed(1)} µs.`,
);
