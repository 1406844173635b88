/**
 * Property fuzzing of every operation of the contract, on PGlite and on the mock's memory store:
 * requests derived from the operations' own schemas (mostly valid, naming real ids), with hostile
 * mutations, wrong credentials and Idempotency-Keys mixed in. Every answer must be a status the OpenAPI
 * document lists for the operation and method, never a 5xx, with a body that keeps the documented
 * schema: the operation's response schema on 2xx, ErrorResponse otherwise.
 *
 * FUZZ_RUNS sets the number of generated requests (default 10,000, shared between the stores),
 * FUZZ_SEED the seed; FUZZ_ALL_FAILURES=1 keeps going past a failure and lists one request for every
 * kind of failure at the end. `pnpm fuzz` runs 100,000.
 */
import { ErrorResponse, type OperationSpec, operations } from '@engagekit/contract';
import { createOpenApiDocument } from '@engagekit/contract/document';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSeededIds } from '../../runtime/src/ids.ts';
import { createMemoryStore, openSqlStore } from '../src/store/index.ts';
import { describeRequest, type FuzzRequest, realize, urlOf, type World } from './fuzz/realize.ts';
import { type Recipe, recipes } from './fuzz/recipes.ts';
import { migratedPgliteDump, sampleOrder } from './helpers.ts';
import { inProcessApp, TEST_ADMIN_TOKEN } from './in-process.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_121);
const ALL_FAILURES = process.env.FUZZ_ALL_FAILURES === '1';
/** PGlite answers a write several times slower than the memory store: it gets the smaller share. */
const SHARE = { memory: 0.65, pglite: 0.35 } as const;

const byId = operations as Record<string, OperationSpec>;
const openApi = createOpenApiDocument();

/** The statuses the OpenAPI document lists for an operation's path and method: the one source of what may be answered. */
function documentedStatuses(op: OperationSpec, method: string): string[] {
  const item = openApi.paths?.[op.path] as Record<string, { responses?: Record<string, unknown> }> | undefined;
  return Object.keys(item?.[method.toLowerCase()]?.responses ?? {});
}

/** A broken promise of the API: what was wrong with an answer. */
class FuzzFailure extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

