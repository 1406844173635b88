/** The mock's in-process rows: SDK calls through `mock.fetch` and `mock.listen()`, and a partner's suite. */
import { setupMockApi } from '@engagekit/mock-server/node';
import { createClient } from '@engagekit/sdk';
import { Hono } from 'hono';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { atLeast, atMost, type Bench, cpuRounds, inTurns, median, row, sideBySide, turnsNote } from '../lib.ts';
import { startPrism, stopChild } from '../processes.ts';
import { CAMPAIGN } from './mock-common.ts';

/** SDK operations a second over `seconds` with `concurrency` callers. */
async function opsPerSecond(call: () => Promise<unknown>, seconds = 3, concurrency = 10): Promise<number> {
  for (let i = 0; i < 100; i++) await call();
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        n++;
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** SDK campaigns.get through `mock.fetch` vs the same SDK against Prism over HTTP, in turns. */
export const mockInProcess: Bench = {
  id: 'mock.inprocess.vs-prism',
  async run() {
    const prism = await startPrism();
    const mock = setupMockApi({ baseUrl: 'http://mock.bench', seed: 1 });
    try {
      const created = await createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch }).campaigns.create(
        CAMPAIGN,
      );
      const viaFetch = createClient({ baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
      // Prism drops kept-alive sockets now and then: the SDK's default retries carry its calls over that.
      const viaPrism = createClient({ baseUrl: prism.url, token: mock.company.token, uuid: mock.company.uuid });
      const r = await inTurns(
        3,
        { ours: () => opsPerSecond(() => viaFetch.campaigns.get(created.id)), prism: () => opsPerSecond(() => viaPrism.campaigns.get(created.id)) },
        { warmUp: true },
      );
      return row({
        id: 'mock.inprocess.vs-prism',
        metric: 'SDK campaigns.get ops/s through mock.fetch vs Prism over HTTP (10 concurrent callers, 3 rounds of 3 s in turns after a warm-up turn of each)',
        note: `ops/s by round: mock.fetch ${turnsNote(r.ours)}; prism ${turnsNote(r.prism)}`,
        ours: Math.round(r.ours.median),
        peer: Math.round(r.prism.median),
        unit: 'ops/s',
        better: 'higher',
        // Reported: Prism's own speed moves it; mock.inprocess.cpu.vs-hono carries the goal.
      });
    } finally {
      await mock.close();
      await stopChild(prism.child);
    }
  },
};

/**
 * CPU time a `campaigns.get` through `mock.fetch`, against the same SDK call through a bare Hono app's
 * `fetch` answering the stored JSON with platform classes (`c.json`): the floor of "a real Request and
 * Response, one route". In this process, in turns, as the SDK rows measure (trimmed means of batches).
 */
export const mockInProcessCpu: Bench = {
  id: 'mock.inprocess.cpu.vs-hono',
  async run() {
    const mock = setupMockApi({ baseUrl: 'http://mock.bench', seed: 1 });
    try {
      const auth = { baseUrl: mock.baseUrl, token: mock.company.token, uuid: mock.company.uuid, maxRetries: 0 };
      const created = await createClient({ ...auth, fetch: mock.fetch }).campaigns.create(CAMPAIGN);
      const answer = await mock.fetch(`/agency/getCampaign/${created.id}?uuid=${mock.company.uuid}`, {
        headers: { authorization: `Bearer ${mock.company.token}` },
      });
      const stored = await answer.json();
      const hono = new Hono().get('/agency/getCampaign/:id', (c) => c.json(stored));
      const viaMock = createClient({ ...auth, fetch: mock.fetch });
      const viaHono = createClient({ ...auth, fetch: async (input: Request | string | URL, init?: RequestInit) => hono.fetch(new Request(input, init)) });
      const r = await cpuRounds(5, 200, 10, { ours: () => viaMock.campaigns.get(created.id), hono: () => viaHono.campaigns.get(created.id) });
      return row({
        id: 'mock.inprocess.cpu.vs-hono',
        metric:
          'SDK campaigns.get through mock.fetch vs the same SDK call through a bare Hono app’s fetch answering the same JSON: CPU µs a call (trimmed mean of batches of 10 in turns, median of 5 rounds)',
        ours: Math.round(r.ours * 10) / 10,
        peer: Math.round(r.hono * 10) / 10,
        unit: 'µs CPU/call',
        better: 'lower',
        goal: atMost(2),
      });
    } finally {
      await mock.close();
    }
  },
};

/**
 * SDK campaigns.get through `mock.listen()` (MSW intercepting the global fetch) vs one handwritten MSW
 * handler answering the same JSON. Only one MSW server may intercept at a time: each round listens and
 * closes each side in turn (a new mock each round, same seed, so the same campaign id).
 */
export const mockMsw: Bench = {
  id: 'mock.msw.vs-msw-handwritten',
  async run() {
    const baseUrl = 'http://mock.bench';
    const probe = setupMockApi({ baseUrl, seed: 1 });
    const auth = { baseUrl, token: probe.company.token, uuid: probe.company.uuid, maxRetries: 0 };
    const created = await createClient({ ...auth, fetch: probe.fetch }).campaigns.create(CAMPAIGN);
    const answer = await probe.fetch(`/agency/getCampaign/${created.id}?uuid=${probe.company.uuid}`, {
      headers: { authorization: `Bearer ${probe.company.token}` },
    });
    const sameBody = (await answer.json()) as Record<string, unknown>;
    await probe.close();
    const client = createClient(auth);
    // CPU microseconds a call, beside ops/s: both sides run in this process, so on a shared machine it says more.
    const cpuPerCall: { ours: number[]; peer: number[] } = { ours: [], peer: [] };
    const measure = async (side: 'ours' | 'peer') => {
      const c0 = process.cpuUsage();
      let calls = 0;
      const ops = await opsPerSecond(() => {
        calls++;
        return client.campaigns.get(created.id);
      }, 1.5);
      const cpu = process.cpuUsage(c0);
      cpuPerCall[side].push((cpu.user + cpu.system) / calls);
      return ops;
    };
    const ours = async () => {
      const mock = setupMockApi({ baseUrl, seed: 1 });
      await createClient({ ...auth, fetch: mock.fetch }).campaigns.create(CAMPAIGN);
      mock.listen({ onUnhandledFrame: 'error' });
      try {
        return await measure('ours');
      } finally {
        await mock.close();
      }
    };
    const peer = async () => {
      const server = setupServer(http.get(`${baseUrl}/agency/getCampaign/:id`, () => HttpResponse.json(sameBody)));
      server.listen({ onUnhandledFrame: 'error' });
      try {
        return await measure('peer');
      } finally {
        server.close();
      }
    };
    const r = await sideBySide(9, ours, peer);
    return row({
      id: 'mock.msw.vs-msw-handwritten',
      metric:
        'SDK campaigns.get ops/s through mock.listen() (MSW) vs one handwritten MSW handler answering the same JSON (10 concurrent callers, 9 rounds of 1.5 s in turns)',
      ours: Math.round(r.ours),
      peer: Math.round(r.peer),
      unit: 'ops/s',
      better: 'higher',
      goal: atLeast(0.9),
      note: `CPU a call (median): ours ${median(cpuPerCall.ours).toFixed(0)} µs, peer ${median(cpuPerCall.peer).toFixed(0)} µs`,
    });
  },
};

/** The three calls of one partner test case: create a campaign, get it, list the campaigns. */
async function partnerCase(client: ReturnType<typeof createClient>, i: number) {
  const campaign = await client.campaigns.create({ ...CAMPAIGN, name: `case ${i}` });
  const again = await client.campaigns.get(campaign.id);
  const page = await client.campaigns.list();
  if (again.id !== campaign.id || page.data.length !== 1) throw new Error(`partner case ${i}: got ${again.id}, ${page.data.length} campaigns`);
}

const CASES = 1000;

/**
 * A partner's suite of 1,000 cases, each from a clean state then create + get + list through the SDK:
 * on the mock (`mock.reset()` before each case, `mock.fetch`) vs what partners write today, handwritten
 * MSW handlers for those three operations over an array cleared before each case (`resetHandlers()`).
 */
export const mockPartnerSuite: Bench = {
  id: 'mock.partner-suite',
  async run() {
    const baseUrl = 'http://mock.bench';
    const mock = setupMockApi({ baseUrl, seed: 1 });
    const client = createClient({ baseUrl, token: mock.company.token, uuid: mock.company.uuid, fetch: mock.fetch, maxRetries: 0 });
    const ours = async () => {
      const t0 = performance.now();
      for (let i = 0; i < CASES; i++) {
        await mock.reset();
        await partnerCase(client, i);
      }
      return performance.now() - t0;
    };
    // The handwritten peer: what a partner's test file holds without the mock.
    let campaigns: Record<string, unknown>[] = [];
    const envelope = (data: unknown) => ({ success: true, message: 'ok', data });
    const server = setupServer(
      http.post(`${baseUrl}/agency/createCampaign`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        const now = new Date().toISOString();
        const campaign = {
          id: `cmp_${campaigns.length + 1}`,
          uuid: mock.company.uuid,
          status: 'scheduled',
          pause_reason: null,
          failure_reason: null,
          days: null,
          startDate: '2030-01-15',
          endDate: null,
          next_run_at: '2030-01-15T10:00:00.000Z',
          created_at: now,
          updated_at: now,
          ...body,
        };
        campaigns.push(campaign);
        return HttpResponse.json(envelope(campaign), { status: 201 });
      }),
      http.get(`${baseUrl}/agency/getCampaign/:id`, ({ params }) => {
        const campaign = campaigns.find((c) => c.id === params.id);
        return campaign ? HttpResponse.json(envelope(campaign)) : HttpResponse.json({ success: false, message: 'No campaign data found.' }, { status: 404 });
      }),
      http.get(`${baseUrl}/agency/getCampaignData`, ({ request }) => {
        const url = new URL(request.url);
        const page = Number(url.searchParams.get('page') ?? 1);
        const limit = Number(url.searchParams.get('limit') ?? 10);
        const data = campaigns.slice((page - 1) * limit, page * limit);
        return HttpResponse.json({ ...envelope(data), pagination: { total: campaigns.length, page, limit, totalPages: Math.ceil(campaigns.length / limit) } });
      }),
    );
    const viaMsw = createClient({ baseUrl, token: mock.company.token, uuid: mock.company.uuid, maxRetries: 0 });
    const peer = async () => {
      server.listen({ onUnhandledFrame: 'error' });
      try {
        const t0 = performance.now();
        for (let i = 0; i < CASES; i++) {
          server.resetHandlers();
          campaigns = [];
          await partnerCase(viaMsw, i);
        }
        return performance.now() - t0;
      } finally {
        server.close();
      }
    };
    try {
      const r = await sideBySide(3, ours, peer);
      return row({
        id: 'mock.partner-suite',
        metric: `${CASES} test cases, each mock.reset() then SDK campaigns.create + get + list through mock.fetch, vs handwritten MSW handlers (array cleared, resetHandlers()); total ms`,
        ours: Math.round(r.ours),
        peer: Math.round(r.peer),
        unit: 'ms',
        better: 'lower',
        goal: atMost(0.2),
      });
    } finally {
      await mock.close();
    }
  },
};

export const benches: Bench[] = [mockInProcess, mockInProcessCpu, mockMsw, mockPartnerSuite];
