/**
 * The live target: execute's calls go through the real SDK to the reference server (engagekit-server,
 * started here on its embedded database), while dry runs go to the mock and read-only mode keeps writes
 * from leaving the host.
 */
import { createClient } from '@engagekit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCaller, type ServerProcess, startServerProcess } from '../../reference-server/test/helpers.ts';
import type { ApiConnection } from '../src/index.ts';
import { type Connected, connect } from './helpers.ts';

const ADMIN_TOKEN = 'mcp-live-admin-token-0123456789';
let server: ServerProcess;
let api: ApiConnection;
let live: Connected;
let readOnly: Connected;
/** What the read-only server's SDK sent to the reference server. */
const sent: string[] = [];

beforeAll(async () => {
  server = await startServerProcess({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: '0' });
  const call = jsonCaller(server.url);
  const company = (await call('POST', '/api/v2/companies', ADMIN_TOKEN, { name: 'MCP live tests' })).data as { uuid: string };
  const { token } = (await call('POST', `/api/v2/companies/${company.uuid}/tokens`, ADMIN_TOKEN, {})).data as { token: string };
  api = { baseUrl: server.url, token, uuid: company.uuid };
  live = await connect({ target: 'api', api });
  readOnly = await connect({
    target: 'api',
    api: {
      ...api,
      fetch: (url, init) => {
        sent.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`);
        return globalThis.fetch(url, init);
      },
    },
    readOnly: true,
  });
  // What the server read at start (its company, for rehearsals) is not a run's.
  expect(sent).toEqual([`GET /api/v2/companies/${company.uuid}`]);
  sent.length = 0;
});
afterAll(async () => {
  await live?.close();
  await readOnly?.close();
  await server?.stop();
});

/** The company's campaigns on the server, read beside the MCP server with the SDK. */
const liveCampaigns = async () => (await createClient(api).campaigns.list({ limit: 100 })).data.map((c) => c.name);

const body = (name: string) => `{ name: '${name}', schedule_type: 'once', schedule: '2031-01-15T10:00:00Z', template_payload: { template_name: 'welcome' } }`;

describe('execute against the reference server', () => {
  it('creates and reads a campaign through the real SDK, with the server’s request ids', async () => {
    const run = await live.execute(`
      const created = await client.campaigns.create(${body('Live launch')});
      const page = await client.campaigns.list({ limit: 10 });
      return { id: created.id, names: page.data.map((c) => c.name), total: page.total };
    `);
    expect(run.isError, run.text).toBe(false);
    expect(run.target).toBe('api');
    expect(run.result).toMatchObject({ names: ['Live launch'], total: 1 });
    expect(run.calls.map((c) => [c.operation, c.status])).toEqual([
      ['campaigns.create', 201],
      ['campaigns.list', 200],
    ]);
    expect(run.calls.every((c) => /^req_/.test(c.requestId ?? ''))).toBe(true);
    expect(run.text).toContain(`Ran against the live API at ${server.url}.`);
    expect(await liveCampaigns()).toEqual(['Live launch']);
  });

  it('gives the server’s typed errors back: a duplicate name is a ConflictError', async () => {
    const run = await live.execute(`await client.campaigns.create(${body('Live launch')});`);
    expect(run.error).toMatchObject({ name: 'ConflictError', status: 409, code: 'conflict', operation: 'campaigns.create' });
  });

  it('sends a dry run to the mock: the server never sees it', async () => {
    const run = await live.execute(
      `await client.campaigns.create(${body('Rehearsed only')}); return (await client.campaigns.list()).data.map((c) => c.name);`,
      {
        dry_run: true,
      },
    );
    expect(run.target).toBe('mock');
    expect(run.result).toEqual(['Rehearsed only']);
    expect(await liveCampaigns()).toEqual(['Live launch']);
  });

  it('refuses reset on a run that goes to the live API', async () => {
    const run = await live.execute('return 1', { reset: true });
    expect(run.error).toMatchObject({ name: 'Refused' });
    expect(run.error?.message).toContain('Add dry_run: true');
  });
});

describe('rehearsals as the live company', () => {
  it('rehearses as the token’s own company: code that runs in a dry run runs live, and the other way round', async () => {
    const code = `
      const company = await client.company.get();
      const order = await client.orders.add({ company_id: company.company_id, company_order_id: 'SAME-1', totalAmount: 5, firstName: 'Ada', phoneNumber: '+14155550100', postalCode: '94107', streetAddress1: '1 Market St' });
      return { uuid: company.uuid, version: order.version };
    `;
    const rehearsed = await live.execute(code, { dry_run: true });
    expect(rehearsed.isError, rehearsed.text).toBe(false);
    const ran = await live.execute(code);
    expect(ran.isError, ran.text).toBe(false);
    expect(rehearsed.result).toEqual(ran.result);
    expect(ran.result).toMatchObject({ uuid: api.uuid });
  });
});

describe('mock-only code on the live API', () => {
  it('is refused before any call, naming the line', async () => {
    const run = await live.execute(`
      await client.orders.add({ company_id: 'X', company_order_id: 'MOCK-1', totalAmount: 1, firstName: 'A', phoneNumber: '+14155550100', postalCode: '1', streetAddress1: '1' });
      await mock.clock.advance('1h');
    `);
    expect(run.error).toMatchObject({ name: 'Refused', line: 3 });
    expect(run.error?.message).toContain('The code uses `mock` (line 3), which only a rehearsal has');
    expect(run.calls).toEqual([]);
  });

  it('runs when the name only looks like it', async () => {
    const run = await live.execute('const mockData = { n: 1 };\nreturn mockData.n;');
    expect(run.result).toBe(1);
  });
});

describe('an idempotent replay', () => {
  it('is marked in the call list: the server answered as the first time', async () => {
    const run = await live.execute(`
      const body = { name: 'Replayed once', schedule_type: 'once', schedule: '2031-02-01T10:00:00Z', template_payload: { template_name: 'welcome' } } as const;
      const first = await client.campaigns.create(body, { idempotencyKey: 'mcp-replay-1' }).withResponse();
      const again = await client.campaigns.create(body, { idempotencyKey: 'mcp-replay-1' }).withResponse();
      return [first.replayed ?? false, again.replayed ?? false, first.data.id === again.data.id];
    `);
    expect(run.result).toEqual([false, true, true]);
    expect(run.calls.map((c) => c.replayed ?? false)).toEqual([false, true]);
    expect(run.text).toContain('replayed (the server answered as the first time: nothing new was written)');
  });
});

describe('--read-only against the reference server', () => {
  it('reads, and refuses a write before anything is sent', async () => {
    const run = await readOnly.execute(`
      const before = await client.campaigns.list();
      await client.orders.add({ company_id: 'X', company_order_id: 'RO-1', totalAmount: 1, firstName: 'A', phoneNumber: '+14155550100', postalCode: '1', streetAddress1: '1' });
      return before.total;
    `);
    expect(run.error).toMatchObject({ name: 'Refused', limit: 'read-only' });
    expect(run.error?.message).toMatch(/^client\.orders\.add \(POST \/api\/order\/addOrder, addOrder\) is a write/);
    expect(run.text).not.toContain('Refused: Refused');
    expect(run.calls.map((c) => c.operation)).toEqual(['campaigns.list', 'orders.add']);
    expect(sent).toEqual(['GET /agency/getCampaignData']);
  });
});