const clip = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** Checks one answer against the document and the contract; resolves to its status and parsed body. */
async function checkAnswer(op: OperationSpec, req: FuzzRequest, res: Response): Promise<{ status: number; json: unknown; text: string }> {
  const text = await res.text();
  const { status } = res;
  if (status >= 500) throw new FuzzFailure(`${status}`, `answered ${status}: ${clip(text)}`);
  const documented = documentedStatuses(op, req.method);
  if (!documented.includes(String(status))) {
    throw new FuzzFailure(
      `undocumented ${status}`,
      `answered ${status}, which the document does not list for ${op.operationId} (${req.method} ${op.path}: ${documented.join(', ')}): ${clip(text)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new FuzzFailure(`${status} not JSON`, `answered ${status} with a body that is not JSON: ${clip(text)}`);
  }
  const schema = status < 300 ? (op.responses as Record<number, { schema: typeof ErrorResponse } | undefined>)[status]?.schema : ErrorResponse;
  const parsed = schema?.safeParse(json);
  if (!parsed?.success) {
    throw new FuzzFailure(
      `${status} body`,
      `answered ${status} with a body that breaks its schema: ${clip(JSON.stringify(parsed?.error?.issues ?? 'no schema'))}\n${clip(text)}`,
    );
  }
  if (!res.headers.get('x-request-id')) throw new FuzzFailure(`${status} request id`, `answered ${status} without x-request-id`);
  return { status, json, text };
}

interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

/** A request sent again with its Idempotency-Key after the first answer: the same answer, replayed when the first was kept. */
function checkAfter(first: Answer, again: Answer): void {
  if (again.status !== first.status)
    throw new FuzzFailure('replay status', `answered ${first.status}, then ${again.status} to the same request and Idempotency-Key`);
  if (first.status < 300 && !again.replayed) {
    throw new FuzzFailure('replay', `answered ${first.status}, then ran the same request and Idempotency-Key again instead of replaying the answer`);
  }
}

/** The same request and Idempotency-Key sent twice at once: never both run; the one that waits gets a 409 or the replayed answer. */
function checkTogether(a: Answer, b: Answer): void {
  if (a.status < 300 && b.status < 300 && !a.replayed && !b.replayed) {
    throw new FuzzFailure('ran twice', `ran the same request and Idempotency-Key twice at once (${a.status} and ${b.status}), replaying neither`);
  }
  const waited = [a, b].filter((x) => x.status === 409 && x.text.includes('idempotency_in_progress'));
  if (a.status !== b.status && waited.length === 0) {
    throw new FuzzFailure('together status', `answered ${a.status} and ${b.status} to the same request and Idempotency-Key sent twice at once`);
  }
}

const remember = (list: string[], id: unknown) => {
  if (typeof id !== 'string' || list.includes(id)) return;
  list.push(id);
  if (list.length > 64) list.shift();
};

/** Ids a successful answer made known, for later requests to name. */
function learn(world: World, op: OperationSpec, req: FuzzRequest, status: number, json: unknown): void {
  if (status >= 300) return;
  const data = (json as { data?: Record<string, unknown> }).data ?? {};
  const own = req.path.includes(world.company.uuid) || req.query.some(([k, v]) => k === 'uuid' && v === world.company.uuid);
  switch (op.operationId) {
    case 'createCampaign':
      if (data.uuid === world.company.uuid) remember(world.campaigns, data.id);
      break;
    case 'createWebhook':
      if (own) remember(world.spareWebhooks, data.id);
      break;
    case 'deleteWebhook':
      world.spareWebhooks = world.spareWebhooks.filter((id) => id !== data.id);
      break;
    case 'sendTestEvent':
    case 'redeliverWebhookDelivery':
      if (data.endpoint_id === world.webhook) remember(world.deliveries, data.id);
      break;
    case 'addOrder':
      if (data.company_id === world.company.code) remember(world.orders, data.company_order_id);
      break;
  }
}

/** Two companies, tokens of every kind, and a few of everything for requests to name. */
async function makeWorld(call: (method: string, path: string, token: string, body?: unknown) => Promise<{ data: Record<string, unknown> }>): Promise<World> {
  const admin = TEST_ADMIN_TOKEN;
  const company = (await call('POST', '/api/v2/companies', admin, { name: 'Fuzz', company_id: 'FUZZ-A', timezone: 'Asia/Kolkata' })).data;
  const other = (await call('POST', '/api/v2/companies', admin, { name: 'Other', company_id: 'FUZZ-B' })).data;
  const token = async (uuid: unknown, scopes?: string[]) =>
    (await call('POST', `/api/v2/companies/${uuid}/tokens`, admin, scopes ? { scopes } : {})).data.token as string;
  const world: World = {
    adminToken: admin,
    company: { uuid: company.uuid as string, code: company.company_id as string },
    other: { uuid: other.uuid as string, code: other.company_id as string },
    tokens: {
      company: await token(company.uuid),
      agencyOnly: await token(company.uuid, ['agency']),
      ordersOnly: await token(company.uuid, ['orders']),
      otherCompany: await token(other.uuid),
    },
    campaigns: [],
    webhook: '',
    spareWebhooks: [],
    deliveries: [],
    orders: [],
  };
  const agency = (path: string) => `${path}?uuid=${world.company.uuid}`;
  await call('POST', agency('/agency/template'), world.tokens.company, { template_name: 'fuzz_offer', phone_number: '6363978748', wam_id: 'wam-fuzz' });
  for (const name of ['Fuzz once', 'Fuzz weekly']) {
    const recurring = name.endsWith('weekly');
    const campaign = await call('POST', agency('/agency/createCampaign'), world.tokens.company, {
      name,
      schedule_type: recurring ? 'recurring' : 'once',
      schedule: '2026-02-01T09:00:00Z',
      ...(recurring ? { days: { monday: ['09:00'] } } : {}),
      template_payload: { template_name: 'fuzz_offer', body_variable: ['first_name'], variables: { first_name: '{{customer.firstName}}' } },
    });
    remember(world.campaigns, campaign.data.id);
  }
  const hooks = `/api/v2/companies/${world.company.uuid}/webhooks`;
  world.webhook = (await call('POST', hooks, admin, { url: 'https://hooks.example.com/fuzz' })).data.id as string;
  for (let i = 0; i < 4; i++) remember(world.spareWebhooks, (await call('POST', hooks, admin, { url: `https://hooks.example.com/spare-${i}` })).data.id);
  for (let i = 0; i < 2; i++) remember(world.deliveries, (await call('POST', `${hooks}/${world.webhook}/test`, admin, {})).data.id);
  for (let i = 0; i < 3; i++)
    remember(
      world.orders,
      (await call('POST', '/api/order/addOrder', world.tokens.company, sampleOrder(world.company.code, `FUZZ-${i}`))).data.company_order_id,
    );
  return world;
}

/** Requests sent and statuses answered, by store and operation. */
const tally = { sent: 0, byStore: {} as Record<string, number>, statuses: new Map<string, Map<number, number>>(), ms: {} as Record<string, number> };
const count = (store: string, operationId: string, status: number) => {
  tally.sent++;
  tally.byStore[store] = (tally.byStore[store] ?? 0) + 1;
  const seen = tally.statuses.get(operationId) ?? new Map<number, number>();
  seen.set(status, (seen.get(status) ?? 0) + 1);
  tally.statuses.set(operationId, seen);
};

afterAll(() => {
  const lines = [...tally.statuses]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([id, seen]) =>
        `  ${id.padEnd(25)} ${[...seen]
          .sort((a, b) => b[1] - a[1])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
  const stores = Object.entries(tally.byStore).map(([store, n]) => `${store} ${n} in ${((tally.ms[store] ?? 0) / 1000).toFixed(1)} s`);
  console.log(`Fuzz: ${tally.sent} requests (${stores.join(', ')}), seed ${SEED}\n${lines.join('\n')}`);
});

describe.each(['memory', 'pglite'] as const)('every operation, fuzzed from its schemas, on the %s store', (kind) => {
  const runs = Math.ceil(RUNS * SHARE[kind]);

  it(
    `answers ${runs} generated requests with documented statuses and bodies, never a 5xx`,
    async () => {
      const store = kind === 'memory' ? createMemoryStore() : await openSqlStore({ memory: true, loadDataDir: await migratedPgliteDump() });
      const env = await inProcessApp({ store, config: { validateResponses: true } });
      // The same server with a rate limit of one request a minute on a clock that stands still: once a
      // token has made its one request, every further one that authenticates is a 429.
      const limited = await inProcessApp({ store, ids: createSeededIds(7), config: { validateResponses: true, rateLimitPerMinute: 1 } });
      const send = (r: FuzzRequest, app = env) =>
        app.fetch(urlOf(r), { method: r.method, headers: r.headers, ...(r.body === undefined ? {} : { body: r.body }) });
      const world = await makeWorld(async (method, path, token, body) => {
        const res = await env.fetch(path, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body ?? {}),
        });
        if (res.status >= 300) throw new Error(`Setting up the fuzz: ${method} ${path} answered ${res.status}: ${await res.text()}`);
        return res.json();
      });
      for (const token of [world.adminToken, ...Object.values(world.tokens)]) {
        await limited.fetch(`/api/v2/companies/${world.company.uuid}/webhooks`, { headers: { authorization: `Bearer ${token}` } });
      }

      let last: { request: string; message: string } | undefined;
      const failures = new Map<string, { request: string; message: string; times: number }>();
      const property = fc.asyncProperty(recipes(), async (recipe: Recipe) => {
        const op = byId[recipe.operationId] as OperationSpec;
        const request = realize(recipe, world);
        const app = recipe.rateLimited ? limited : env;
        const answer = async (res: Response) => {
          const checked = await checkAnswer(op, request, res);
          count(kind, op.operationId, checked.status);
          learn(world, op, request, checked.status, checked.json);
          return { ...checked, replayed: res.headers.get('idempotent-replayed') === 'true' };
        };
        try {
          const repeat = recipe.idempotency?.repeat ?? 'no';
          if (repeat === 'together') {
            const [a, b] = await Promise.all([send(request, app), send(request, app)]);
            checkTogether(await answer(a), await answer(b));
          } else {
            const first = await answer(await send(request, app));
            if (repeat === 'after') checkAfter(first, await answer(await send(request, app)));
          }
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          last = { request: describeRequest(request, world), message };
          if (!ALL_FAILURES) throw e;
          const key = `${op.operationId} ${e instanceof FuzzFailure ? e.kind : 'crash'}`;
          const seen = failures.get(key);
          if (seen) seen.times++;
          else failures.set(key, { ...last, times: 1 });
        }
      });
      const report: fc.Plugin<[Recipe]> = () => ({
        onAllRunsComplete(details) {
          if (!details.failed) return;
          if (details.counterexample === null) throw new Error(`The fuzz run stopped early (seed ${details.seed}): ${fc.defaultReportMessage(details)}`);
          throw new Error(
            [
              `A generated request broke the contract on the ${kind} store after ${details.numRuns} runs and ${details.numShrinks} shrinks.`,
              `Seed ${details.seed} (replay: FUZZ_SEED=${details.seed} FUZZ_RUNS=${RUNS}), path ${details.counterexamplePath}.`,
              `The server ${last?.message ?? 'failed'}`,
              '',
              'Request:',
              last?.request ?? '(not sent)',
              '',
              `Recipe: ${clip(fc.stringify(details.counterexample[0]), 2000)}`,
            ].join('\n'),
          );
        },
      });
      const started = performance.now();
      const before = tally.byStore[kind] ?? 0;
      try {
        await fc.assert(property, { numRuns: runs, seed: SEED, plugins: [report] });
      } finally {
        tally.ms[kind] = performance.now() - started;
        await store.close();
      }
      if (failures.size > 0) {
        const list = [...failures].map(([key, f]) => `${key} (${f.times}×): the server ${f.message}\n${f.request}`);
        throw new Error(`${failures.size} kinds of failure on the ${kind} store:\n\n${list.join('\n\n')}`);
      }
      expect((tally.byStore[kind] ?? 0) - before).toBeGreaterThanOrEqual(runs);
    },
    // About a millisecond a request in memory and a few on PGlite, with room for a slow shared machine.
    60_000 + RUNS * 20,
  );
});

describe('the fuzz run', () => {
  it(`sent at least ${RUNS} requests`, () => {
    expect(tally.sent).toBeGreaterThanOrEqual(RUNS);
  });
});
